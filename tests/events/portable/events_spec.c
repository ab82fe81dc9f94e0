/* Events the events suite compares, per PMU kind: tests/events/portable/events_spec.h. */
#include "tests/events/portable/events_spec.h"

#include "lib/apic_timer_calc.h"
#include "pmu/events.h"
#include "pmu/kind.h"

#define F(x) BIT(EWC_##x)

/* Model-specific events from the part's file in the vendor's catalog (pmu/event_catalog.h), one per oracle class
 * the workloads construct: on CPUs the catalog has no part for, or whose part has no event of the class, not
 * available and not compared; one whose encoding an earlier entry already compares (most parts' instructions and
 * branches are the architectural events) is not compared twice (events/exact_gp). Each class is the sum of the construction's fields that count what the catalog's
 * description of its events says (tests/host/test_event_catalog.c holds the descriptions to the classes). Loads
 * and stores are compared on the workloads whose lengths differ by explicit accesses only (ew_mem_exact). */
#define CATALOG_EVENTS(catalog)                                                                                  \
    {"catalog:instructions", EWJ_EXACT, F(INSNS), catalog ": instructions retired"},                           \
    {"catalog:branches", EWJ_EXACT, F(BRANCHES), catalog ": branch instructions retired"},                     \
    {"catalog:taken", EWJ_EXACT, F(TAKEN) | F(FAR), catalog ": taken branches retired, far ones included"},    \
    {"catalog:conditional", EWJ_EXACT, F(COND), catalog ": conditional branches retired"},                      \
    {"catalog:conditional_taken", EWJ_EXACT, F(COND_TAKEN), catalog ": taken conditional branches retired"},    \
    {"catalog:conditional_not_taken", EWJ_EXACT, F(COND_NTAKEN),                                                 \
     catalog ": not-taken conditional branches retired"},                                                         \
    {"catalog:near_taken", EWJ_EXACT, F(TAKEN), catalog ": taken near branches retired"},                       \
    {"catalog:near_call", EWJ_EXACT, F(CALLS), catalog ": near calls retired, direct and indirect"},             \
    {"catalog:near_return", EWJ_EXACT, F(RETS), catalog ": near returns retired"},                              \
    {"catalog:far", EWJ_EXACT, F(FAR), catalog ": far branches retired"},                                       \
    {"catalog:indirect", EWJ_EXACT, F(IND_CALLS) | F(IND_JMPS),                                                  \
     catalog ": indirect near branches retired, returns excluded"},                                              \
    {"catalog:indirect_call", EWJ_EXACT, F(IND_CALLS), catalog ": indirect near calls retired"},                \
    {"catalog:indirect_jump", EWJ_EXACT, F(IND_JMPS), catalog ": indirect near jumps retired"},                 \
    {"catalog:relative_call", EWJ_EXACT, F(REL_CALLS), catalog ": relative near calls retired"},                \
    {"catalog:relative_jump", EWJ_EXACT, F(REL_JMPS), catalog ": relative near jumps retired"},                 \
    {"catalog:loads", EWJ_EXACT, F(LOADS), catalog ": load instructions retired"},                              \
    {"catalog:stores", EWJ_EXACT, F(STORES), catalog ": store instructions retired"}

/* Intel architectural events (SDM Vol.3B 21.2.1.2, Table 21-1). */
static const struct ew_event intel_events[] = {
    {"instructions", EWJ_EXACT, F(INSNS), "Table 21-1 Instruction Retired: once per instruction, at its last uop"},
    {"branches", EWJ_EXACT, F(BRANCHES), "Table 21-1 Branch Instruction Retired: branch instructions at retirement"},
    {"core_cycles", EWJ_CYCLES, 0, "Table 21-1 UnHalted Core Cycles"},
    {"ref_cycles", EWJ_REF_CYCLES, 0, "Table 21-1 UnHalted Reference Cycles: a fixed rate software calibrates"},
    {"llc_misses", EWJ_LLC_MISSES, 0, "Table 21-1 LLC Misses: references to the last-level cache that miss"},
    {"branch_misses", EWJ_MISPREDICTS, 0, "Table 21-1 Branch Misses Retired: mispredicted branches at retirement"},
    CATALOG_EVENTS("intel/perfmon"),
};
/* AMD core events (BKDGs / PPRs PMCx0C0, 0C2, 0C4, 0C3, 076). 0xC2 and 0xC4 count every control transfer, far ones,
 * exceptions and interrupts included (pmu/deviations): the difference of two lengths cancels the one #UD of every
 * CPL-3 run. */
