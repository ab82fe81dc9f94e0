/* Which events the events suite compares with the workloads, per PMU kind, and how each is judged: exactly
 * against a count known by construction, or within a derived bound. Portable (pure data and arithmetic),
 * host-tested in tests/events/host/test_events_expect.c. */
#pragma once
#include "pmu/pmu_caps.h"
#include "tests/events/portable/events_expect.h"

enum ew_judge {
    EWJ_EXACT,       /* counter difference of two lengths = construction difference = oracle difference */
    EWJ_CYCLES,      /* core cycles of a run >= the workload's dependency-chain bound */
    EWJ_REF_CYCLES,  /* reference cycles against the TSC over the same window, at the rate the PMU states */
    EWJ_LLC_MISSES,  /* misses of a run >= the CLFLUSHed lines it loads */
    EWJ_MISPREDICTS, /* 1 <= mispredicted branches <= branches of the same run */
};

struct ew_event {
    const char *event; /* name in the event table of this PMU kind (pmu_kind_desc.events) */
    enum ew_judge judge;
    u32 fields;        /* EWJ_EXACT: BIT(enum ew_count_field) of the construction fields it sums */
    const char *claim; /* what the manual says it counts: the reason the comparison is exact or bounded */
};

/* The events of one PMU kind; ew_events_for() keeps those there on the CPU (pmu_event_available). */
struct ew_kind_spec {
    const struct ew_event *events;
    size_t len;
};
/* NULL for kind none and for a kind without events. */
const struct ew_kind_spec *ew_kind_spec(enum pmu_kind k);

/* The events to compare on this PMU (Intel: architectural events CPUID marks available). Fills out[0..max) and
 * returns how many apply. */
size_t ew_events_for(const struct pmu_caps *caps, const struct ew_event **out, size_t max);
/* The entry that compares event ev exactly on this PMU: the first exact entry there on the CPU whose event has ev's
 * encoding (a catalog event whose encoding is the architectural one's is compared once, as that), or NULL. */
struct pmu_event;
const struct ew_event *ew_exact_entry_for(const struct pmu_caps *caps, const struct pmu_event *ev);

/* The sum of the fields `fields` of c (EWJ_EXACT). */
u64 ew_fields_sum(const struct ew_counts *c, u32 fields);
/* Whether a counter with these privilege filters counts a workload run at cpl (USR: CPL 1-3, OS: CPL 0;
 * SDM Vol.3B 21.2.1.1 Figure 21-1 USR/OS flags). */
bool ew_filter_counts(bool usr, bool os, u8 cpl);
/* Whether workload w is compared for an exact event summing `fields`: every workload for instructions and
 * branches; loads and stores not on REP strings (ew_mem_exact). */
bool ew_workload_for(enum ew_id w, u32 fields);

/* Deviation of a measured ratio a/b from expected num/den, in parts per million (signed); false when b or den
 * is 0 or the products overflow. */
bool ew_ratio_ppm(u64 a, u64 b, u64 num, u64 den, s64 *ppm);

/* --- The reference-cycles window (events/ref_cycles) ----------------------------------------------------- */

/* Ticks a window of the reference clock must hold: its quantization (+-2 ticks, ew_ref_quant_ppm) is then at most
 * 400 ppm, a fifth of the 2 % the rate is judged to. */
#define EW_REF_MIN_TICKS 5000
/* The reference clock assumed where CPUID.15H enumerates neither the crystal nor the TSC/crystal ratio: 19.2 MHz,
 * the slowest nominal core crystal clock in the SDM (Vol.3B "Determining the Processor Base Frequency", nominal
 * core crystal clock table: 24 MHz 6th/7th generation Core, 25 MHz Xeon Scalable 06_55H, 19.2 MHz Goldmont
 * 06_5CH; Linux arch/x86/kernel/tsc.c native_calibrate_tsc() uses the same). A faster real clock only makes the
 * window hold more ticks. */
#define EW_REF_ASSUMED_HZ 19200000ull

struct ew_ref_clock {
    u64 hz;             /* the rate the window is sized for */
    const char *source; /* where the rate comes from */
};

/* The clock to size the window of GP event 3CH/01H for. SDM Vol.3B Table 21-1 (UnHalted Reference Cycles):
 * a fixed rate, which by part is the TSC's, the bus clock's or the core crystal's (24/25 MHz on Skylake-era
 * cores: Linux's event tables name 3CH/01H CPU_CLK_UNHALTED.REF_XCLK there). The crystal is the slowest, so
 * the window is sized for it: CPUID.15H ECX when enumerated; else tsc_hz * EAX / EBX (SDM Vol.2A CPUID 15H:
 * TSC = crystal * EBX / EAX; tsc_hz 0 when unknown); else EW_REF_ASSUMED_HZ. leaf15: max basic leaf >= 15H. */
struct ew_ref_clock ew_ref_clock(bool leaf15, u32 eax, u32 ebx, u32 ecx, u64 tsc_hz);

/* Iterations of a workload per window so that a window holds at least min_ticks ticks of a clock at ref_hz,
 * from a pilot run of pilot_n iterations that took pilot_tsc TSC ticks at tsc_hz (rounded up); clamped to
 * [n_min, n_max], and n_max when a rate or the pilot is unknown (0). */
u64 ew_ref_window_n(u64 min_ticks, u64 ref_hz, u64 tsc_hz, u64 pilot_n, u64 pilot_tsc, u64 n_min, u64 n_max);

/* Ticks of a clock at ref_hz in tsc TSC ticks at tsc_hz (0 when a rate is unknown). */
u64 ew_ref_ticks(u64 tsc, u64 ref_hz, u64 tsc_hz);

/* Quantization, in ppm, of the rate of a window of `ticks` counted as the difference of two runs' counts: each
 * run counts within one tick of its time, so the window is within +-2 ticks: 2e6 / ticks, rounded up; UINT64_MAX
 * for 0 ticks. Comparing two windows' rates adds both windows' quantization. */
u64 ew_ref_quant_ppm(u64 ticks);
