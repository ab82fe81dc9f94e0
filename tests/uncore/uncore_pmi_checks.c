/* Suite uncore's PMI checks (uncore_checks.h): the protocol of tests/uncore/uncore_protocol.c on each scope, judged
 * for the routing (both delivery modes; one counter, then two overflowing together), freeze and overflow status. */
#include <string.h>

#include "kernel/smp.h"
#include "kernel/timing.h"
#include "tests/uncore/portable/uncore_route_sets.h"
#include "tests/uncore/uncore_checks.h"

struct proto_job {
    const struct uncore_kind_desc *k;
    struct uncore_regs regs;
    u32 selected, ncounters, cores;
    struct uncore_proto_result res;
};
static struct proto_job pjob;

static void proto_on_leader(void *arg)
{
    struct proto_job *j = arg;
    uncore_regs_find(&j->regs, uncore_access(), j->k, j->cores);
    uncore_proto_run(j->k, &j->regs, j->selected, j->ncounters, &j->res);
}

/* The cores the freeze and status checks route to in scope s: every other core present (ranks 0, 2, ...); core 0
 * alone when one is present. Within the routing field's width. */
static u32 selection(const struct uncore_kind_desc *k, u32 s)
{
    u32 m = 0, width = uncore_route_width(k);
    for (u32 r = 0; r < uncore_plan.cores[s] && r < width && r < 32; r += 2)
        m |= 1u << r;
    return m;
}

enum judge { JUDGE_FREEZE, JUDGE_STATUS };

/* The YAML key prefixes of a check that runs the protocol in both delivery modes. */
static const char *const fixed_prefix[] = {"fixed scope0: ", "fixed scope1: ", "fixed scope2: ", "fixed scope3: ",
                                           "fixed scope4: ", "fixed scope5: ", "fixed scope6: ", "fixed scope7: "};
static const char *const nmi_prefix[] = {"nmi scope0: ", "nmi scope1: ", "nmi scope2: ", "nmi scope3: ",
                                         "nmi scope4: ", "nmi scope5: ", "nmi scope6: ", "nmi scope7: "};

/* One run of the protocol on scope s with `selected` routed: every CPU armed, the leader's part, every CPU put back.
 * false (after a FAIL) when the leader did not answer. */
static bool run_scope(struct check *c, const struct uncore_kind_desc *k, u32 s, u32 selected, u32 ncounters, bool nmi)
{
    memset(&pjob.res, 0, sizeof(pjob.res));
    pjob.k = k;
    pjob.selected = selected;
    pjob.ncounters = ncounters;
    pjob.cores = uncore_scope_cores(k, s);
    /* On hardware the routed cores' threads set IA32_DEBUGCTL's uncore PMI enable where the kind needs it (not
     * modelled by the emulated uncore, which is left as it was). */
    static bool routed[UNCORE_PROTO_MAX_CPUS];
    for (u32 i = 0; i < UNCORE_PROTO_MAX_CPUS; i++)
        routed[i] = i < uncore_ncpu && uncore_cpu_scope[i] == s && uncore_cpu_core[i] < 32 &&
                    (selected >> uncore_cpu_core[i] & 1);
    uncore_proto_arm_cpus(nmi, uncore_on_hw ? k->global.debugctl_pmi : 0, routed);
    bool ran = smp_run_on(uncore_plan.leader[s], proto_on_leader, &pjob, UNCORE_RUN_ON_MS);
    uncore_proto_disarm_cpus(&pjob.res);
    if (!ran)
        check_fail(c, "scope %u's leader cpu%u did not answer", s, uncore_plan.leader[s]);
    return ran;
}

/* Whether the last run of scope s with `selected` routed failed: a selected core without exactly one PMI, another
 * core (of any scope) with one, or an interrupt in the wrong delivery mode. */