static const struct ew_event amd_events[] = {
    {"retired_instructions", EWJ_EXACT, F(INSNS), "PMCx0C0 Retired Instructions"},
    {"retired_branch_instructions", EWJ_EXACT, F(BRANCHES), "PMCx0C2 Retired Branch Instructions"},
    {"retired_taken_branch_instructions", EWJ_EXACT, F(TAKEN) | F(FAR), "PMCx0C4 Retired Taken Branch Instructions"},
    {"cpu_clocks_not_halted", EWJ_CYCLES, 0, "PMCx076 CPU Clocks not Halted"},
    {"retired_mispredicted_branch_instructions", EWJ_MISPREDICTS, 0, "PMCx0C3 Retired Mispredicted Branches"},
    CATALOG_EVENTS("Linux pmu-events amdzen"),
};

/* Knights Corner (KNC PMU 327357-001 Table 1-6): an in-order core: "executed" instructions are the retired ones. */
static const struct ew_event knc_events[] = {
    {"INSTRUCTIONS_EXECUTED", EWJ_EXACT, F(INSNS), "KNC PMU 327357-001 Table 1-6, event code 0x16"},
    {"BRANCHES", EWJ_EXACT, F(BRANCHES), "KNC Table 1-6, event code 0x12: taken and not taken branches"},
    {"DATA_READ", EWJ_EXACT, F(LOADS), "KNC Table 1-6, event code 0x00: successful memory data reads"},
    {"DATA_WRITE", EWJ_EXACT, F(STORES), "KNC Table 1-6, event code 0x01: successful memory data writes"},
    {"DATA_READ_OR_WRITE", EWJ_EXACT, F(LOADS) | F(STORES), "KNC Table 1-6, event code 0x28: reads and writes"},
    {"CPU_CLK_UNHALTED", EWJ_CYCLES, 0, "KNC Table 1-6, event code 0x2A"},
    {"DATA_READ_MISS_OR_WRITE_MISS", EWJ_LLC_MISSES, 0, "KNC Table 1-6, event code 0x29: L1 data misses"},
    {"BRANCHES_MISPREDICTED", EWJ_MISPREDICTS, 0, "KNC Table 1-6, event code 0x2B"},
};

/* Zhaoxin (Linux arch/x86/events/zhaoxin/core.c; no public manual): instructions is exact because Linux's
 * zxd_event_constraints calls 0x00C0 "retired instructions"; what its branch events count (retired, executed,
 * taken only) is nowhere stated, so they are not compared. ZXC has cycles only. */
static const struct ew_event zhaoxin_events[] = {
    {"instructions", EWJ_EXACT, F(INSNS), "Linux zhaoxin/core.c 0x00c0 retired instructions (ZXD/ZXE)"},
    {"cpu_cycles", EWJ_CYCLES, 0, "Linux zhaoxin/core.c 0x0082 unhalted core clock cycles"},
};

#define SPEC(t) {t, ARRAY_SIZE(t)}
/* Keyed by the event table of the kind (pmu_kind_desc.events), whose events these are: kinds that share a table
 * (the three AMD kinds) share its expectations; a kind whose table has no entry fails tests/host/test_pmu_kinds.c. */
static const struct {
    const struct pmu_event *table;
    struct ew_kind_spec spec;
} table_specs[] = {
    {pmu_intel_arch_events, SPEC(intel_events)},
    {pmu_amd_events, SPEC(amd_events)},
    {pmu_knc_events, SPEC(knc_events)},
    {pmu_zhaoxin_events, SPEC(zhaoxin_events)},
};

const struct ew_kind_spec *ew_kind_spec(enum pmu_kind k)
{
    const struct pmu_event *table = pmu_kind_get(k)->events;
    for (size_t i = 0; table && i < ARRAY_SIZE(table_specs); i++)
        if (table_specs[i].table == table)
            return &table_specs[i].spec;
    return NULL;
}

/* Those of the kind's events that are there on this CPU (Intel: CPUID marks them available). */
size_t ew_events_for(const struct pmu_caps *caps, const struct ew_event **out, size_t max)
{
    const struct ew_kind_spec *k = ew_kind_spec(caps->kind);
    size_t n = 0;
    for (size_t i = 0; k && i < k->len; i++)
        if (pmu_event_available(caps, k->events[i].event, NULL)) {
            if (n < max)
                out[n] = &k->events[i];
            n++;
        }
    return n;
}

