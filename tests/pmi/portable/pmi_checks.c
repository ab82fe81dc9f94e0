/* See pmi_checks.h. */
#include "tests/pmi/portable/pmi_checks.h"

#include "pmu/events.h"

/* Two wraps and a half of every counter: each armed counter must overflow at least once (an overflow test where
 * nothing overflows shows nothing), and twice makes the reload path part of it. Call/return add a few
 * instructions, never fewer. */
u64 pmi_simultaneous_iterations(void)
{
    return (2 * PMI_SIMUL_PERIOD + PMI_SIMUL_PERIOD / 2 + PMI_LOOP_INSNS_PER_ITER - 1) / PMI_LOOP_INSNS_PER_ITER;
}

bool pmi_simultaneous_ok(u64 seen, u64 period, u64 serviced)
{
    return period && serviced >= 1 && serviced == seen / period;
}

/* Each interrupt returning to ring 3 adds to most retired-instruction counts, on Intel and AMD alike (Weaver,
 * Terpstra, Moore, "Non-determinism and overcount on modern hardware performance counter implementations",
 * ISPASS 2013; AMD PPR PMCx0C0 "each exception or interrupt is counted as one instruction"). So sampling may
 * see up to one instruction per PMI more than the unsampled run, never fewer. Under a hypervisor, VM entries
 * into CPL 3 can add more (kvm-unit-tests x86/pmu.c adjust_events_range), which the guest cannot count: above
 * the bound there it is a known deviation, reported with the excess. */
enum pmi_verdict pmi_sampling_verdict(u64 ref, u64 seen, u64 pmis, bool hypervisor, const char **why)
{
    if (seen < ref) {
        *why = "fewer events with sampling than without: events lost";
        return PMI_VERDICT_FAIL;
    }
    if (seen <= ref + pmis) {
        *why = seen == ref ? "sampled = unsampled" : "within unsampled + one instruction per PMI";
        return PMI_VERDICT_PASS;
    }
    if (hypervisor) {
        *why = "more than one extra instruction per PMI under a hypervisor (VM entries may count; "
               "kvm-unit-tests adjust_events_range)";
        return PMI_VERDICT_KNOWN_DEVIATION;
    }
    *why = "more than one extra instruction per PMI on bare metal: events invented";
    return PMI_VERDICT_FAIL;
}

/* Intel: "the local APIC ... automatically sets the mask flag" of the LVT performance-counter entry on delivery
 * (SDM Vol.3A 11.5.1); AMD: it does not (AMD APM Vol.2 16.4 "Local Interrupts"; Linux events/amd/core.c amd_pmu_v2_handle_irq).
 * Hypervisors differ by version: KVM did not mask at all before commit a16eb25b09c0 ("KVM: x86: Mask LVTPC when
 * handling a PMI"), and masked on AMD too until Linux 6.9 ("KVM: x86/pmu: Do not mask LVTPC when handling a PMI
 * on AMD platforms"). */
enum pmi_verdict pmi_lvt_mask_verdict(bool amd, bool hypervisor, bool masked, const char **why)
{
    if (masked == !amd) {
        *why = amd ? "not set, as the AMD APM says" : "set, as the SDM says";
        return PMI_VERDICT_PASS;
    }
    if (!hypervisor) {
        *why = amd ? "set on AMD bare metal, where the APIC does not mask" : "not set on Intel bare metal (SDM: set)";
        return PMI_VERDICT_FAIL;
    }
    *why = amd ? "set: matches KVM before Linux 6.9 (masked LVTPC on AMD too)"
               : "not set: matches KVM before commit a16eb25b09c0 (LVTPC not masked on PMI injection)";
    return PMI_VERDICT_KNOWN_DEVIATION;
}

