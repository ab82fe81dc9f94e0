/* APIC timer calibration and modes (SDM Vol.3A 11.5.4). */
#include "apic/timer.h"

#include <string.h>

#include "apic/apic.h"
#include "lib/apic_timer_calc.h"
#include "lib/format.h"
#include "kernel/boot_state.h"
#include "kernel/percpu.h"
#include "kernel/timing.h"
#include "kernel/traps.h"
#include "kernel/x86.h"
#include "kernel/percpu_array.h"

#define CAL_WINDOW_US 10000 /* 10 ms: long against the ~µs cost of one register read, short per CPU */
#define CAL_MAX_ATTEMPTS 8
#define CAL_BRACKET_SHARE 200 /* a window counts when each count read is bracketed within 1/200 (0.5%) of it */

PER_CPU_ARRAY(struct apic_timer_cal, cals);

/* The interrupts of this CPU's halted window: how many, and the current count the first one read. */
struct window_irq {
    volatile u32 count, ccr;
};
PER_CPU_ARRAY(struct window_irq, window_irqs);
PER_CPU_ARRAY(bool, delivered); /* a timer interrupt reached this CPU while it spun: it may halt */

bool apic_tsc_deadline_supported(void)
{
    u32 a, b, c, d;
    cpuid_count(1, 0, &a, &b, &c, &d);
    return (c >> 24) & 1; /* CPUID.01H:ECX[24] TSC-deadline (SDM Vol.3A 11.5.4.1) */
}

u32 apic_timer_current(void)
{
    return apic_read(APIC_TIMER_CCR);
}

bool apic_timer_start(u8 vector, u32 mode, bool masked, u32 divisor, u32 initial_count)
{
    u32 dcr;
    if (!apic_dcr_for_divisor(divisor, &dcr))
        return false;
    apic_write(APIC_TIMER_DCR, dcr);
    apic_write(APIC_LVT_TIMER, vector | mode | (masked ? LVT_MASKED : 0));
    apic_write(APIC_TIMER_ICR, initial_count); /* starts the count-down (SDM 11.5.4) */
    return true;
}

void apic_timer_stop(void)
{
    /* Leaving TSC-deadline mode disarms that timer; a zero initial count stops the others (SDM 11.5.4,
     * 11.5.4.1). Clear IA32_TSC_DEADLINE too, so a later switch back to that mode finds it disarmed. */
    apic_write(APIC_LVT_TIMER, LVT_MASKED);
    apic_write(APIC_TIMER_ICR, 0);
    if (apic_tsc_deadline_supported())
        wrmsr(MSR_TSC_DEADLINE, 0);
}

void apic_timer_arm_tsc_deadline(u8 vector, u64 deadline_tsc)
{
    apic_write(APIC_LVT_TIMER, vector | LVT_TIMER_TSC_DEADLINE);
    /* SDM 11.5.4.1: the MMIO write to the LVT and the WRMSR to IA32_TSC_DEADLINE may be reordered;
     * MFENCE between them makes the mode switch happen first. */
    asm volatile("mfence" ::: "memory");
    wrmsr(MSR_TSC_DEADLINE, deadline_tsc);
}

u64 apic_timer_ticks_to_tsc(const struct apic_timer_cal *cal, u64 ticks)
{
    return cal->ok ? mul_div_u64(ticks, cal->tsc_ticks, cal->apic_ticks, NULL) : 0;
}

/* A current-count read and the TSC around it: the read happened at the midpoint, within +-bracket/2. */
static u32 read_count_at(u64 *tsc_mid, u64 *bracket)
{
    u64 before = rdtsc();
    u32 count = apic_timer_current();
    u64 after = rdtsc();
    *tsc_mid = before + (after - before) / 2;
    *bracket = after - before;
    return count;
}

struct window {
    u64 apic_ticks, tsc_ticks, hz;
};

/* Whether the timer's interrupt on the window vector can end a HLT now: the APIC software-enabled (SVR[8], SDM
 * Vol.3A 11.4.7.2; a check may have cleared it) and PPR below the vector's class (SDM 11.8.3.1; a check may hold
 * TPR high). */
