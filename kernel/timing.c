#include "kernel/timing.h"

#include <string.h>

#include "lib/format.h"
#include "kernel/paging.h"
#include "kernel/x86.h"

struct timing_info timing;

#define WINDOW_US 10000           /* one calibration window: 10 ms of the counter */
#define STILL_READS 1000          /* a counter unchanged for this many reads and */
#define STILL_TSC 50000000ull     /* this many TSC ticks (20 ms at 2.5 GHz) does not count */
#define MMIO_UNCACHED 0xFE000000u /* boot/entry.asm maps 0xFE000000-0xFFFFFFFF PCD|PWT (SDM Vol.3A 12.12.3) */
#define HPET_GCAP 0x000           /* IA-PC HPET 1.0a 2.3.4: General Capabilities and ID */
#define HPET_GCONF 0x010          /* 2.3.5: General Configuration, bit 0 ENABLE_CNF */
#define HPET_COUNTER 0x0F0        /* 2.3.7: Main Counter Value */
#define PIT_CH2 0x42              /* Intel 8254: channel 2 data; 0x43 control; PC port 0x61 bit 0: channel 2 gate */
#define PIT_CTRL 0x43
#define PORT_61 0x61

typedef unsigned long long ull;

static u32 mmio_read32(u64 addr)
{
    return *(volatile u32 *)addr;
}

u64 clock_counter_read(const struct clock_counter *c)
{
    switch (c->id) {
    case CLOCK_HPET: /* the low half: one 32-bit read cannot tear (a 64-bit one may be split in two) */
        return mmio_read32(c->addr + HPET_COUNTER);
    case CLOCK_PMTMR:
        return inl((u16)c->addr) & (c->bits == 32 ? 0xFFFFFFFFu : 0xFFFFFFu); /* ACPI 6.5 4.8.3.3 */
    default: {
        outb(PIT_CTRL, 0x80); /* 8254 counter latch command, channel 2 */
        u8 lo = inb(PIT_CH2);
        return lo | (u32)inb(PIT_CH2) << 8;
    }
    }
}

struct sample {
    u64 mid, bracket, value;
};

static void sample(const struct clock_counter *c, struct sample *s)
{
    u64 before = rdtsc();
    s->value = clock_counter_read(c);
    u64 after = rdtsc();
    s->mid = before + (after - before) / 2;
    s->bracket = after - before;
}

#define START_READS 8 /* the window starts at the quickest of these */

bool clock_measure_window(const struct clock_counter *c, u64 ticks, struct clock_window *w)
{
    struct sample first, prev, cur;
    memset(w, 0, sizeof(*w));
    sample(c, &first);
    prev = first;
    for (u32 i = 1; i < START_READS; i++) { /* a first read delayed (an SMI, a vCPU descheduled) is not the start */
        sample(c, &cur);
        if (cur.bracket < first.bracket)
            first = cur;
        prev = cur;
    }
    w->ticks = clock_counter_delta(first.value, prev.value, c->bits, c->down);
    w->bracket = first.bracket;
    u64 still = 0, changed_at = prev.mid;
    for (;;) {
        sample(c, &cur);
        u64 d = clock_counter_delta(prev.value, cur.value, c->bits, c->down);
        if (d) {
            still = 0;
            changed_at = cur.mid;
        } else if (++still >= STILL_READS && cur.mid - changed_at >= STILL_TSC) {
            return false;
        }
        w->ticks += d;
        w->max_step = MAX(w->max_step, d);
        w->max_gap = MAX(w->max_gap, cur.mid - prev.mid);
        w->tsc = cur.mid - first.mid;
        prev = cur;
        if (clock_window_can_end(w, ticks, cur.bracket))
            break;
    }
    w->bracket += cur.bracket;
    return true;
}

u64 clock_ticks_in_us(const struct clock_counter *c, u64 us)
{
    return c->rate.den ? us * (c->rate.num / c->rate.den) / 1000000 : 0;
}