static bool set_failed(u32 s, u32 selected)
{
    const struct uncore_proto_result *r = &pjob.res;
    u32 pmis[UNCORE_SCOPE_MAX_CORES] = {0};
    bool other = r->wrong_mode != 0;
    for (u32 i = 0; i < uncore_ncpu; i++) {
        if (uncore_cpu_scope[i] != s)
            other |= r->cpu_pmis[i] != 0;
        else if (uncore_cpu_core[i] < UNCORE_SCOPE_MAX_CORES)
            pmis[uncore_cpu_core[i]] += r->cpu_pmis[i];
    }
    struct uncore_route_judgement rj;
    u32 cores = uncore_plan.cores[s] < 32 ? uncore_plan.cores[s] : 32;
    return other || uncore_route_judge(selected, pmis, cores, &rj) != UNCORE_PASS;
}

/* The routing of one set: the PMIs per core of scope s and the latency of each core's first, judged; the other
 * scopes' PMIs and those taken in the wrong delivery mode added to *others and *wrong_mode. */
static void judge_set(struct check *c, u32 s, u32 selected, u32 *others, u32 *wrong_mode)
{
    const struct uncore_proto_result *r = &pjob.res;
    u32 pmis[UNCORE_SCOPE_MAX_CORES] = {0};
    u64 latency[UNCORE_SCOPE_MAX_CORES] = {0};
    for (u32 i = 0; i < uncore_ncpu; i++) {
        if (uncore_cpu_scope[i] != s) {
            *others += r->cpu_pmis[i];
            continue;
        }
        u32 core = uncore_cpu_core[i];
        if (core >= UNCORE_SCOPE_MAX_CORES)
            continue;
        if (r->cpu_pmis[i] && !pmis[core])
            latency[core] = r->cpu_first_tsc[i] > r->overflow_tsc ? r->cpu_first_tsc[i] - r->overflow_tsc : 0;
        pmis[core] += r->cpu_pmis[i];
    }
    *wrong_mode += r->wrong_mode;
    u32 cores = uncore_plan.cores[s] < 32 ? uncore_plan.cores[s] : 32;
    char buf[1024];
    struct strbuf sb;
    sb_init(&sb, buf, sizeof(buf));
    struct uncore_route_judgement rj;
    enum uncore_outcome o = uncore_route_judge(selected, pmis, cores, &rj);
    uncore_route_describe(&rj, pmis, cores, &sb);
    uncore_route_latency_describe(latency, pmis, cores, timing.tsc_hz, &sb);
    /* One line per set, so that every set of every scope fits the check's evidence: what the cores took (received,
     * per core, latency, and what was missing, repeated or stray); the selection is in routed_to, the expectation in
     * the verdict. */
    char took[512];
    struct strbuf tb;
    sb_init(&tb, took, sizeof(took));
    for (char *line = buf; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        char *colon = strstr(line, ": ");
        if (colon && strncmp(line, "selected_cores:", 15) && strncmp(line, "expected:", 9) &&
            strncmp(line, "total:", 6)) {
            *colon = '\0';
            sb_printf(&tb, "%s%s %s", tb.len ? "; " : "", line, colon + 2);
        }
        line = nl ? nl + 1 : NULL;
    }
    check_note(c, "took", "%s", took);
    expect_true(c, "one PMI on each selected core, none on the others", o == UNCORE_PASS, "pass", "%s",
                uncore_outcome_name(o));
}

/* The routing check on every scope: the PMI routed to each set of uncore_route_sets in turn (each core alone, every
 * core, every core but the arming one), each set judged under its own key prefix ("fixed scope1 set2: "). */