static bool window_vector_gets_through(void)
{
    return (apic_read(APIC_SVR) & SVR_APIC_ENABLE) &&
           (apic_read(APIC_PPR) & 0xF0) < (APIC_TIMER_WINDOW_VECTOR & 0xF0);
}

bool apic_timer_may_halt(void)
{
    return boot_state()->ident.hypervisor_bit && delivered[this_cpu()->index] && window_vector_gets_through();
}

bool apic_timer_delivered(void)
{
    return delivered[this_cpu()->index];
}

void apic_timer_mark_delivered(void)
{
    delivered[this_cpu()->index] = true;
}

static void window_handler(struct trap_frame *f)
{
    (void)f;
    u32 ccr = apic_timer_current();
    struct window_irq *w = &window_irqs[this_cpu()->index];
    if (w->count++ == 0)
        w->ccr = ccr;
    apic_eoi();
}

/* The window vector's handler is installed for every CPU, once, and stays: a check the runner stops inside a
 * window leaves the periodic timer running, and its interrupts must still be taken and EOIed, or ISR would hold
 * PPR at class 0xF and block the runner's wake-up IPI (VECTOR_WAKE, the same class). */
static void window_begin(void)
{
    static volatile bool installed;
    if (!installed) {
        irq_register(APIC_TIMER_WINDOW_VECTOR, window_handler); /* the same value from any CPU: no race to lose */
        installed = true;
    }
    struct window_irq *w = &window_irqs[this_cpu()->index];
    w->count = 0;
    w->ccr = 0;
}

/* Stop the timer and take an expiry already latched in IRR now (interrupts briefly enabled). */
static void window_stop(void)
{
    apic_timer_stop();
    u64 end = rdtsc() + us_to_tsc(1000);
    sti();
    while (apic_vector_bit(APIC_IRR0, APIC_TIMER_WINDOW_VECTOR) && rdtsc() < end)
        spin_wait_step();
    cli();
}

/* Whether the count runs: two reads a few microseconds apart, the second lower. A divide configuration that
 * stopped the count would leave a HLT waiting for a reload that never comes. */
static bool count_runs(void)
{
    u32 c0 = apic_timer_current();
    for (u32 i = 0; i < 4; i++)
        spin_wait_step();
    u32 c1 = apic_timer_current();
    return c1 < c0;
}

PER_CPU_ARRAY(bool, proof_failed); /* a proof that timed out is not tried again: every wait would spin 100 ms */

bool apic_timer_prove_delivery(u32 count)
{
    u32 idx = this_cpu()->index;
    if (!boot_state()->ident.hypervisor_bit || !window_vector_gets_through() || proof_failed[idx])
        return false;
    if (delivered[idx])
        return true;
    struct window_irq *wi = &window_irqs[idx];
    u64 flags = read_flags();
    cli();
    window_begin();
    /* Periodic, the mode every halted window and sleep uses, at divide by 1; the first interrupt is enough. */
    apic_timer_start(APIC_TIMER_WINDOW_VECTOR, LVT_TIMER_PERIODIC, false, 1, count ? count : 1);
    u64 end = rdtsc() + us_to_tsc(100000);
    sti();
    while (!wi->count && rdtsc() < end)
        spin_wait_step();
    cli();
    if (wi->count)
        apic_timer_mark_delivered();
    else
        proof_failed[idx] = true;
    window_stop();
    if (flags & RFLAGS_IF)
        sti();
    return apic_timer_may_halt();
}

