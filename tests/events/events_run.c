/* Oracle and counting passes over the event workloads: tests/events/events_run.h. */
#include "tests/events/events_run.h"

#include <string.h>

#include "kernel/user.h"
#include "harness/workload.h"
#include "kernel/x86.h"
#include "tests/events/portable/events_workloads.h"

ew_fn ew_function(enum ew_id w)
{
    static const ew_fn fns[EW_COUNT] = {
        [EW_STRAIGHT] = ew_straight, [EW_LOOP] = ew_loop,     [EW_BRANCHES] = ew_branches, [EW_MEM] = ew_mem,
        [EW_CLFLUSH] = ew_clflush,   [EW_LFSR] = ew_lfsr,     [EW_CYCLES] = ew_cycles,     [EW_REP_STOS] = ew_rep_stos,
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
    /* Taken: a conditional branch that left the fall-through path; an unconditional one always is. */
    bool taken = r->cls.branch && (!r->cls.cond || r->taken);
    c->branches += r->cls.branch;
    c->cond += r->cls.cond;
    c->taken += taken;
    c->loads += r->cls.load;
    c->stores += r->cls.store;
    c->flushes += r->cls.flush;
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