static void routing_pass(struct check *c, const struct uncore_kind_desc *k, u32 ncounters, bool nmi,
                         const char *const *prefixes)
{
    static char set_prefix[48];
    for (u32 s = 0; s < uncore_plan.nscopes; s++) {
        const char *scope_prefix = (prefixes ? prefixes : uncore_scope_prefix)[s % 8];
        u32 leader = uncore_plan.leader[s];
        u32 arming = leader < uncore_ncpu ? uncore_cpu_core[leader] : 0;
        struct uncore_route_set sets[UNCORE_ROUTE_SETS_MAX];
        u32 nsets = uncore_route_sets(uncore_plan.cores[s], uncore_route_width(k), arming, sets,
                                      UNCORE_ROUTE_SETS_MAX);
        check_key_prefix(c, scope_prefix);
        check_note(c, "cores", "%u present, the arming thread cpu%u on core %u (core n: the rank of its core in the "
                   "package, an assumption on hardware: docs/uncore.md); %u set(s) routed in turn", uncore_plan.cores[s],
                   leader, arming, nsets);
        u32 others = 0, wrong_mode = 0;
        for (u32 i = 0; i < nsets; i++) {
            k_snprintf(set_prefix, sizeof(set_prefix), "%sset%u: ", scope_prefix, i);
            check_key_prefix(c, set_prefix);
            bool answered = true;
            u32 ran = 0;
            do {
                ran++;
                if (!(answered = run_scope(c, k, s, sets[i].mask, ncounters, nmi)) || !pjob.res.armed)
                    break;
            } while (ran < uncore_attempts() && set_failed(s, sets[i].mask));
            if (!answered)
                break;
            const struct uncore_proto_result *r = &pjob.res;
            if (r->armed)
                uncore_note_attempts(c, ran, set_failed(s, sets[i].mask));
            if (!r->armed) {
                check_key_prefix(c, NULL);
                check_skip(c, "%s: %s", k->name, r->why_not);
                return;
            }
            char what[128];
            struct strbuf sb;
            sb_init(&sb, what, sizeof(what));
            uncore_route_set_describe(&sets[i], arming, &sb);
            check_note(c, "routed_to", "%s", what);
            if (i == 0)
                check_note(c, "armed", "%u counter(s), status bits 0x%llx; global control 0x%llx (routing, freeze, "
                           "enables)", r->narmed, (unsigned long long)r->armed_bits,
                           (unsigned long long)r->ctrl_before);
            judge_set(c, s, sets[i].mask, &others, &wrong_mode);
        }
        check_key_prefix(c, scope_prefix);
        if (uncore_plan.nscopes > 1)
            expect_eq_dec(c, "uncore PMIs taken by the other scopes' CPUs, every set", 0, others);
        expect_eq_dec(c, nmi ? "interrupts on the PMI vector while the LVT entries deliver NMIs, every set"
                             : "NMIs while the LVT entries deliver the PMI vector, every set", 0, wrong_mode);
    }
    check_key_prefix(c, NULL);
}

/* Whether the last run's freeze or status verdict fails (or its release never ran). */
static bool protocol_failed(const struct uncore_kind_desc *k, enum judge what)
{
    const struct uncore_proto_result *r = &pjob.res;
    if (!r->handled)
        return true;
    if (what == JUDGE_FREEZE) {
        struct uncore_freeze_judgement fj;
        return uncore_freeze_judge(k, r->width[0], r->at_pmi, r->later, r->released, r->narmed, r->ctrl_before,
                                   r->ctrl_at_pmi, &fj) != UNCORE_PASS;
    }
    struct uncore_status_judgement sj;
    return uncore_status_judge(k, r->armed_bits, true, r->status_at_pmi, r->status_after_clear, &sj) != UNCORE_PASS;
}

