/* The table of known event-count deviations. Every entry quotes where it is written down; where the sources disagree
 * or are vague, the entry says so rather than picking a convenient number. Who has them is the kinds' to say
 * (pmu_kind_desc.deviations, in pmu/kind_*.c). */
#include "pmu/deviations.h"

#include "pmu/kind.h"

#define EV(x) ((u32)BIT(PMU_EV_##x))
#define TR(x) ((u32)BIT(PMU_DT_##x))

#define KUT_PMU_C "kvm-unit-tests lib/x86/pmu.c pmu_detect_intel_overcount_errata() (commit 3ffdf39c, 2025-11-20)"

const struct pmu_deviation pmu_deviation_table[PMU_DEV_COUNT] = {
    [PMU_DEV_AMD_BRANCHES_COUNT_EXCEPTIONS_INTERRUPTS] = {"amd_branches_count_exceptions_interrupts", "AMD retired branches count exceptions and interrupts",
     EV(BRANCHES) | EV(BRANCH_MISSES), {0x0c2, 0x0c3, 0x0c4, 0x0c6}, TR(INTERRUPT) | TR(EXCEPTION), 1, 1,
     "PMCx0C2 (and 0C3 mispredicted, 0C4 taken, 0C6 far) count every architectural control-flow change, "
     "exceptions and interrupts included; a mode-changing transfer counts in its target mode, so with USR only "
     "each interrupt or exception adds its return to CPL 3 (one count)",
     "AMD PPR 17h PMCx0C2 'This includes all types of architectural control flow changes, including exceptions "
     "and interrupts' (Linux tools/perf/pmu-events/arch/x86/amdzen1/core.json ex_ret_brn, ex_ret_brn_misp, "
     "ex_ret_brn_tkn, ex_ret_brn_far); target-mode rule: Sandipan Das (AMD), LKML 2023-04-26, thread "
     "'[PATCH 5/5] KVM: x86/pmu: Hide guest counter updates from the VMRUN instruction'"},
    [PMU_DEV_AMD_BRANCHES_COUNT_VMRUN_IN_GUEST] = {"amd_branches_count_vmrun_in_guest", "AMD counts VMRUN as a (taken, far) branch in the guest",
     EV(BRANCHES) | EV(BRANCH_MISSES), {0x0c2, 0x0c3, 0x0c4, 0x0c6}, TR(VM_TRANSITION), 1, 1,
     "VMRUN is a far control transfer whose target is the guest, so every VM exit + entry the host takes while "
     "the guest counts adds one retired (taken) branch; the exits are invisible to the guest, so their number is "
     "unknown to it",
     "kvm-unit-tests x86/pmu.c adjust_events_range() ('AMD CPUs count VMRUN as a branch instruction in guest "
     "context'); Sandipan Das (AMD), LKML 2023-04-26 (as above): 'VMRUNs are considered as far control transfers "
     "and VMEXITs as exceptions', architectural, no erratum will be issued"},
    [PMU_DEV_INTEL_ATOM_INST_RETIRED_OVERCOUNT] = {"intel_atom_inst_retired_overcount", "Intel Atom: Instructions Retired overcounts on far transfers",
     EV(INSTRUCTIONS), {0x0c0, 0, 0, 0}, TR(FAR_TRANSFER) | TR(VM_TRANSITION), 0, PMU_DEV_UNBOUNDED,
     "Instruction Retired (event C0H and fixed counter 0) may overcount on FAR CALL/JMP, RETF, IRET, "
     "VMENTRY/VMEXIT/VMPTRLD and complex SGX/SMX/C-state flows; no per-occurrence bound is published (kvm-unit-"
     "tests checks only count >= expected on these parts)",
     KUT_PMU_C " instructions_retired_overcount: models 0x4D Avaton/Rangely, 0x5F Denverton, 0x86 Jacobsville, "
     "0xAF Sierra Forest, 0xDD Clearwater Forest; Intel Xeon 6700 E-core specification update erratum SRF7"},
    [PMU_DEV_INTEL_ATOM_BR_RETIRED_OVERCOUNT] = {"intel_atom_br_retired_overcount", "Intel Atom: Branch Instructions Retired overcounts on far transfers",
     EV(BRANCHES), {0x0c4, 0, 0, 0}, TR(FAR_TRANSFER) | TR(VM_TRANSITION), 0, PMU_DEV_UNBOUNDED,
     "Branch Instruction Retired (event C4H) may overcount on the same instructions; Clearwater Forest (0xDD) "
     "overcounts only Instructions Retired",
     KUT_PMU_C " branches_retired_overcount: models 0x4D, 0x5F, 0x86, 0xAF (not 0xDD); erratum SRF7"},
    [PMU_DEV_INTEL_CORE2_CPUID_COUNTS_AS_BRANCH] = {"intel_core2_cpuid_counts_as_branch", "Intel before Merom E: CPUID counts as a retired branch",
     EV(BRANCHES), {0x0c4, 0, 0, 0}, TR(CPUID), 1, 1,
     "each CPUID adds one to Branch Instructions Retired (C4H)",
     "Weaver, Terpstra, Moore, 'Non-Determinism and Overcount on Modern Hardware Performance Counter "
     "Implementations', ISPASS 2013, §Retired Branches Overcount: 'On Core2 processors the cpuid instruction also "
     "counts as a branch' (measured on family 6 model 15 stepping 7; github deater/deterministic "
     "papers/deterministic_counters/03_evaluation.tex); model range from VMware open-vm-tools "
     "lib/include/x86cpuid.h CPUID_CountsCPUIDAsBranch(): 'CPUID no longer a branch starting with Merom E ... "
     "Penryn also has this fixed' (family 6, model < 0x0F or model 0x0F stepping < 9). No Intel specification "
     "update found that states it"},
    [PMU_DEV_AMD_ZEN_SPECLOCKMAP_ROLLBACK] = {"amd_zen_speclockmap_rollback", "AMD Zen: SpecLockMap rollback is not undone in the counters",
     EV(INSTRUCTIONS) | EV(BRANCHES), {0x0c0, 0x0c2, 0x0d1, 0}, TR(LOCK_ROLLBACK), 0, PMU_DEV_UNBOUNDED,
     "with the SpecLockMap optimisation on (MSRC001_1020[54] = 0, the default), a speculated LOCK-prefixed "
     "instruction that is rolled back can leave the following instructions counted as retired; uncontended "
     "single-thread code is reported unaffected; pmuboot does not change the MSR",
     "rr src/PerfCounters_x86.h check_for_zen_speclockmap() (all Zen: AMDZen..Zen5) and rr issue #2034 "
     "(comment 691339758: SpecLockMap 'may roll back a number of post-lock instructions but doesn't correctly "
     "roll back performance counters'; fix: set MSRC001_1020[54]); rr third-party zen_workaround module"},
    [PMU_DEV_INTERRUPT_COUNTS_ONE_INSTRUCTION] = {"interrupt_counts_one_instruction", "An interrupt adds one instruction to the interrupted mode's count",
     EV(INSTRUCTIONS), {0, 0, 0, 0}, TR(INTERRUPT) | TR(EXCEPTION), 1, 1,
     "each hardware interrupt, and each page fault, taken inside the measured region adds one Instructions "
     "Retired count even with USR only (likely the tail of IRET retiring after the switch to CPL 3); Weaver's "
     "notes page says 'at least one'",
     "Weaver et al., ISPASS 2013 (as above) §Nondeterministic Hardware Interrupts: 'Most x86_64 events are "
     "incremented an extra time for every hardware interrupt'; V. Weaver, web.eece.maine.edu/~vweaver/projects/"
     "perf_counters/retired_instructions.html ('at least one extra instruction each time a hardware interrupt "
     "happens, even if only user space code is being monitored'); SDM Vol.3B 'Instructions Retired' (C0H): "
     "counters continue counting during hardware interrupts, traps, and inside interrupt handlers"},
};
const size_t pmu_deviation_table_len = ARRAY_SIZE(pmu_deviation_table);

