/* Suite uncore's start of every check and its evidence helpers (uncore_checks.h): the emulated uncore, or the
 * recognised part's own (not under a hypervisor, not uncore=off, its registers probed first: a #GP is evidence); SKIP
 * without either (the recognition's evidence) or when the kind lacks what the check needs; the scope plan (tests/
 * uncore/portable/uncore_scope.c over each CPU's placement, or its topology on hardware); a verdict's describe lines
 * as notes. */
#include <string.h>

#include "emul/kernel/pmu_emul.h"
#include "emul/kernel/uncore_emul.h"
#include "emul/options.h"
#include "harness/report.h"
#include "kernel/cpuid_hw.h"
#include "kernel/ledger.h"
#include "kernel/percpu.h"
#include "kernel/safe.h"
#include "kernel/smp.h"
#include "lib/format.h"
#include "tests/uncore/portable/uncore_topology.h"
#include "tests/uncore/uncore_checks.h"

/* The machine's scopes: which CPU leads each, and each CPU's scope and core rank (emulated: the placement by index;
 * hardware: the topology). */
struct uncore_scope_plan uncore_plan;
u32 uncore_cpu_scope[UNCORE_PROTO_MAX_CPUS], uncore_cpu_core[UNCORE_PROTO_MAX_CPUS];
u32 uncore_ncpu;

/* Each online CPU's place from its own CPUID leaves (tests/uncore/portable/uncore_topology.c). */
struct hw_place {
    bool ran, ok;
    const char *why;
    struct uncore_thread_place p;
};
static struct hw_place hw_place[UNCORE_PROTO_MAX_CPUS];
static enum uncore_scope hw_scope;

static void place_me(void *arg)
{
    (void)arg;
    u32 i = this_cpu()->index;
    if (i >= UNCORE_PROTO_MAX_CPUS)
        return;
    hw_place[i].ok = uncore_thread_place(&cpuid_hw, hw_scope, &hw_place[i].p, &hw_place[i].why);
    hw_place[i].ran = true;
}

/* A recognised part: its packages (L3 complexes) planned from every online CPU's topology, as evidence of what the
 * checks would run on; false (after a note) when a CPU's place is not known. */
static bool plan_from_topology(struct check *c, const struct uncore_kind_desc *k)
{
    memset(hw_place, 0, sizeof(hw_place));
    hw_scope = k->scope;
    smp_run_on_each(place_me, NULL);
    uncore_ncpu = smp.count ? smp.count : 1;
    if (uncore_ncpu > UNCORE_PROTO_MAX_CPUS)
        uncore_ncpu = UNCORE_PROTO_MAX_CPUS;
    u32 skey[UNCORE_PROTO_MAX_CPUS], ckey[UNCORE_PROTO_MAX_CPUS];
    bool present[UNCORE_PROTO_MAX_CPUS];
    for (u32 i = 0; i < uncore_ncpu; i++) {
        present[i] = hw_place[i].ran && hw_place[i].ok;
        if (hw_place[i].ran && !hw_place[i].ok) {
            check_note(c, "topology", "cpu%u: %s", i, hw_place[i].why);
            return false;
        }
        skey[i] = hw_place[i].p.scope_key;
        ckey[i] = hw_place[i].p.core_key;
    }
    const char *bad = NULL;
    if (!uncore_scope_plan(skey, ckey, present, uncore_ncpu, uncore_cpu_scope, uncore_cpu_core, &uncore_plan, &bad)) {
        check_note(c, "topology", "%s", bad);
        return false;
    }
    check_note(c, "topology", "%u %s from %s on each online CPU%s", uncore_plan.nscopes,
               k->scope == UNCORE_SCOPE_L3 ? "L3 complex(es)" : "package(s)", hw_place[0].p.source,
               k->scope == UNCORE_SCOPE_L3 ? ", the L3's sharing from CPUID 0x8000001D" : " (the package ID)");
    check_note(c, "core_n", "assumed: the routing field's core n is the rank of the core's APIC ID among its package's "
               "(docs/uncore.md)");
    for (u32 s = 0; s < uncore_plan.nscopes; s++) {
        char buf[320];
        struct strbuf sb;
        sb_init(&sb, buf, sizeof(buf));
        sb_printf(&sb, "leader cpu%u, %u thread(s), %u core(s); core n of cpu:", uncore_plan.leader[s],
                  uncore_plan.threads[s], uncore_plan.cores[s]);
        for (u32 i = 0; i < uncore_ncpu; i++)
            if (uncore_cpu_scope[i] == s)
                sb_printf(&sb, " %u:%u", i, uncore_cpu_core[i]);
        char key[16];
        k_snprintf(key, sizeof(key), "scope%u", s);
        check_note(c, key, "%s", buf);
    }
    return true;
}