bool apic_timer_window_halted(u32 divisor, u32 count, u64 timeout_tsc, const struct clock_counter *other,
                              struct apic_timer_window *w)
{
    memset(w, 0, sizeof(*w));
    if (!apic_timer_may_halt())
        return false;
    struct window_irq *wi = &window_irqs[this_cpu()->index];
    u64 flags = read_flags();
    cli();
    window_begin();
    if (!apic_timer_start(APIC_TIMER_WINDOW_VECTOR, LVT_TIMER_PERIODIC, false, divisor, count) || !count_runs()) {
        window_stop();
        if (flags & RFLAGS_IF)
            sti();
        return false;
    }
    u64 a0 = rdtsc();
    u32 c0 = apic_timer_current();
    w->other0 = other ? clock_counter_read(other) : 0;
    u64 b0 = rdtsc();
    /* Other interrupts (the runner's wake-up IPI) end a HLT too: halt again until the reload's. */
    while (!wi->count && rdtsc() - a0 < timeout_tsc)
        asm volatile("sti; hlt; cli" ::: "memory"); /* STI's shadow: an interrupt pending now still ends the HLT */
    u64 a1 = rdtsc();
    u32 c1 = apic_timer_current();
    w->other1 = other ? clock_counter_read(other) : 0;
    u64 b1 = rdtsc();
    u32 irqs = wi->count, ccr_irq = wi->ccr;
    window_stop();
    if (flags & RFLAGS_IF)
        sti();
    w->tsc = (a1 + (b1 - a1) / 2) - (a0 + (b0 - a0) / 2);
    w->bracket = (b0 - a0) + (b1 - a1);
    w->longest_read = MAX(b0 - a0, b1 - a1);
    return timer_halted_ticks(count, c0, c1, irqs, ccr_irq, &w->ticks);
}

/* The timer is free when masked and stopped, and not in TSC-deadline mode (whose count always reads 0): a check
 * that set it up (a running count, an unmasked entry, as in a one-shot that expired and is being watched) is
 * using it, and a sleep would reprogram it. SDM Vol.3A 11.5.4, Figure 11-8 (LVT timer mode, bits 18:17). */
static bool timer_free(void)
{
    u32 lvt = apic_read(APIC_LVT_TIMER);
    return (lvt & LVT_MASKED) && (lvt & (3u << 17)) != LVT_TIMER_TSC_DEADLINE && apic_timer_current() == 0;
}

#define SLEEP_TICK_US 1000 /* a halted sleep wakes this often to look at its counter, set by another CPU perhaps */

bool apic_timer_sleep(volatile u32 *counter, u32 want, u64 us)
{
    /* The window vector must get through, or nothing ends the HLT. */
    if (!boot_state()->ident.hypervisor_bit || !timer_free() || !window_vector_gets_through())
        return false;
    u32 dcr = apic_read(APIC_TIMER_DCR) & APIC_DCR_MASK; /* before the proof, which sets divide by 1 */
    if (!apic_timer_may_halt() && !apic_timer_prove_delivery(1u << 14)) {
        apic_write(APIC_TIMER_DCR, dcr);
        return false;
    }
    /* The tick by the calibration, or 2^18 ticks before it (262 us at QEMU's and KVM's 1 GHz). */
    const struct apic_timer_cal *cal = &cals[this_cpu()->index];
    u64 tick = cal->ok ? mul_div_u64(MIN(us, SLEEP_TICK_US), cal->hz, 1000000, NULL) : 1u << 18;
    tick = MIN(MAX(tick, 64), 0xFFFFFFFFu);
    u32 lvt = apic_read(APIC_LVT_TIMER); /* masked (timer_free): written back as found */
    u64 flags = read_flags(), end = rdtsc() + us_to_tsc(us);
    cli();
    window_begin();
    apic_timer_start(APIC_TIMER_WINDOW_VECTOR, LVT_TIMER_PERIODIC, false, 1, (u32)tick);
    while ((!counter || *counter < want) && rdtsc() < end)
        asm volatile("sti; hlt; cli" ::: "memory"); /* STI's shadow: an interrupt pending now still ends the HLT */
    window_stop();
    apic_write(APIC_TIMER_DCR, dcr);
    apic_write(APIC_LVT_TIMER, lvt);
    if (flags & RFLAGS_IF)
        sti();
    return true;
}

enum window_result { WINDOW_OK, WINDOW_SLOW, WINDOW_STOPPED };

/* One spinning window: a masked one-shot from the largest count (it counts without interrupting, SDM 11.5.4; at
 * divide by 1 even a 4 GHz timer needs ~1 s to reach 0, far longer than a window), read at the start and after
 * window_tsc. */
