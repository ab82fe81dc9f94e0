/* Suite uncore's PMI checks (uncore_checks.h): the protocol of tests/uncore/uncore_protocol.c on each scope, judged
 * for the routing (both delivery modes; one counter, then two overflowing together), freeze and overflow status. */
#include <string.h>

#include "kernel/smp.h"
#include "kernel/timing.h"
#include "tests/uncore/uncore_checks.h"

struct proto_job {
    const struct uncore_kind_desc *k;
    struct uncore_regs regs;
    u32 selected, ncounters;
    struct uncore_proto_result res;
};
static struct proto_job pjob;

static void proto_on_leader(void *arg)
{
    struct proto_job *j = arg;
    uncore_regs_find(&j->regs, j->k, j->k->emul->cores_per_scope);
    uncore_proto_run(j->k, &j->regs, j->selected, j->ncounters, &j->res);
}

/* The cores selected in scope s: every other core present (ranks 0, 2, ...), so that unselected ones can show a
 * stray PMI; core 0 alone when one is present. Within the routing field's width. */
static u32 selection(const struct uncore_kind_desc *k, u32 s)
{
    u32 m = 0, width = uncore_route_width(k);
    for (u32 r = 0; r < uncore_plan.cores[s] && r < width && r < 32; r += 2)
        m |= 1u << r;
    return m;
}

enum judge { JUDGE_ROUTING, JUDGE_FREEZE, JUDGE_STATUS };

/* The YAML key prefixes of a check that runs the protocol in both delivery modes. */
static const char *const fixed_prefix[] = {"fixed scope0: ", "fixed scope1: ", "fixed scope2: ", "fixed scope3: ",
                                           "fixed scope4: ", "fixed scope5: ", "fixed scope6: ", "fixed scope7: "};
static const char *const nmi_prefix[] = {"nmi scope0: ", "nmi scope1: ", "nmi scope2: ", "nmi scope3: ",
                                         "nmi scope4: ", "nmi scope5: ", "nmi scope6: ", "nmi scope7: "};

/* One pass of the protocol on every scope; prefixes: NULL for uncore_scope_prefix. */
static void protocol_pass(struct check *c, const struct uncore_kind_desc *k, u32 ncounters, enum judge what, bool nmi,
                          const char *const *prefixes)
{
    for (u32 s = 0; s < uncore_plan.nscopes; s++) {
        check_key_prefix(c, (prefixes ? prefixes : uncore_scope_prefix)[s % 8]);
        memset(&pjob.res, 0, sizeof(pjob.res));
        pjob.k = k;
        pjob.selected = selection(k, s);
        pjob.ncounters = ncounters;
        uncore_proto_arm_cpus(nmi);
        bool ran = smp_run_on(uncore_plan.leader[s], proto_on_leader, &pjob, UNCORE_RUN_ON_MS);
        uncore_proto_disarm_cpus(&pjob.res);
        const struct uncore_proto_result *r = &pjob.res;
        if (!ran) {
            check_fail(c, "scope %u's leader cpu%u did not answer", s, uncore_plan.leader[s]);
            continue;
        }
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
        if (what == JUDGE_ROUTING) {
            u32 pmis[UNCORE_SCOPE_MAX_CORES] = {0}, others = 0;
            u64 latency[UNCORE_SCOPE_MAX_CORES] = {0};
            for (u32 i = 0; i < uncore_ncpu; i++) {
                if (uncore_cpu_scope[i] != s) {
                    others += r->cpu_pmis[i];
                    continue;
                }
                u32 core = uncore_cpu_core[i];
                if (core >= UNCORE_SCOPE_MAX_CORES)
                    continue;
                if (r->cpu_pmis[i] && !pmis[core])
                    latency[core] = r->cpu_first_tsc[i] > r->overflow_tsc ? r->cpu_first_tsc[i] - r->overflow_tsc : 0;
                pmis[core] += r->cpu_pmis[i];
            }
            u32 cores = uncore_plan.cores[s] < 32 ? uncore_plan.cores[s] : 32;
            struct uncore_route_judgement rj;
            enum uncore_outcome o = uncore_route_judge(pjob.selected, pmis, cores, &rj);
            uncore_route_describe(&rj, pmis, cores, &sb);
            uncore_route_latency_describe(latency, pmis, cores, timing.tsc_hz, &sb);
            uncore_check_verdict(c, "one PMI on each selected core, none on the others", o, buf);
            if (uncore_plan.nscopes > 1)
                expect_eq_dec(c, "uncore PMIs taken by the other scopes' CPUs", 0, others);
            expect_eq_dec(c, nmi ? "interrupts on the PMI vector while the LVT entries deliver NMIs"
                                 : "NMIs while the LVT entries deliver the PMI vector", 0, r->wrong_mode);
        } else if (!r->handled) {
            check_fail(c, "the release never ran in scope %u (selected 0x%x)", s, pjob.selected);
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
    protocol_pass(c, k, 1, JUDGE_ROUTING, false, fixed_prefix);
    protocol_pass(c, k, 1, JUDGE_ROUTING, true, nmi_prefix);
}

void uncore_pmi_routing_simultaneous(struct check *c)
{
    protocol(c, UNCORE_PLAN_ROUTING, 2, JUDGE_ROUTING);
}

void uncore_freeze_on_pmi(struct check *c)
{
    protocol(c, UNCORE_PLAN_FREEZE, 1, JUDGE_FREEZE);
}

void uncore_overflow_status(struct check *c)
{
    protocol(c, UNCORE_PLAN_STATUS, 1, JUDGE_STATUS);
}

