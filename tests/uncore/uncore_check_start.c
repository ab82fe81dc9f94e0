/* Suite uncore's start of every check and its evidence helpers (uncore_checks.h): SKIP without an emulated uncore
 * (the recognition's evidence) or when the kind lacks what the check needs; the scope plan of the emulated machine
 * (tests/uncore/portable/uncore_scope.c over each CPU's placement); a verdict's describe lines as notes. */
#include <string.h>

#include "emul/kernel/pmu_emul.h"
#include "emul/kernel/uncore_emul.h"
#include "kernel/cpuid_hw.h"
#include "kernel/percpu.h"
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

static void skip_with_plan(struct check *c, enum uncore_plan_need need)
{
    struct uncore_recognition r;
    char reason[400];
    uncore_recognise(&cpuid_hw, &r);
    const char *why;
    static const enum uncore_need needs[] = {
        [UNCORE_PLAN_ROUTING] = UNCORE_NEED_ROUTING,
        [UNCORE_PLAN_FREEZE] = UNCORE_NEED_FREEZE,
        [UNCORE_PLAN_STATUS] = UNCORE_NEED_STATUS,
        [UNCORE_PLAN_FIXED] = UNCORE_NEED_FIXED,
    };
    if (r.kind) {
        check_note(c, "uncore", "%s", r.kind->title);
        if (need == UNCORE_PLAN_ANY || uncore_kind_can(r.kind, needs[need], &why))
            plan_from_topology(c, r.kind);
    }
    check_skip(c, "%s", uncore_plan_skip_reason(&r, need, reason, sizeof(reason)));
}

const char *const uncore_scope_prefix[8] = {"scope0: ", "scope1: ", "scope2: ", "scope3: ",
                                            "scope4: ", "scope5: ", "scope6: ", "scope7: "};

/* The emulated uncore's kind with the plan made, or NULL after a SKIP (no emulated uncore: the recognition's). */
const struct uncore_kind_desc *uncore_check_begin(struct check *c, enum uncore_plan_need need)
{
    const struct uncore_kind_desc *k = uncore_emul_kind();
    if (!k) {
        skip_with_plan(c, need);
        return NULL;
    }
    pmu_emul_mark_use(); /* the verdict is the emulated uncore's */
    check_note(c, "uncore", "emulated %s: %s, %u scope(s) over %u CPU(s) (docs/uncore.md)", k->emul->name, k->name,
               uncore_emul_scopes(), smp.count ? smp.count : 1);
    static const enum uncore_need needs[] = {
        [UNCORE_PLAN_ROUTING] = UNCORE_NEED_ROUTING,
        [UNCORE_PLAN_FREEZE] = UNCORE_NEED_FREEZE,
        [UNCORE_PLAN_STATUS] = UNCORE_NEED_STATUS,
        [UNCORE_PLAN_FIXED] = UNCORE_NEED_FIXED,
    };
    const char *why;
    if (need != UNCORE_PLAN_ANY && !uncore_kind_can(k, needs[need], &why)) {
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