static enum window_result spin_window(struct apic_timer_cal *cal, u64 window_tsc, u64 read_max_tsc,
                                      struct window *w, u32 *c0_out, u32 *c1_out)
{
    /* From the top each window: windows that did not count (slow reads, below) must not run the count out on a
     * long series (seen with 16 vCPUs at once under QEMU TCG: 4 s of retries). */
    apic_timer_start(0xFF, 0, true, cal->divisor, 0xFFFFFFFFu);
    u64 t0, t1, b0, b1;
    u32 c0 = read_count_at(&t0, &b0);
    while (rdtsc() < t0 + window_tsc)
        spin_wait_step();
    u32 c1 = read_count_at(&t1, &b1);
    apic_timer_stop();
    *c0_out = c0;
    *c1_out = c1;
    cal->max_bracket_tsc = MAX(cal->max_bracket_tsc, MAX(b0, b1));
    if (c1 == 0 && t1 - t0 > 2 * window_tsc)
        return WINDOW_SLOW; /* ran out while this vCPU was descheduled past the window: no evidence either way */
    if (c1 == 0 || c1 >= c0)
        return WINDOW_STOPPED;
    /* A read that took longer than 0.5% of the window (the vCPU was descheduled, an SMI...) would make this
     * window's ratio uncertain by as much: measure again instead. */
    if (b0 > read_max_tsc || b1 > read_max_tsc)
        return WINDOW_SLOW;
    w->apic_ticks = c0 - c1;
    w->tsc_ticks = t1 - t0;
    return WINDOW_OK;
}

/* Under a hypervisor the windows halt (apic_timer_window_halted), which needs each window's length in ticks: a
 * spinning estimate over a tenth of a window, and a timer interrupt that reached this CPU while it spun. Returns
 * the halted windows' count, or 0: spin them all. */
static u32 halted_count(struct apic_timer_cal *cal, u64 window_tsc)
{
    if (!boot_state()->ident.hypervisor_bit)
        return 0;
    struct window est;
    u32 c0, c1;
    if (spin_window(cal, window_tsc / 10, window_tsc / CAL_BRACKET_SHARE, &est, &c0, &c1) != WINDOW_OK)
        return 0;
    u64 count = mul_div_u64(est.apic_ticks, window_tsc, est.tsc_ticks, NULL);
    if (count < 1000 || count > 0xFFFFFFFFu || !apic_timer_prove_delivery((u32)(count / 100)))
        return 0;
    return (u32)count;
}

/* A halted window of `count`: evidence when the timer's own count shows one reload between the reads and the TSC
 * agrees within a quarter (a hidden period), and each read is bracketed as closely as a spinning window's. */
static bool halted_window(struct apic_timer_cal *cal, u32 count, u64 window_tsc, struct window *w)
{
    struct apic_timer_window hw;
    bool ok = apic_timer_window_halted(cal->divisor, count, 4 * window_tsc, NULL, &hw);
    cal->max_bracket_tsc = MAX(cal->max_bracket_tsc, hw.longest_read);
    if (!ok || !timer_halted_plausible(hw.ticks, mul_div_u64(count, hw.tsc, window_tsc, NULL)) ||
        hw.longest_read > window_tsc / CAL_BRACKET_SHARE)
        return false;
    w->apic_ticks = hw.ticks;
    w->tsc_ticks = hw.tsc;
    return true;
}

/* The windows of one calibration: halted ones (halt_count > 0) where they stand, spinning ones otherwise. Returns
 * how many were measured; 0 with cal->problem set when the timer did not count. */
static u32 measure_windows(struct apic_timer_cal *cal, u32 halt_count, u64 window_tsc, struct window *w)
{
    u32 got = 0;
    while (got < APIC_TIMER_CAL_WINDOWS && cal->attempts < CAL_MAX_ATTEMPTS) {
        cal->attempts++;
        if (halt_count && halted_window(cal, halt_count, window_tsc, &w[got])) {
            cal->halted++;
        } else {
            u32 c0, c1;
            enum window_result r = spin_window(cal, window_tsc, window_tsc / CAL_BRACKET_SHARE, &w[got], &c0, &c1);
            if (r == WINDOW_STOPPED) {
                k_snprintf(cal->problem, sizeof(cal->problem),
                           "current count did not decrease over %u us: 0x%x then 0x%x", CAL_WINDOW_US, c0, c1);
                return 0;
            }
            if (r == WINDOW_SLOW) {
                cal->slow_reads++;
                continue;
            }
        }
        w[got].hz = mul_div_u64(w[got].apic_ticks, timing.tsc_hz, w[got].tsc_ticks, NULL);
        cal->window_hz[got] = w[got].hz;
        got++;
    }
    if (!got)
        k_snprintf(cal->problem, sizeof(cal->problem),
                   "every one of %u windows had a current-count read slower than %u us", cal->attempts,
                   CAL_WINDOW_US / CAL_BRACKET_SHARE);
    return got;
}