/* Why a recognised part's checks are held back, or NULL when they run on its registers. */
static const char *held_back(void)
{
    if (emul_options()->uncore_off)
        return "uncore=off (no uncore register is touched)";
    if (emul_options()->pmu_emulated[0])
        return "the core PMU is emulated (pmu=emulated) and the uncore is not (uncore=emulated:FACE): the real uncore "
               "is left alone";
    return NULL;
}

static void skip_with_plan(struct check *c, enum uncore_plan_need need, const struct uncore_recognition *r)
{
    char reason[480];
    const char *why;
    if (r->kind) {
        check_note(c, "uncore", "%s", r->kind->title);
        if (uncore_plan_kind_can(r->kind, need, &why))
            plan_from_topology(c, r->kind);
    }
    check_skip(c, "%s", uncore_plan_skip_reason(r, need, held_back(), reason, sizeof(reason)));
}

const char *const uncore_scope_prefix[8] = {"scope0: ", "scope1: ", "scope2: ", "scope3: ",
                                            "scope4: ", "scope5: ", "scope6: ", "scope7: "};

bool uncore_on_hw;

u32 uncore_attempts(void)
{
    return uncore_on_hw ? UNCORE_HW_ATTEMPTS : 1;
}

void uncore_note_attempts(struct check *c, u32 ran, bool last_failed)
{
    if (ran > 1 || (uncore_on_hw && last_failed))
        check_note(c, "attempts", "%u of at most %u, independent; %s", ran, UNCORE_HW_ATTEMPTS,
                   last_failed ? "every one failed, the last shown" : "the earlier ones failed, the passing one shown");
}

u32 uncore_scope_cores(const struct uncore_kind_desc *k, u32 s)
{
    if (!uncore_on_hw && k->emul)
        return k->emul->cores_per_scope;
    return s < uncore_plan.nscopes ? uncore_plan.cores[s] : 1;
}

#define PROBE_ATTEMPTS 3

struct probe_job {
    const struct uncore_kind_desc *k;
    struct uncore_probe p;
};
static struct probe_job probes[UNCORE_SCOPE_MAX];

/* The leader's probe (tests/uncore/portable/uncore_regs.c): the first register read, general counter 0 written with
 * a pattern and read back, both put back as found. */
static void probe_on_leader(void *arg)
{
    struct probe_job *j = arg;
    uncore_regs_probe(uncore_access(), j->k, &j->p);
}

/* Each package's registers as the run found them, saved by its leader before the first check writes any, and put
 * back by that leader once after all the suite's checks (uncore_put_back, the suite's after_run), whatever the checks
 * left (one stopped by its time limit included). Up to FOUND_SCOPES packages; beyond, each check's own restore. */
#define FOUND_SCOPES 16
static struct uncore_regs found[FOUND_SCOPES];
static bool found_saved[FOUND_SCOPES];
static u32 found_leader[FOUND_SCOPES];

struct found_job {
    const struct uncore_kind_desc *k;
    u32 s, cores;
};

static void save_found_on_leader(void *arg)
{
    struct found_job *j = arg;
    uncore_regs_find(&found[j->s], uncore_access(), j->k, j->cores);
    uncore_regs_save(&found[j->s]);
}

static void restore_found_on_leader(void *arg)
{
    uncore_regs_restore(&found[*(u32 *)arg]);
}

static void save_found(const struct uncore_kind_desc *k, u32 s)
{
    if (s >= FOUND_SCOPES || found_saved[s])
        return;
    struct found_job j = {k, s, uncore_plan.cores[s]};
    found_leader[s] = uncore_plan.leader[s];
    found_saved[s] = smp_run_on(found_leader[s], save_found_on_leader, &j, UNCORE_RUN_ON_MS);
}

