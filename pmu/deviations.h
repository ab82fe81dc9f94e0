/* Known deviations of event counts from the architectural count, detected from the CPU identity: errata and
 * documented-but-surprising definitions that make a count known by construction come out higher. Each names
 * the events it moves, what triggers the extra counts, how many per trigger, and where that is written down.
 * A check whose event and workload are affected reports the deviation as a TODO with its source; it never
 * turns the deviation into a PASS. Portable: pure data and decisions. */
#pragma once
#include "lib/cpu_ident.h"
#include "pmu/events.h"

/* What, inside the measured region, adds counts. */
enum pmu_dev_trigger {
    PMU_DT_INTERRUPT,     /* a hardware interrupt (incl. NMI) delivered and returned from */
    PMU_DT_EXCEPTION,     /* an exception (#PF, #DB, #BP, ...) delivered and returned from */
    PMU_DT_FAR_TRANSFER,  /* far CALL/JMP, RETF, IRET executed by the workload */
    PMU_DT_VM_TRANSITION, /* a VM exit + entry around the guest (invisible to the guest) */
    PMU_DT_CPUID,         /* a CPUID instruction */
    PMU_DT_LOCK_ROLLBACK, /* a LOCK-prefixed instruction whose speculation was rolled back */
    PMU_DT_COUNT
};
const char *pmu_dev_trigger_name(enum pmu_dev_trigger t); /* "interrupt", "far_transfer", ... */

#define PMU_DEV_UNBOUNDED 0xffffffffu /* no upper bound known: only count >= expected can be checked */
#define PMU_DEV_MAX_CODES 4

struct pmu_deviation {
    const char *id;       /* stable YAML key, e.g. "amd_branches_count_interrupts" */
    const char *title;
    u32 events;           /* BIT(enum pmu_generic_event) it moves */
    u16 codes[PMU_DEV_MAX_CODES]; /* raw event selects it moves on this kind (0 = unused slot) */
    u32 triggers;         /* BIT(enum pmu_dev_trigger) */
    u32 extra_min;        /* extra counts per trigger occurrence, at least ... */
    u32 extra_max;        /* ... and at most (PMU_DEV_UNBOUNDED: no upper bound known) */
    const char *effect;   /* one sentence: what is counted and in which mode */
    const char *source;   /* manual / erratum / source file + symbol, enough to find it again */
};

/* The deviations that apply to this CPU and PMU kind, in the order of the kind's list (pmu_kind_desc.deviations). Fills out[0..max-1] and returns how many
 * apply (may exceed max). */
size_t pmu_deviations_for(const struct cpu_ident *id, enum pmu_kind kind, const struct pmu_deviation **out,
                          size_t max);
/* The whole table (for docs and tests), indexed by enum pmu_deviation_id; the kinds name the entries their CPUs
 * have (pmu_kind_desc.deviations, pmu/kind.h). */
enum pmu_deviation_id {
    PMU_DEV_AMD_BRANCHES_COUNT_EXCEPTIONS_INTERRUPTS,
    PMU_DEV_AMD_BRANCHES_COUNT_VMRUN_IN_GUEST,
    PMU_DEV_INTEL_ATOM_INST_RETIRED_OVERCOUNT,
    PMU_DEV_INTEL_ATOM_BR_RETIRED_OVERCOUNT,
    PMU_DEV_INTEL_CORE2_CPUID_COUNTS_AS_BRANCH,
    PMU_DEV_AMD_ZEN_SPECLOCKMAP_ROLLBACK,
    PMU_DEV_INTERRUPT_COUNTS_ONE_INSTRUCTION,
    PMU_DEV_COUNT
};
extern const struct pmu_deviation pmu_deviation_table[PMU_DEV_COUNT];
extern const size_t pmu_deviation_table_len;

/* A deviation a kind's CPUs may have: those for which applies() holds (NULL: all of them). */
struct pmu_kind_deviation {
    const struct pmu_deviation *deviation;
    bool (*applies)(const struct cpu_ident *id);
};

bool pmu_deviation_affects(const struct pmu_deviation *d, enum pmu_generic_event ev);
bool pmu_deviation_affects_code(const struct pmu_deviation *d, u16 code);
/* The range a count may take given the count known by construction and how often each trigger occurred in
 * the measured region: [expected + sum(occ) * extra_min, expected + sum(occ) * extra_max] over the
 * deviation's triggers. Returns false (and *hi = UINT64_MAX) when the upper end is unbounded; saturates. */
bool pmu_deviation_bounds(const struct pmu_deviation *d, u64 expected, const u64 occurrences[PMU_DT_COUNT],
                          u64 *lo, u64 *hi);