/* Whether the windows' spread (max - min) is over 1% of their median: the tolerance timer_calibration holds the
 * calibration to. */
static bool windows_spread_too_wide(const struct window *w, u32 got)
{
    u64 hz[APIC_TIMER_CAL_WINDOWS], lo = w[0].hz, hi = w[0].hz;
    for (u32 i = 0; i < got; i++) {
        hz[i] = w[i].hz;
        lo = MIN(lo, w[i].hz);
        hi = MAX(hi, w[i].hz);
    }
    return hi - lo > median_u64(hz, got) / 100;
}

static void calibrate(struct apic_timer_cal *cal, bool may_halt)
{
    u32 dropped = cal->halted_dropped;
    memset(cal, 0, sizeof(*cal));
    cal->halted_dropped = dropped;
    cal->done = true;
    cal->divisor = 1;
    cal->window_us = CAL_WINDOW_US;
    if (!timing.tsc_hz) {
        k_snprintf(cal->problem, sizeof(cal->problem),
                   "no time base: TSC frequency unknown (no clock to measure it against, see boot/clocks)");
        return;
    }
    u32 saved_dcr = apic_read(APIC_TIMER_DCR) & APIC_DCR_MASK;
    u64 window_tsc = us_to_tsc(CAL_WINDOW_US);
    struct window w[APIC_TIMER_CAL_WINDOWS];
    u32 got = measure_windows(cal, may_halt ? halted_count(cal, window_tsc) : 0, window_tsc, w);
    /* Halted windows stand only when they agree within the 1% the calibration is held to (timer_calibration):
     * under QEMU TCG on a loaded host, halted windows' ratio of the timer to the TSC moved by 1-2% between windows
     * where spinning ones, which see a descheduled vCPU (slow reads), held. Otherwise calibrate spinning. */
    if (got && cal->halted && windows_spread_too_wide(w, got)) {
        cal->halted_dropped += cal->halted;
        /* The spinning calibration gets the whole budget, and its figures are its own. */
        cal->halted = cal->windows = cal->attempts = cal->slow_reads = 0;
        cal->max_bracket_tsc = 0;
        got = measure_windows(cal, 0, window_tsc, w);
    }
    apic_timer_stop();
    apic_write(APIC_TIMER_DCR, saved_dcr);
    if (!got)
        return;
    /* The median window: one outlier (a preempted vCPU, an SMI) cannot move the result. */
    u64 hz[APIC_TIMER_CAL_WINDOWS];
    for (u32 i = 0; i < got; i++)
        hz[i] = w[i].hz;
    u64 mid = median_u64(hz, got);
    for (u32 i = 0; i < got; i++) {
        if (w[i].hz == mid) {
            cal->apic_ticks = w[i].apic_ticks;
            cal->tsc_ticks = w[i].tsc_ticks;
            break;
        }
    }
    cal->windows = got;
    cal->hz = mid;
    cal->ok = true;
}

const struct apic_timer_cal *apic_timer_calibrate(void)
{
    struct apic_timer_cal *cal = &cals[this_cpu()->index];
    if (!cal->done)
        calibrate(cal, true);
    return cal;
}

const struct apic_timer_cal *apic_timer_calibrate_spinning(void)
{
    struct apic_timer_cal *cal = &cals[this_cpu()->index];
    if (!cal->done || cal->halted) {
        cal->halted_dropped += cal->halted;
        calibrate(cal, false);
    }
    return cal;
}
