/* The watch over the boot CPU's checks (see bsp_watch.h). */
#include "kernel/bsp_watch.h"

#include "apic/apic.h"
#include "kernel/catch_hook.h"
#include "kernel/console.h"
#include "kernel/percpu_array.h"
#include "kernel/smp.h"
#include "kernel/timing.h"
#include "kernel/x86.h"
#include "lib/bsp_watch_plan.h"

/* Written by the boot CPU while seq is 0 (between checks), then published by seq; a watcher reads seq, the rest,
 * and seq again, and believes what it read only when both reads agree (check numbers are never reused). */
static struct {
    volatile u32 seq;
    volatile u64 since, limit;
    const char *volatile name;
    volatile u32 watchers[BSP_WATCHERS_MAX];
    volatile u32 stopped_seq; /* the claim: exactly one NMI per stuck check */
} w;

/* A watcher's own state; its APIC timer as it found it, to put back. */
struct watcher {
    bool ticking;
    u32 count;       /* the one-shot count in use (bsp_watch_tick_count) */
    u64 armed_at;    /* TSC when it was written */
    u32 saved_lvt, saved_dcr;
    u32 stopped_seq; /* the check this watcher sent its NMI to */
    u64 nmi_at;
    u32 said_seq;
};
PER_CPU_ARRAY(struct watcher, watchers);

static bool idle_ap(u32 cpu, void *ctx)
{
    (void)ctx;
    return smp_cpu_idle(cpu);
}

u32 bsp_watch_idle_aps(u32 *out, u32 max)
{
    return bsp_watch_pick(smp.count, idle_ap, NULL, out, max);
}

u32 bsp_watch_begin(u32 seq, u32 limit_ms, const char *name)
{
    u32 picked[BSP_WATCHERS_MAX];
    u32 n = bsp_watch_idle_aps(picked, BSP_WATCHERS_MAX);
    __atomic_store_n(&w.seq, 0, __ATOMIC_SEQ_CST);
    if (!n)
        return 0;
    w.since = rdtsc();
    w.limit = us_to_tsc((u64)limit_ms * 1000);
    w.name = name;
    for (u32 k = 0; k < BSP_WATCHERS_MAX; k++)
        w.watchers[k] = k < n ? picked[k] : 0;
    __atomic_store_n(&w.seq, seq, __ATOMIC_SEQ_CST);
    /* Wake them: a watcher that stopped ticking halts until an interrupt. */
    for (u32 k = 0; k < n; k++)
        apic_send_ipi(smp.cpu[picked[k]].apic_id, ICR_DM_FIXED | VECTOR_WAKE);
    return n;
}

void bsp_watch_end(void)
{
    __atomic_store_n(&w.seq, 0, __ATOMIC_SEQ_CST);
}

/* The tick: a one-shot of the APIC timer at divide by 1 (SDM Vol.3A 11.5.4), re-armed at each expiry with a count
 * that makes it about BSP_WATCH_TICK_MS long. */
static void tick_arm(struct watcher *m, u64 now)
{
    if (!m->count)
        m->count = BSP_WATCH_FIRST_COUNT;
    apic_write(APIC_TIMER_DCR, 0xB); /* divide by 1 (SDM Vol.3A Figure 11-10) */
    apic_write(APIC_LVT_TIMER, VECTOR_WAIT_TICK); /* one-shot, unmasked */
    apic_write(APIC_TIMER_ICR, m->count);
    m->armed_at = now;
}

static void tick_on(struct watcher *m)
{
    u64 now = rdtsc();
    if (!m->ticking) {
        m->saved_lvt = apic_read(APIC_LVT_TIMER);
        m->saved_dcr = apic_read(APIC_TIMER_DCR);
        m->ticking = true;
        tick_arm(m, now);
    } else if (apic_read(APIC_TIMER_CCR) == 0) { /* expired: this wake-up was the tick */
        m->count = bsp_watch_tick_count(m->count, now - m->armed_at, us_to_tsc(BSP_WATCH_TICK_MS * 1000ull));
        tick_arm(m, now);
    }
}

/* Masked, count 0, the divide configuration as found; a tick already latched is taken here, not in the next
 * call's check. Interrupts are disabled (the idle loop's cli). */
static void tick_off(struct watcher *m)
{
    if (!m->ticking)
        return;
    apic_write(APIC_LVT_TIMER, m->saved_lvt | LVT_MASKED);
    apic_write(APIC_TIMER_ICR, 0);
    apic_write(APIC_TIMER_DCR, m->saved_dcr);
    m->ticking = false;
    for (u32 i = 0; i < 1000 && apic_vector_bit(APIC_IRR0, VECTOR_WAIT_TICK); i++)
        asm volatile("sti; nop; cli" ::: "memory");
}

void bsp_watch_ap_enter(u32 me)
{
    watchers[me].ticking = false; /* INIT left the timer masked (SDM Vol.3A 11.4.7.3) */
}

void bsp_watch_ap_pause(u32 me)
{
    tick_off(&watchers[me]);
}

static bool is_watcher(u32 me)
{
    for (u32 k = 0; k < BSP_WATCHERS_MAX; k++)
        if (w.watchers[k] == me)
            return true;
    return false;
}

void bsp_watch_ap_idle(u32 me)
{
    struct watcher *m = &watchers[me];
    u32 seq = __atomic_load_n(&w.seq, __ATOMIC_SEQ_CST);
    bool mine = seq && is_watcher(me);
    struct bsp_watch_view v = {.seq = seq, .since = w.since, .limit = w.limit,
                               .answer = us_to_tsc(BSP_WATCH_ANSWER_MS * 1000ull)};
    const char *name = w.name;
    if (__atomic_load_n(&w.seq, __ATOMIC_SEQ_CST) != seq) { /* a check began or ended while we read: next tick */
        if (m->ticking)
            tick_on(m);
        return;
    }
    if (!mine) {
        tick_off(m);
        return;
    }
    v.stopped_seq = __atomic_load_n(&w.stopped_seq, __ATOMIC_ACQUIRE);
    v.stopped_by_me = m->stopped_seq == seq;
    v.nmi_at = m->nmi_at;
    v.said_seq = m->said_seq;
    u64 now = rdtsc();
    switch (bsp_watch_step(&v, now)) {
    case BSP_WATCH_IDLE:
        tick_off(m);
        return;
    case BSP_WATCH_WAIT:
        tick_on(m);
        return;
    case BSP_WATCH_STOP: {
        u32 old = v.stopped_seq;
        if (__atomic_compare_exchange_n(&w.stopped_seq, &old, seq, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
            m->stopped_seq = seq;
            m->nmi_at = now;
            catch_stop(0, seq, me); /* the harness's request and its NMI (kernel/catch_hook.h) */
        }
        tick_on(m);
        return;
    }
    case BSP_WATCH_UNANSWERED:
        m->said_seq = seq;
        tick_off(m);
        kprintf("# runner: cpu%u: the boot CPU did not answer the NMI sent at %llu ms into %s (NMIs blocked or in "
                "SMM): the reset watchdog is the last resort\n",
                me, (unsigned long long)tsc_to_us(m->nmi_at - v.since) / 1000, name ? name : "its check");
        return;
    }
}
