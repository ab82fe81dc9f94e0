/* APIC timer calibration and modes (SDM Vol.3A 11.5.4). */
#include "apic/timer.h"

#include "apic/apic.h"
#include "lib/apic_timer_calc.h"
#include "lib/format.h"
#include "kernel/percpu.h"
#include "kernel/timing.h"
#include "kernel/x86.h"
#include "kernel/percpu_array.h"

#define CAL_WINDOW_US 10000 /* 10 ms: long against the ~µs cost of one register read, short per CPU */
#define CAL_MAX_ATTEMPTS 8
#define CAL_BRACKET_SHARE 200 /* a window counts when each count read is bracketed within 1/200 (0.5%) of it */

PER_CPU_ARRAY(struct apic_timer_cal, cals);

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

static void calibrate(struct apic_timer_cal *cal)
{
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
    u32 got = 0;

    /* One-shot from the largest count, masked: it counts without interrupting (SDM 11.5.4). At divide-by-1
     * even a 4 GHz timer needs ~1 s to reach 0, far longer than one window. */
    apic_timer_start(0xFF, 0, true, cal->divisor, 0xFFFFFFFFu);
    while (got < APIC_TIMER_CAL_WINDOWS && cal->attempts < CAL_MAX_ATTEMPTS) {
        cal->attempts++;
        /* From the top each window: windows that did not count (slow reads, below) must not run the count out
         * on a long series (seen with 16 vCPUs at once under QEMU TCG: 4 s of retries). */
        apic_write(APIC_TIMER_ICR, 0xFFFFFFFFu);
        u64 t0, t1, b0, b1;
        u32 c0 = read_count_at(&t0, &b0);
        while (rdtsc() < t0 + window_tsc)
            spin_wait_step();
        u32 c1 = read_count_at(&t1, &b1);
        cal->max_bracket_tsc = MAX(cal->max_bracket_tsc, MAX(b0, b1));
        if (c1 == 0 && t1 - t0 > 2 * window_tsc) {
            cal->slow_reads++;
            continue; /* ran out while this vCPU was descheduled past the window: no evidence either way */
        }
        if (c1 == 0 || c1 >= c0) {
            k_snprintf(cal->problem, sizeof(cal->problem),
                       "current count did not decrease over %u us: 0x%x then 0x%x", CAL_WINDOW_US, c0, c1);
            apic_timer_stop();
            apic_write(APIC_TIMER_DCR, saved_dcr);
            return;
        }
        /* A read that took longer than 0.5% of the window (the vCPU was descheduled, an SMI...) would make
         * this window's ratio uncertain by as much: measure again instead. */
        if (b0 > window_tsc / CAL_BRACKET_SHARE || b1 > window_tsc / CAL_BRACKET_SHARE) {
            cal->slow_reads++;
            continue;
        }
        w[got].apic_ticks = c0 - c1;
        w[got].tsc_ticks = t1 - t0;
        w[got].hz = mul_div_u64(w[got].apic_ticks, timing.tsc_hz, w[got].tsc_ticks, NULL);
        cal->window_hz[got] = w[got].hz;
        got++;
    }
    apic_timer_stop();
    apic_write(APIC_TIMER_DCR, saved_dcr);
    if (!got) {
        k_snprintf(cal->problem, sizeof(cal->problem),
                   "every one of %u windows had a current-count read slower than %u us", cal->attempts,
                   CAL_WINDOW_US / CAL_BRACKET_SHARE);
        return;
    }
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
        calibrate(cal);
    return cal;
}
