/* Each CPU's view of its own PMU: identification and discovery from its own CPUID (hybrid parts differ by
 * core type), IA32_PERF_CAPABILITIES read safely, the kernel access layer, and the bound pmu API.
 * Filled on every online CPU before the suites run, without writing any PMU register (the AMD guest probe puts
 * back what it wrote), so every register's value as the firmware left it is recorded (`entry`) and reported
 * (pmu_enum/firmware_state, pmu/entry_state.h). */
#pragma once
#include "lib/cpu_ident.h"
#include "kernel/percpu.h"
#include "pmu/lbr.h"
#include "pmu/pebs.h"
#include "pmu/pmu.h"
#include "pmu/pmu_state.h"

struct pmu_cpu {
    bool discovered;
    struct cpu_ident id;
    struct pmu_caps caps;
    const struct cpuid_source *cpuid; /* the CPUID discovery read: the CPU's, or the emulated kind's */
    struct lbr_caps lbr;     /* its Last Branch Records (pmu/lbr.h), after IA32_PERF_CAPABILITIES */
    struct pebs_caps pebs;   /* its PEBS (pmu/pebs.h), after IA32_PERF_CAPABILITIES and IA32_MISC_ENABLE */
    int perf_caps_rc;        /* rdmsr_safe result for IA32_PERF_CAPABILITIES (when PDCM) */
    struct hw_access hw;
    struct pmu pmu;
    int init_rc;             /* pmu_init result; PMU_ENOTSUP for kind none */
    struct pmu_state entry;  /* every register at entry, read before any check wrote one (empty without a PMU) */
    bool global_ctrl_seen;   /* GLOBAL_CTRL could be read at entry (its entry in `entry`) */
    int global_ctrl_rc;
    u64 global_ctrl_at_entry;
    bool restored;           /* pmu_cpu_restore_entry ran */
    int restore_rc;          /* ... and its result (restore_why names the step that failed) */
    const char *restore_why;
};

extern struct pmu_cpu *pmu_cpus; /* per-CPU array (kernel/percpu_array.h) */

/* A PMU that stands in for the CPU's (the emulated PMU, pmu=emulated:KIND): cpu_init prepares this CPU's and
 * returns the CPUID it answers with, so discovery and everything after it run unchanged; mark_use is called by
 * every PMU check (pmu_cpu_usable), so its verdict is marked as about that PMU. Set on the boot CPU before
 * discovery runs anywhere. */
struct pmu_cpu_standin {
    const struct cpuid_source *(*cpu_init)(void);
    void (*mark_use)(void);
};
void pmu_cpu_set_standin(const struct pmu_cpu_standin *s);

/* Discover this CPU's PMU (runs on the CPU itself). */
void pmu_cpu_discover(void *unused);
/* At the end of the run, on the CPU itself: every PMU control and counter back to what the firmware left
 * (pmu_state_restore of `entry`), so that counters the firmware programmed for itself go on as it set them. */
void pmu_cpu_restore_entry(void *unused);
static inline struct pmu_cpu *this_pmu_cpu(void) { return &pmu_cpus[this_cpu()->index]; }
/* True when this CPU has a usable PMU; otherwise fills reason with the SKIP evidence. */
bool pmu_cpu_usable(const struct pmu_cpu *pc, const char **reason);

/* In a check: SKIP with the CPUID evidence when this CPU has no usable PMU (never a PASS without one). */
#define SKIP_WITHOUT_PMU(c, pc)                                                                              \
    do {                                                                                                     \
        const char *why_;                                                                                    \
        if (!pmu_cpu_usable(pc, &why_))                                                                      \
            return check_skip(c, "no PMU: %s", why_);                                                        \
    } while (0)