const struct ew_event *ew_exact_entry_for(const struct pmu_caps *caps, const struct pmu_event *ev)
{
    const struct ew_kind_spec *k = ew_kind_spec(caps->kind);
    for (size_t i = 0; k && i < k->len; i++) {
        const struct pmu_event *o = k->events[i].judge == EWJ_EXACT
                                        ? pmu_event_available(caps, k->events[i].event, NULL) : NULL;
        if (o && o->event == ev->event && o->umask == ev->umask && o->cmask == ev->cmask)
            return &k->events[i];
    }
    return NULL;
}

u64 ew_fields_sum(const struct ew_counts *c, u32 fields)
{
    u64 s = 0;
    for (int f = 0; f < EWC_FIELDS; f++)
        if (fields & BIT(f))
            s += ew_field(c, (enum ew_count_field)f);
    return s;
}

bool ew_filter_counts(bool usr, bool os, u8 cpl)
{
    return cpl == 0 ? os : usr;
}

bool ew_workload_for(enum ew_id w, u32 fields)
{
    if ((unsigned)w >= EW_COUNT || !fields)
        return false;
    if (fields & (F(LOADS) | F(STORES) | F(FLUSHES)))
        return ew_mem_exact(w);
    return true;
}

bool ew_ratio_ppm(u64 a, u64 b, u64 num, u64 den, s64 *ppm)
{
    /* a/b vs num/den: (a*den - b*num) / (b*num) in ppm. The products are formed in 128 bits (a multiply, no
     * libgcc), then both scaled down together until 64-bit arithmetic holds them (relative error < 2^-40). */
    if (!b || !den || !num)
        return false;
    unsigned __int128 x = (unsigned __int128)a * den, y = (unsigned __int128)b * num;
    while (x >= (1ull << 43) || y >= (1ull << 43)) {
        x >>= 1;
        y >>= 1;
    }
    if (!y)
        return false;
    s64 d = (s64)(u64)x - (s64)(u64)y;
    *ppm = d * 1000000 / (s64)(u64)y;
    return true;
}

struct ew_ref_clock ew_ref_clock(bool leaf15, u32 eax, u32 ebx, u32 ecx, u64 tsc_hz)
{
    if (leaf15 && ecx)
        return (struct ew_ref_clock){ecx, "CPUID.15H ECX (core crystal clock)"};
    bool ok = false;
    u64 hz = leaf15 && eax && ebx && tsc_hz ? mul_div_u64(tsc_hz, eax, ebx, &ok) : 0;
    if (ok && hz)
        return (struct ew_ref_clock){hz, "TSC frequency * CPUID.15H EAX/EBX (core crystal clock)"};
    return (struct ew_ref_clock){EW_REF_ASSUMED_HZ, "assumed: CPUID.15H enumerates no crystal; the slowest nominal "
                                                    "core crystal of SDM Vol.3B, 19.2 MHz"};
}

u64 ew_ref_window_n(u64 min_ticks, u64 ref_hz, u64 tsc_hz, u64 pilot_n, u64 pilot_tsc, u64 n_min, u64 n_max)
{
    if (!ref_hz || !tsc_hz || !pilot_n || !pilot_tsc)
        return n_max;
    /* TSC ticks the window needs, then iterations at the pilot's TSC ticks per iteration; both rounded up. */
    bool ok1 = false, ok2 = false;
    u64 tsc = mul_div_u64(min_ticks, tsc_hz, ref_hz, &ok1) + 1;
    u64 n = mul_div_u64(tsc, pilot_n, pilot_tsc, &ok2) + 1;
    if (!ok1 || !ok2 || n > n_max)
        return n_max;
    return n < n_min ? n_min : n;
}

u64 ew_ref_ticks(u64 tsc, u64 ref_hz, u64 tsc_hz)
{
    bool ok = false;
    u64 t = ref_hz && tsc_hz ? mul_div_u64(tsc, ref_hz, tsc_hz, &ok) : 0;
    return ok ? t : 0;
}

u64 ew_ref_quant_ppm(u64 ticks)
{
    return ticks ? (2000000 + ticks - 1) / ticks : UINT64_MAX;
}