static void measure(const struct clock_counter *c, struct clock_meas *m)
{
    char note[sizeof(m->note)];
    memcpy(note, m->note, sizeof(note)); /* where it is */
    clock_meas_begin(m, c->rate, c->bits);
    u64 want = clock_ticks_in_us(c, WINDOW_US);
    while (clock_meas_more(m)) {
        struct clock_window w;
        if (!clock_measure_window(c, want, &w)) {
            clock_meas_dead(m, "");
            k_snprintf(m->note, sizeof(m->note), "%s: read 0x%llx, unchanged for %u reads", note,
                       (ull)clock_counter_read(c), STILL_READS);
            return;
        }
        clock_meas_add(m, &w);
    }
    clock_meas_finish(m);
    if (m->state == CLOCK_OK)
        k_snprintf(m->note, sizeof(m->note), "%s; %u of %u windows of 10-40 ms kept (%u slow reads, %u with gaps%s)",
                   note, m->kept, m->tried, m->rejected_bracket, m->gapped,
                   m->used_gapped ? ", used: too few without" : "");
    else
        k_snprintf(m->note + strlen(m->note), sizeof(m->note) - strlen(m->note), " (%s)", note);
}

static void from_cpuid(void)
{
    u32 a, b, c, d, max;
    struct clock_meas *m15 = &timing.meas[CLOCK_CPUID15], *m16 = &timing.meas[CLOCK_CPUID16];
    cpuid_count(0, 0, &max, &b, &c, &d);
    k_snprintf(m15->note, sizeof(m15->note), "max basic leaf 0x%x", max);
    k_snprintf(m16->note, sizeof(m16->note), "max basic leaf 0x%x", max);
    if (max >= 0x15) {
        /* SDM Vol.2A CPUID 15H: TSC = crystal (ECX) * EBX / EAX; EBX 0: no ratio; ECX 0: crystal not enumerated. */
        cpuid_count(0x15, 0, &a, &b, &c, &d);
        if (a && b && c) {
            clock_meas_enumerated(m15, (u64)c * b / a);
            k_snprintf(m15->note, sizeof(m15->note), "crystal %u Hz * %u / %u", c, b, a);
        } else {
            k_snprintf(m15->note, sizeof(m15->note), "EAX %u EBX %u ECX %u: no frequency", a, b, c);
        }
    }
    if (max >= 0x16) {
        cpuid_count(0x16, 0, &a, &b, &c, &d); /* EAX[15:0]: base frequency in MHz, nominal */
        if (a & 0xFFFF) {
            clock_meas_enumerated(m16, (u64)(a & 0xFFFF) * 1000000ull);
            k_snprintf(m16->note, sizeof(m16->note), "base %u MHz (nominal)", a & 0xFFFF);
        } else {
            k_snprintf(m16->note, sizeof(m16->note), "EAX 0: no base frequency");
        }
    }
    cpuid_count(0x80000000, 0, &max, &b, &c, &d);
    if (max >= 0x80000007) {
        cpuid_count(0x80000007, 0, &a, &b, &c, &d);
        timing.invariant = (d >> 8) & 1;
    }
}

/* The HPET named by the ACPI table: inside the uncached MMIO range, with a plausible capabilities register,
 * its main counter running (enabled here if firmware left it halted: IA-PC HPET 1.0a 2.3.5 ENABLE_CNF). */
static void hpet_setup(const struct acpi_info *ai, const struct phys_window *mem)
{
    struct clock_counter *c = &timing.counters[CLOCK_HPET];
    struct clock_meas *m = &timing.meas[CLOCK_HPET];
    const struct acpi_table_ref *t = ai->has_root ? acpi_root_find(&ai->root, "HPET") : NULL;
    struct acpi_hpet h;
    if (!t) {
        k_snprintf(m->note, sizeof(m->note), "no HPET table");
        return;
    }
    if (!acpi_hpet_parse(mem, t->phys, &h, &timing.problems)) {
        k_snprintf(m->note, sizeof(m->note), "HPET table unusable");
        return;
    }
    if (h.address < MMIO_UNCACHED || h.address > 0xFFFFFFFFull - 0x3FF) {
        clock_meas_dead(m, "");
        k_snprintf(m->note, sizeof(m->note), "at 0x%llx, outside the uncached MMIO range 0x%x-0xffffffff this kernel "
                   "maps; not used", (ull)h.address, MMIO_UNCACHED);
        return;
    }
    u64 gcap = mmio_read32(h.address + HPET_GCAP) | (u64)mmio_read32(h.address + HPET_GCAP + 4) << 32;
    struct hpet_caps caps;
    char why[96];
    if (!hpet_caps_decode(gcap, &caps, why, sizeof(why))) {
        clock_meas_dead(m, "");
        k_snprintf(m->note, sizeof(m->note), "at 0x%llx: %s", (ull)h.address, why);
        return;
    }
    u32 conf = mmio_read32(h.address + HPET_GCONF);
    if (!(conf & 1))
        *(volatile u32 *)(h.address + HPET_GCONF) = conf | 1; /* only the main counter; LEG_RT_CNF untouched */
    *c = (struct clock_counter){CLOCK_HPET, true, {1000000000000000ull, caps.period_fs}, 32, false, h.address};
    k_snprintf(m->note, sizeof(m->note), "at 0x%llx, period %u fs, %u-bit, %u timers%s", (ull)h.address,
               caps.period_fs, caps.bits, caps.timers, conf & 1 ? "" : ", counter was halted: enabled");
}