int pmi_program_instructions(struct pmu *p, u32 bit, bool os, const char **why)
{
    *why = NULL;
    if (PMU_IS_FIXED(bit)) {
        if (pmu_intel_fixed_event(bit - PMU_FIXED_BIT) != PMU_AE_INSTRUCTIONS) {
            *why = "this fixed counter does not count instructions";
            return PMU_ENOTSUP;
        }
        return pmu_program_fixed(p, bit - PMU_FIXED_BIT, PMU_FIXED_USR | (os ? PMU_FIXED_OS : 0) | PMU_FIXED_PMI);
    }
    const struct pmu_event *ev = pmu_event_generic(p->caps, PMU_EV_INSTRUCTIONS, why);
    if (!ev)
        return PMU_ENOTSUP;
    struct pmu_evsel base = {.usr = true, .os = os, .intr = true, .enable = true}, e;
    pmu_event_to_evsel(ev, &base, &e);
    return pmu_program_gp(p, bit, &e);
}

/* OS and USR: the overflow this check is about lands while the ring-0 handler runs, so the handler's own
 * instructions must count. */
int pmi_during_handler_program(struct pmu *p, u32 bit)
{
    const char *why;
    return pmi_program_instructions(p, bit, true, &why);
}

/* A status bit means that counter overflowed (SDM Vol.3B 21.2.2 IA32_PERF_GLOBAL_STATUS; AMD APM Vol.2 13.2.2
 * PerfCntrGlobalStatus). Linux's handlers trust it the same way: intel_pmu_handle_irq (arch/x86/events/intel/core.c)
 * skips a bit whose counter is not active and amd_pmu_v2_handle_irq (amd/core.c) WARNs when one is left ("it should
 * never be the case that some overflows are not handled"), so a bit for a counter that did not overflow either
 * disturbs a sample or goes unnoticed; here it FAILs. */
bool pmi_status_judge(const struct pmi_state *s, u64 armed, u64 expected, struct pmi_status_judgement *j)
{
    j->extra = s->status_seen & ~expected;
    j->missing = expected & ~s->status_seen;
    j->phantom = s->phantom;
    j->unarmed_serviced = 0;
    for (u32 bit = 0; bit < PMI_MAX_COUNTERS; bit++)
        if (s->serviced[bit] && !(armed >> bit & 1))
            j->unarmed_serviced |= 1ull << bit;
    return !j->extra && !j->missing && !j->phantom && !j->unarmed_serviced;
}

u64 pmi_freeze_status_judged(u32 version, u64 counters)
{
    return counters | (version >= 4 ? BIT(PMU_STATUS_CTR_FRZ) | BIT(PMU_STATUS_LBR_FRZ) : 0);
}

u64 pmi_freeze_status_expected(u32 version, u64 overflowed, bool freeze_lbr)
{
    if (version < 4) /* legacy freeze: GLOBAL_CTRL cleared, no status bit (SDM Vol.3B 18.4.7, 21.2.4.1) */
        return overflowed;
    return overflowed | BIT(PMU_STATUS_CTR_FRZ) | (freeze_lbr ? BIT(PMU_STATUS_LBR_FRZ) : 0);
}

/* A freeze is what it does (SDM Vol.3B 21.2.4.1: with CTR_Frz set no counter counts, whatever GLOBAL_CTRL says; 18.4.7:
 * the legacy freeze clears GLOBAL_CTRL): a flag set while the counters run on, or a freeze its release does not end,
 * are both visible only in the counts. */
enum pmi_verdict pmi_freeze_effect_verdict(u64 reference, u64 frozen, u64 released, const char **why)
{
    if (!reference) {
        *why = "the workload counted nothing unfrozen: the check shows nothing";
        return PMI_VERDICT_FAIL;
    }
    if (frozen) {
        *why = "the counter moved while frozen: the freeze is reported, not done";
        return PMI_VERDICT_FAIL;
    }
    if (released != reference) {
        *why = released ? "after the release the workload counted otherwise than unfrozen"
                        : "nothing counted after the release: the freeze was not released";
        return PMI_VERDICT_FAIL;
    }
    *why = "still while frozen, exact after the release";
    return PMI_VERDICT_PASS;
}