void uncore_put_back(void)
{
    u32 n = 0;
    for (u32 s = 0; s < FOUND_SCOPES; s++) {
        if (!found_saved[s])
            continue;
        u32 arg = s;
        n += smp_run_on(found_leader[s], restore_found_on_leader, &arg, UNCORE_RUN_ON_MS);
        found_saved[s] = false;
    }
    u32 cpus = uncore_proto_put_back_debugctl();
    if (n || cpus)
        report_comment("uncore: the registers of %u package(s) put back as found by their leaders; IA32_DEBUGCTL's "
                       "uncore PMI enable left set by a stopped check cleared on %u CPU(s)", n, cpus);
}

static u64 ledger_rd(u64 msr)
{
    u64 v = 0;
    rdmsr_safe((u32)msr, &v);
    return v;
}

static void ledger_wr(u64 msr, u64 v)
{
    wrmsr_safe((u32)msr, v);
}

/* The recognised part's own registers: each scope's leader reads the kind's first register. A #GP there means the
 * part does not have the uncore its model says (an emulator presenting the model, a part the descriptor gets wrong):
 * the evidence, and no check writes anything. The boot CPU's package's global control goes in the run's ledger, so
 * that however the run ends it is put back as found (the other packages' are put back by their leaders after each
 * check's part; the ledger's writes are the boot CPU's). */
static bool hw_probe(struct check *c, const struct uncore_kind_desc *k, bool fail_on_fault)
{
    for (u32 s = 0; s < uncore_plan.nscopes && s < UNCORE_SCOPE_MAX; s++) {
        char what[240];
        struct strbuf sb;
        bool backed = false;
        /* Independent attempts: the registers are missing only when every attempt says so. */
        for (u32 a = 0; a < PROBE_ATTEMPTS && !backed; a++) {
            probes[s] = (struct probe_job){.k = k};
            if (!smp_run_on(uncore_plan.leader[s], probe_on_leader, &probes[s], UNCORE_RUN_ON_MS)) {
                check_fail(c, "scope %u's leader cpu%u did not answer", s, uncore_plan.leader[s]);
                return false;
            }
            backed = probes[s].p.backed;
        }
        if (!backed) {
            sb_init(&sb, what, sizeof(what));
            sb_printf(&sb, "scope %u's leader cpu%u: ", s, uncore_plan.leader[s]);
            uncore_probe_describe(k, &probes[s].p, &sb);
            check_note(c, "probe", "%s (%u attempts, each the same)", what, PROBE_ATTEMPTS);
            if (fail_on_fault)
                expect_true(c, "the recognised kind's registers exist and hold a write", false, "they do", "%s",
                            what);
            else
                check_skip(c, "%s uncore recognised but its registers do not answer: %s; nothing else written "
                              "(enumeration FAILs with it)", k->name, what);
            return false;
        }
        save_found(k, s);
        if (k->global.ctrl && uncore_plan.leader[s] == 0) {
            char led[72];
            k_snprintf(led, sizeof(led), "uncore global control MSR 0x%x (cpu0's package)", k->global.ctrl);
            if (!ledger_note(led, ledger_rd, ledger_wr, k->global.ctrl, probes[s].p.value, 64)) {
                check_skip(c, "the run's ledger is full: the uncore's global control could not be put back, so no "
                              "uncore register is written");
                return false;
            }
        }
    }
    return true;
}

/* The recognised part, not under a hypervisor (uncore_recognise refuses it there, as Linux intel/uncore.c), nor held
 * back: its packages planned from the topology and its registers probed. */
