/* What each PMU register reads after a reset, per PMU kind and per edition of the manual that says so.
 *
 *   KNC (Knights Corner PMU document 327357-001, 1.4.4 and Table 1-2 "Default"): everything 0.
 *   Intel architectural perfmon: counters, selects, FIXED_CTR_CTRL and GLOBAL_STATUS 0 (SDM Vol.3A Table 10-1
 *     "Perf. counters and event select: 0"); IA32_PERF_GLOBAL_CTRL: one enable bit per GP counter from SDM
 *     325462-079US (March 2023; Linux KVM commit de120e1d692d models it), 0 in the editions before. Both are
 *     accepted and the edition the observation matches is reported. GLOBAL_STATUS bit 63 (CondChgd) may read 1
 *     after reset on some parts (an erratum, Linux b292d7a10487): tolerated and reported.
 *   AMD PerfMonV2: PerfCntrGlobalCtl likewise one enable bit per core counter (AMD PPRs for PerfMonV2 parts,
 *     as KVM de120e1d692d cites them); 0 is accepted too, reported as QEMU's reset state (QEMU writes it into
 *     KVM after a machine reset); counters, selects and status 0. AMD legacy / PerfCtrExtCore: 0 (APM
 *     Vol.2 13.2.1 gives no other value; the PPRs list 0).
 * Portable. */
#pragma once
#include "pmu/pmu_state.h"

struct pmu_reset_expect {
    u64 value;           /* what the newest documentation says */
    const char *source;
    bool has_alt;        /* an older edition said otherwise: alt is accepted too */
    u64 alt;
    const char *alt_source;
    u64 tolerated;       /* bits an erratum may leave set (reported, not failed) */
};

/* The rule of caps->kind (its descriptor's reset_expect, pmu/kind.h). */
void pmu_reset_expect(const struct pmu_caps *caps, const struct pmu_state_entry *e, struct pmu_reset_expect *out);
/* The rules the kinds' descriptors name, as described above; `out` comes zeroed. */
void pmu_reset_expect_knc(const struct pmu_caps *caps, const struct pmu_state_entry *e, struct pmu_reset_expect *out);
void pmu_reset_expect_intel(const struct pmu_caps *caps, const struct pmu_state_entry *e, struct pmu_reset_expect *out);
void pmu_reset_expect_amd(const struct pmu_caps *caps, const struct pmu_state_entry *e, struct pmu_reset_expect *out);
void pmu_reset_expect_amd_v2(const struct pmu_caps *caps, const struct pmu_state_entry *e,
                             struct pmu_reset_expect *out);

enum pmu_reset_match { PMU_RESET_MISMATCH, PMU_RESET_MATCHES, PMU_RESET_MATCHES_ALT };
enum pmu_reset_match pmu_reset_judge(const struct pmu_reset_expect *x, u64 observed);
