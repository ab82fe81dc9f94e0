/* Oracle and counting passes over the event workloads: tests/events/events_run.h. */
#include "tests/events/events_run.h"

#include <string.h>

#include "kernel/user.h"
#include "harness/workload.h"
#include "kernel/x86.h"
#include "pmu/event_catalog.h"
#include "tests/events/portable/events_workloads.h"

ew_fn ew_function(enum ew_id w)
{
    static const ew_fn fns[EW_COUNT] = {
        [EW_STRAIGHT] = ew_straight, [EW_LOOP] = ew_loop,     [EW_BRANCHES] = ew_branches, [EW_MEM] = ew_mem,
        [EW_CLFLUSH] = ew_clflush,   [EW_LFSR] = ew_lfsr,     [EW_CYCLES] = ew_cycles,     [EW_REP_STOS] = ew_rep_stos,
        [EW_CALLS] = ew_calls,
    };
    return (unsigned)w < EW_COUNT ? fns[w] : NULL;
}

struct observe_ctx {
    struct ew_oracle *o;
    u8 cpl;
};

static void observe(const struct step_record *r, void *arg)
{
    struct observe_ctx *ctx = arg;
    struct ew_counts *c = &ctx->o->counts;
    c->insns++;
    if (r->cpl != ctx->cpl)
        ctx->o->wrong_cpl++;
    if (!r->classified) {
        if (!ctx->o->first_unknown)
            ctx->o->first_unknown = r->rip;
        return;
    }
    /* The instruction's event classes, as the emulated PMU counts them too (pmu/event_catalog.h). */
    u32 m = evc_classes(&r->cls, r->taken);
#define HAS(x) ((m >> EVC_##x) & 1)
    c->branches += HAS(BRANCHES);
    c->cond += HAS(COND);
    c->taken += HAS(NEAR_TAKEN);
    c->loads += HAS(LOADS);
    c->stores += HAS(STORES);
    c->flushes += r->cls.flush;
    c->cond_taken += HAS(COND_TAKEN);
    c->cond_ntaken += HAS(COND_NTAKEN);
    c->calls += HAS(NEAR_CALL);
    c->ind_calls += HAS(INDIRECT_CALL);
    c->rel_calls += HAS(REL_CALL);
    c->rets += HAS(NEAR_RETURN);
    c->rel_jmps += HAS(REL_JMP);
    c->ind_jmps += HAS(INDIRECT_JMP);
    c->far += HAS(FAR);
#undef HAS
}

void ew_oracle_run(u8 cpl, ew_fn fn, u64 n, struct ew_oracle *o)
{
    memset(o, 0, sizeof(*o));
    struct observe_ctx ctx = {o, cpl};
    o->counts.ret = step_run(cpl, fn, n, observe, &ctx, &o->stats);
    o->counts.ret_checked = true;
}

u64 ew_count_run(u8 cpl, ew_fn fn, u64 n)
{
    return workload_run(cpl, cpl == 3, fn, n);
}
