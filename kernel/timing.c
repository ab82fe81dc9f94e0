#include "kernel/timing.h"

#include "kernel/x86.h"

struct timing_info timing;

#define CALIBRATE_PIT_TICKS 5966 /* 5 ms per window */
#define CALIBRATE_WINDOWS 3      /* median of three: one window stretched by a descheduled vCPU is outvoted */

u64 pit_measure_tsc(u32 pit_ticks)
{
    /* Channel 2, mode 0 (interrupt on terminal count), gate from port 0x61 bit 0, output read at bit 5
     * (Intel 8254 datasheet; the PC's port 0x61 wiring). */
    u8 ctl = inb(0x61);
    outb(0x61, (u8)((ctl & ~0x02) & ~0x01)); /* gate low, speaker off */
    outb(0x43, 0xB0);                        /* channel 2, lobyte/hibyte, mode 0, binary */
    outb(0x42, (u8)pit_ticks);
    outb(0x42, (u8)(pit_ticks >> 8));
    outb(0x61, (u8)((ctl & ~0x02) | 0x01)); /* gate high: counting starts */
    u64 start = rdtsc();
    u64 limit = 0;
    while (!(inb(0x61) & 0x20)) {
        if (++limit > 50000000ull) /* no PIT: never hang */
            return 0;
    }
    u64 end = rdtsc();
    outb(0x61, ctl);
    return end - start;
}

static void from_cpuid(void)
{
    u32 a, b, c, d, max;
    cpuid_count(0, 0, &max, &b, &c, &d);
    if (max >= 0x15) {
        /* SDM Vol.2A CPUID 15H: TSC = crystal (ECX) * EBX / EAX; ECX may be 0 (not enumerated). */
        cpuid_count(0x15, 0, &a, &b, &c, &d);
        if (a && b && c)
            timing.cpuid15_hz = (u64)c * b / a;
    }
    if (max >= 0x16) {
        cpuid_count(0x16, 0, &a, &b, &c, &d); /* EAX: base frequency in MHz */
        if (a & 0xFFFF)
            timing.cpuid16_hz = (u64)(a & 0xFFFF) * 1000000ull;
    }
    cpuid_count(0x80000000, 0, &max, &b, &c, &d);
    if (max >= 0x80000007) {
        cpuid_count(0x80000007, 0, &a, &b, &c, &d);
        timing.invariant = (d >> 8) & 1;
    }
}

void timing_init(void)
{
    from_cpuid();
    u64 t[CALIBRATE_WINDOWS];
    for (int i = 0; i < CALIBRATE_WINDOWS; i++)
        t[i] = pit_measure_tsc(CALIBRATE_PIT_TICKS);
    for (int i = 1; i < CALIBRATE_WINDOWS; i++) /* sort the three */
        for (int k = i; k > 0 && t[k] < t[k - 1]; k--) {
            u64 x = t[k];
            t[k] = t[k - 1];
            t[k - 1] = x;
        }
    u64 median = t[CALIBRATE_WINDOWS / 2];
    if (t[0]) /* every window saw the PIT */
        timing.pit_hz = median * PIT_HZ / CALIBRATE_PIT_TICKS;
    if (timing.cpuid15_hz) {
        timing.tsc_hz = timing.cpuid15_hz;
        timing.source = TSC_FREQ_CPUID15;
    } else if (timing.pit_hz) {
        timing.tsc_hz = timing.pit_hz;
        timing.source = TSC_FREQ_PIT;
    } else if (timing.cpuid16_hz) {
        timing.tsc_hz = timing.cpuid16_hz;
        timing.source = TSC_FREQ_CPUID16;
    }
}

const char *tsc_freq_source_name(enum tsc_freq_source s)
{
    switch (s) {
    case TSC_FREQ_CPUID15:
        return "CPUID 0x15";
    case TSC_FREQ_CPUID16:
        return "CPUID 0x16 base frequency";
    case TSC_FREQ_PIT:
        return "PIT calibration";
    default:
        return "none";
    }
}

u64 tsc_to_us(u64 ticks)
{
    return timing.tsc_hz ? ticks / (timing.tsc_hz / 1000000ull) : 0;
}

u64 us_to_tsc(u64 us)
{
    return us * (timing.tsc_hz / 1000000ull);
}

void udelay(u64 us)
{
    if (!timing.tsc_hz) { /* no time base: ~1 us per PIT-independent port read is the ISA convention */
        for (u64 i = 0; i < us; i++)
            inb(0x80);
        return;
    }
    u64 end = rdtsc() + us_to_tsc(us);
    while (rdtsc() < end)
        spin_wait_step();
}
