/* AMD without PerfCtrExtCore under a hypervisor: are the four K7 counters there? (see pmu_caps.h
 * pmu_probe_amd_legacy). Portable: every access goes through struct hw_access. */
#include "pmu/discover_internal.h"

#include "pmu/access.h"
#include "pmu/pmu_msr.h"

#define K7_COUNTERS 4         /* PerfEvtSel0-3 / PerfCtr0-3 (AMD APM Vol.2 13.2.1; Linux AMD64_NUM_COUNTERS) */
#define K7_WIDTH 48           /* APM Vol.2 13.2.1: "PerfCtrn ... 48-bit" */
/* Event 076h "CPU clocks not halted" at OS and USR, not enabled (APM Vol.2 13.2.1 PerfEvtSel: USR bit 16, OS
 * bit 17, EN bit 22; Linux amd_perfmon_event_map[PERF_COUNT_HW_CPU_CYCLES] = 0x0076). */
#define K7_SEL_CYCLES 0x30076ull
#define K7_SEL_EN (1ull << 22)
#define K7_CTR_PATTERN 0x5a5a5a5a5aull /* fits 48 bits, not 0, not all ones */
#define K7_WORKLOAD 20000

/* What PerfEvtSel0 and PerfCtr0 held before the probe: put back afterwards, counter first, so the state recorded at
 * entry (pmu/kernel/pmu_cpu.c) is the firmware's and a select the firmware left enabled is reported, not hidden. */
struct k7_saved {
    u64 sel, ctr;
};

static void restore(struct hw_access *hw, const struct k7_saved *s)
{
    hw_wrmsr(hw, MSR_K7_PERFCTR0, s->ctr);
    hw_wrmsr(hw, MSR_K7_EVNTSEL0, s->sel);
}

/* Write `value` to msr and read it back; on a mismatch or fault, put the probed registers back and say why. */
static bool reads_back(struct pmu_caps *caps, struct hw_access *hw, const struct k7_saved *saved, u32 msr, u64 value,
                       const char *what)
{
    u64 v = 0;
    int r = hw_wrmsr(hw, msr, value);
    if (!r)
        r = hw_rdmsr(hw, msr, &v);
    if (!r && v == value)
        return true;
    pmu_evidence(caps, "K7 %s 0x%llx read back 0x%llx (rc 0x%x): not backed", what, (unsigned long long)value,
                 (unsigned long long)v, (unsigned)r);
    restore(hw, saved);
    return false;
}

bool pmu_probe_amd_legacy(struct pmu_caps *caps, struct hw_access *hw)
{
    if (pmu_kind_present(caps->kind) || (caps->vendor != VENDOR_AMD && caps->vendor != VENDOR_HYGON) ||
        !caps->hypervisor || caps->amd_perfctr_core || caps->family < 6)
        return false;
    struct k7_saved saved = {0, 0};
    int r = hw_rdmsr(hw, MSR_K7_EVNTSEL0, &saved.sel);
    if (r) {
        pmu_evidence(caps, "K7 PerfEvtSel0 read fault 0x%x: none", (unsigned)r);
        return false;
    }
    if (hw_rdmsr(hw, MSR_K7_PERFCTR0, &saved.ctr))
        saved.ctr = 0;
    /* The first write (EN clear) also stops, for the probe's duration, a counter the firmware left running. */
    if (!reads_back(caps, hw, &saved, MSR_K7_EVNTSEL0, K7_SEL_CYCLES, "sel0") ||
        !reads_back(caps, hw, &saved, MSR_K7_PERFCTR0, K7_CTR_PATTERN, "ctr0"))
        return false;
    /* A count: enable cycles at OS+USR around a short workload. */
    u64 v = 0;
    hw_wrmsr(hw, MSR_K7_PERFCTR0, 0);
    hw_wrmsr(hw, MSR_K7_EVNTSEL0, K7_SEL_CYCLES | K7_SEL_EN);
    for (volatile u32 i = 0; i < K7_WORKLOAD; i = i + 1)
        ;
    r = hw_rdmsr(hw, MSR_K7_PERFCTR0, &v);
    hw_wrmsr(hw, MSR_K7_EVNTSEL0, 0);
    restore(hw, &saved);
    if (r || v == 0) {
        pmu_evidence(caps, "K7 sel0/ctr0 read back but %llu cycles counted (rc 0x%x): not counting",
                     (unsigned long long)v, (unsigned)r);
        return false;
    }
    pmu_evidence(caps, "K7 counters probed: sel0/ctr0 read back, %llu cycles counted", (unsigned long long)v);
    caps->kind = PMU_KIND_AMD_LEGACY;
    caps->num_gp = K7_COUNTERS;
    caps->gp_mask = pmu_low_mask(K7_COUNTERS);
    caps->gp_width = K7_WIDTH;
    caps->msrs.evtsel0 = MSR_K7_EVNTSEL0;
    caps->msrs.ctr0 = MSR_K7_PERFCTR0;
    caps->msrs.stride = 1;
    return true;
}