size_t pmu_deviations_for(const struct cpu_ident *id, enum pmu_kind kind, const struct pmu_deviation **out,
                          size_t max)
{
    const struct pmu_kind_deviation *k = pmu_kind_get(kind)->deviations;
    size_t n = 0;
    for (; k && k->deviation; k++) {
        if (k->applies && !k->applies(id))
            continue;
        if (n < max)
            out[n] = k->deviation;
        n++;
    }
    return n;
}

bool pmu_deviation_affects(const struct pmu_deviation *d, enum pmu_generic_event ev)
{
    return (unsigned)ev < PMU_EV_COUNT && (d->events & BIT(ev));
}

bool pmu_deviation_affects_code(const struct pmu_deviation *d, u16 code)
{
    for (unsigned i = 0; i < PMU_DEV_MAX_CODES; i++)
        if (code != 0 && d->codes[i] == code)
            return true;
    return false;
}

const char *pmu_dev_trigger_name(enum pmu_dev_trigger t)
{
    static const char *const names[PMU_DT_COUNT] = {
        [PMU_DT_INTERRUPT] = "interrupt",         [PMU_DT_EXCEPTION] = "exception",
        [PMU_DT_FAR_TRANSFER] = "far_transfer",   [PMU_DT_VM_TRANSITION] = "vm_transition",
        [PMU_DT_CPUID] = "cpuid",                 [PMU_DT_LOCK_ROLLBACK] = "lock_rollback",
    };
    return (unsigned)t < PMU_DT_COUNT ? names[t] : "?";
}

static u64 sat_add(u64 a, u64 b)
{
    return a + b < a ? UINT64_MAX : a + b;
}

static u64 sat_mul(u64 a, u64 b)
{
    return a != 0 && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

bool pmu_deviation_bounds(const struct pmu_deviation *d, u64 expected, const u64 occurrences[PMU_DT_COUNT],
                          u64 *lo, u64 *hi)
{
    u64 occ = 0;
    for (unsigned t = 0; t < PMU_DT_COUNT; t++)
        if (d->triggers & BIT(t))
            occ = sat_add(occ, occurrences[t]);
    *lo = sat_add(expected, sat_mul(occ, d->extra_min));
    if (d->extra_max == PMU_DEV_UNBOUNDED && occ != 0) {
        *hi = UINT64_MAX;
        return false;
    }
    *hi = sat_add(expected, sat_mul(occ, d->extra_max == PMU_DEV_UNBOUNDED ? 0 : d->extra_max));
    return true;
}
