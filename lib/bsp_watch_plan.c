/* The watch over the boot CPU's checks: the decisions (see bsp_watch_plan.h). */
#include "lib/bsp_watch_plan.h"

u32 bsp_watch_pick(u32 count, bool (*idle)(u32 cpu, void *ctx), void *ctx, u32 *out, u32 max)
{
    u32 n = 0;
    for (u32 i = 1; i < count && n < max; i++)
        if (idle(i, ctx))
            out[n++] = i;
    return n;
}

bool bsp_watch_may_start(u32 idle_aps, u32 busy_aps)
{
    return idle_aps > 0 || busy_aps == 0;
}

enum bsp_watch_step bsp_watch_step(const struct bsp_watch_view *v, u64 now)
{
    if (!v->seq)
        return BSP_WATCH_IDLE;
    if (v->stopped_seq == v->seq) {
        if (!v->stopped_by_me || v->said_seq == v->seq)
            return BSP_WATCH_IDLE; /* the other watcher's, or said: left to the reset watchdog */
        if (now >= v->nmi_at && now - v->nmi_at > v->answer)
            return BSP_WATCH_UNANSWERED;
        return BSP_WATCH_WAIT;
    }
    if (now < v->since || now - v->since <= v->limit) /* a TSC behind the boot CPU's: not yet */
        return BSP_WATCH_WAIT;
    return BSP_WATCH_STOP;
}

#define TICK_COUNT_MIN (1u << 12)
#define TICK_COUNT_MAX (1u << 30)

u32 bsp_watch_tick_count(u32 count, u64 elapsed, u64 target)
{
    if (count < TICK_COUNT_MIN)
        count = TICK_COUNT_MIN;
    u64 want;
    if (!elapsed || target / elapsed >= 32)
        want = (u64)count * 32;
    else
        want = (u64)count * target / elapsed; /* count < 2^31, target/elapsed < 32: no overflow for sane targets */
    if (want < count / 2)
        want = count / 2;
    if (want < TICK_COUNT_MIN)
        want = TICK_COUNT_MIN;
    if (want > TICK_COUNT_MAX)
        want = TICK_COUNT_MAX;
    return (u32)want;
}

u32 check_limit_ms(u32 option_ms, u32 own_ms)
{
    return own_ms > option_ms ? own_ms : option_ms;
}