static void pmtmr_setup(const struct acpi_info *ai, const struct phys_window *mem)
{
    struct clock_meas *m = &timing.meas[CLOCK_PMTMR];
    const struct acpi_table_ref *t = ai->has_root ? acpi_root_find(&ai->root, "FACP") : NULL;
    struct acpi_fadt f;
    if (!t) {
        k_snprintf(m->note, sizeof(m->note), ai->has_root ? "no FADT" : "no ACPI tables");
        return;
    }
    if (!acpi_fadt_parse(mem, t->phys, &f, &timing.problems)) {
        k_snprintf(m->note, sizeof(m->note), "FADT unusable");
        return;
    }
    if (!f.pm_timer) {
        k_snprintf(m->note, sizeof(m->note), "%s", f.no_pm_timer);
        return;
    }
    timing.counters[CLOCK_PMTMR] =
        (struct clock_counter){CLOCK_PMTMR, true, CLOCK_PMTMR_RATE, f.pm_timer_bits, false, f.pm_timer_port};
    k_snprintf(m->note, sizeof(m->note), "port 0x%x (FADT rev %u %s), %u-bit", f.pm_timer_port, f.revision,
               f.pm_timer_field, f.pm_timer_bits);
}

/* Channel 2, mode 2 (rate generator) from 65536, gate on, speaker off: it counts down and reloads for ever
 * (Intel 8254 datasheet; the PC's port 0x61 wiring). Whether it ticks is measured, not assumed: platforms gate
 * the 8254 off, and then the ports read 0xFF. */
static void pit_setup(void)
{
    outb(PORT_61, (u8)((inb(PORT_61) & ~0x02) | 0x01)); /* left so: timing_reference() may be the PIT */
    outb(PIT_CTRL, 0xB4); /* channel 2, lobyte/hibyte, mode 2, binary */
    outb(PIT_CH2, 0);
    outb(PIT_CH2, 0);
    timing.counters[CLOCK_PIT] = (struct clock_counter){CLOCK_PIT, true, CLOCK_PIT_RATE, 16, true, PIT_CH2};
    k_snprintf(timing.meas[CLOCK_PIT].note, sizeof(timing.meas[CLOCK_PIT].note), "channel 2, mode 2");
}

void timing_init(const struct acpi_info *ai)
{
    u64 start = rdtsc();
    timing.source = CLOCK_COUNT;
    from_cpuid();
    hpet_setup(ai, &phys_all); /* the FADT and HPET table may lie above 4 GiB, as the MADT may */
    pmtmr_setup(ai, &phys_all);
    pit_setup();
    for (u32 i = 0; i < CLOCK_COUNT; i++)
        if (timing.counters[i].present)
            measure(&timing.counters[i], &timing.meas[i]);
    clock_choose(timing.meas, &timing.choice);
    timing.tsc_hz = timing.choice.tsc_hz;
    timing.source = timing.choice.source;
    timing.init_tsc = rdtsc() - start;
}

const struct clock_counter *timing_reference(void)
{
    if (timing.source < CLOCK_COUNT && timing.counters[timing.source].present)
        return &timing.counters[timing.source];
    for (u32 i = 0; i < CLOCK_COUNT; i++)
        if (timing.counters[i].present && timing.meas[i].state == CLOCK_OK)
            return &timing.counters[i];
    return NULL;
}

u64 tsc_to_us(u64 ticks)
{
    return timing.tsc_hz ? ticks / (timing.tsc_hz / 1000000ull) : 0;
}

/* Without a measured TSC frequency (boot/clocks failed and no CPUID 16H) every deadline and delay is sized at the
 * fastest plausible TSC, so none is shorter than asked: a 0 rate made every timeout expire at once (a CPU
 * "not answering", a check stopped at its time limit as soon as it began). */
u64 us_to_tsc(u64 us)
{
    return us * ((timing.tsc_hz ? timing.tsc_hz : CLOCK_TSC_HZ_MAX) / 1000000ull);
}

void udelay(u64 us)
{
    u64 end = rdtsc() + us_to_tsc(us);
    while (rdtsc() < end)
        spin_wait_step();
}