static const struct uncore_kind_desc *begin_hardware(struct check *c, enum uncore_plan_need need, bool fail_on_fault,
                                                     const struct uncore_kind_desc *emulated)
{
    struct uncore_recognition r;
    uncore_recognise(&cpuid_hw, &r);
    uncore_on_hw = false;
    if (emulated) {
        /* uncore_test=hardware-path: the emulated uncore's kind taken as recognised, its registers reached as the
         * part's are, so that this path runs in QEMU; every verdict still marked [emulated PMU]. */
        r.kind = emulated;
        k_snprintf(r.why, sizeof(r.why), "the emulated %s driven through the hardware path (uncore_test=hardware-path)",
                   emulated->emul->name);
        pmu_emul_mark_use();
    } else if (!r.kind || held_back()) {
        skip_with_plan(c, need, &r);
        return NULL;
    }
    check_note(c, "uncore", "%s (%s: %s)", r.kind->title, emulated ? "the hardware path" : "hardware", r.why);
    const char *why;
    if (!uncore_plan_kind_can(r.kind, need, &why)) {
        check_skip(c, "%s: %s", r.kind->name, why);
        return NULL;
    }
    if (!plan_from_topology(c, r.kind)) {
        check_skip(c, "%s uncore recognised, but its packages could not be planned from the topology (above)",
                   r.kind->name);
        return NULL;
    }
    if (uncore_plan.nscopes > UNCORE_SCOPE_MAX) {
        check_skip(c, "%u scopes, more than the %u the suite holds", uncore_plan.nscopes, UNCORE_SCOPE_MAX);
        return NULL;
    }
    uncore_on_hw = true;
    if (!hw_probe(c, r.kind, fail_on_fault)) {
        uncore_on_hw = false;
        return NULL;
    }
    return r.kind;
}

/* The uncore the checks run on: the emulated one with the plan of its placement, or the recognised part's (above);
 * NULL after a SKIP (or a FAIL of the plan, or of the probe with fail_on_fault). */
static const struct uncore_kind_desc *begin(struct check *c, enum uncore_plan_need need, bool fail_on_fault)
{
    const struct uncore_kind_desc *k = uncore_emul_kind();
    if (!k)
        return begin_hardware(c, need, fail_on_fault, NULL);
    if (emul_options()->uncore_hw_path)
        return begin_hardware(c, need, fail_on_fault, k);
    uncore_on_hw = false;
    pmu_emul_mark_use(); /* the verdict is the emulated uncore's */
    check_note(c, "uncore", "emulated %s: %s, %u scope(s) over %u CPU(s) (docs/uncore.md)", k->emul->name, k->name,
               uncore_emul_scopes(), smp.count ? smp.count : 1);
    const char *why;
    if (!uncore_plan_kind_can(k, need, &why)) {
        check_skip(c, "%s (emulated %s): %s", k->name, k->emul->name, why);
        return NULL;
    }
    uncore_ncpu = smp.count ? smp.count : 1;
    if (uncore_ncpu > UNCORE_PROTO_MAX_CPUS)
        uncore_ncpu = UNCORE_PROTO_MAX_CPUS;
    u32 skey[UNCORE_PROTO_MAX_CPUS], ckey[UNCORE_PROTO_MAX_CPUS];
    bool present[UNCORE_PROTO_MAX_CPUS];
    for (u32 i = 0; i < uncore_ncpu; i++) {
        u32 s = 0, core = 0;
        present[i] = uncore_emul_place(i, &s, &core);
        skey[i] = s;
        ckey[i] = core;
    }
    const char *bad = NULL;
    if (!uncore_scope_plan(skey, ckey, present, uncore_ncpu, uncore_cpu_scope, uncore_cpu_core, &uncore_plan, &bad)) {
        check_fail(c, "the scope plan failed: %s", bad);
        return NULL;
    }
    return k;
}

const struct uncore_kind_desc *uncore_check_begin(struct check *c, enum uncore_plan_need need)
{
    return begin(c, need, false);
}

const struct uncore_kind_desc *uncore_check_begin_fail_on_fault(struct check *c, enum uncore_plan_need need)
{
    return begin(c, need, true);
}

/* A describe function's "key: value" lines as notes. */
static void note_lines(struct check *c, char *buf)
{
    for (char *line = buf; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        char *colon = strstr(line, ": ");
        if (colon) {
            *colon = '\0';
            check_note(c, line, "%s", colon + 2);
        }
        line = nl ? nl + 1 : NULL;
    }
}

void uncore_check_verdict(struct check *c, const char *what, enum uncore_outcome o, char *evidence)
{
    note_lines(c, evidence);
    expect_true(c, what, o == UNCORE_PASS, "pass", "%s", uncore_outcome_name(o));
}