/* One pass of the protocol on every scope, judged for freeze or status; prefixes: NULL for uncore_scope_prefix. */
static void protocol_pass(struct check *c, const struct uncore_kind_desc *k, u32 ncounters, enum judge what, bool nmi,
                          const char *const *prefixes)
{
    for (u32 s = 0; s < uncore_plan.nscopes; s++) {
        check_key_prefix(c, (prefixes ? prefixes : uncore_scope_prefix)[s % 8]);
        u32 selected = selection(k, s);
        bool answered = true;
        u32 ran = 0;
        do {
            ran++;
            if (!(answered = run_scope(c, k, s, selected, ncounters, nmi)) || !pjob.res.armed)
                break;
        } while (ran < uncore_attempts() && protocol_failed(k, what));
        if (!answered)
            continue;
        const struct uncore_proto_result *r = &pjob.res;
        if (r->armed)
            uncore_note_attempts(c, ran, protocol_failed(k, what));
        if (!r->armed) {
            check_skip(c, "%s: %s", k->name, r->why_not);
            break;
        }
        check_note(c, "armed", "%u counter(s), status bits 0x%llx, by cpu%u; global control 0x%llx (routing, freeze, "
                   "enables)", r->narmed, (unsigned long long)r->armed_bits, uncore_plan.leader[s],
                   (unsigned long long)r->ctrl_before);
        char buf[1024];
        struct strbuf sb;
        sb_init(&sb, buf, sizeof(buf));
        if (!r->handled) {
            check_fail(c, "the release never ran in scope %u (selected 0x%x)", s, selected);
        } else if (what == JUDGE_FREEZE) {
            if (r->released_by_leader)
                check_note(c, "released_by", "the leader: no PMI reached a core of the scope (pmi_routing judges it)");
            check_note(c, "counters", "at the PMI [0x%llx, 0x%llx], after %u us frozen [0x%llx, 0x%llx], after the "
                       "release [0x%llx, 0x%llx] (second only with two armed)", (unsigned long long)r->at_pmi[0],
                       (unsigned long long)r->at_pmi[1], UNCORE_PROTO_FROZEN_WAIT_US, (unsigned long long)r->later[0],
                       (unsigned long long)r->later[1], (unsigned long long)r->released[0],
                       (unsigned long long)r->released[1]);
            struct uncore_freeze_judgement fj;
            enum uncore_outcome o = uncore_freeze_judge(k, r->width[0], r->at_pmi, r->later, r->released, r->narmed,
                                                        r->ctrl_before, r->ctrl_at_pmi, &fj);
            uncore_freeze_describe(&fj, &sb);
            uncore_check_verdict(c, "frozen at the PMI, counting again after the handler's release", o, buf);
        } else {
            if (r->released_by_leader)
                check_note(c, "released_by", "the leader: no PMI reached a core of the scope (pmi_routing judges it)");
            struct uncore_status_judgement sj;
            enum uncore_outcome o = uncore_status_judge(k, r->armed_bits, true, r->status_at_pmi,
                                                        r->status_after_clear, &sj);
            uncore_status_describe(&sj, &sb);
            uncore_check_verdict(c, "overflow status set at the PMI and cleared by the kind's clear write", o, buf);
        }
    }
    check_key_prefix(c, NULL);
}

static void protocol(struct check *c, enum uncore_plan_need need, u32 ncounters, enum judge what)
{
    const struct uncore_kind_desc *k = uncore_check_begin(c, need);
    if (k)
        protocol_pass(c, k, ncounters, what, false, NULL);
}

/* The routing in both delivery modes of the cores' LVT entries: the PMI vector, then NMI. */
void uncore_pmi_routing(struct check *c)
{
    const struct uncore_kind_desc *k = uncore_check_begin(c, UNCORE_PLAN_ROUTING);
    if (!k)
        return;
    routing_pass(c, k, 1, false, fixed_prefix);
    routing_pass(c, k, 1, true, nmi_prefix);
}

/* Two counters overflowing together: one interrupt request, so still one PMI on each core of every set. */
void uncore_pmi_routing_simultaneous(struct check *c)
{
    const struct uncore_kind_desc *k = uncore_check_begin(c, UNCORE_PLAN_ROUTING);
    if (k)
        routing_pass(c, k, 2, false, NULL);
}

void uncore_freeze_on_pmi(struct check *c)
{
    protocol(c, UNCORE_PLAN_FREEZE, 1, JUDGE_FREEZE);
}

void uncore_overflow_status(struct check *c)
{
    protocol(c, UNCORE_PLAN_STATUS, 1, JUDGE_STATUS);
}

