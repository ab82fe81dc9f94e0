/* Shared between the per-vendor discovery files; not part of the pmu_caps interface. */
#pragma once
#include "pmu/pmu_caps.h"

/* Record a quirk (a static one-line explanation); silently keeps the first PMU_MAX_QUIRKS. */
void pmu_note_quirk(struct pmu_caps *caps, const char *text);
/* Append to caps->evidence ("; " between pieces). */
void pmu_evidence(struct pmu_caps *caps, const char *fmt, ...) PRINTF_LIKE(2, 3);

/* Each returns true when it identified the PMU (caps->kind set); false leaves evidence for the SKIP reason. */
bool pmu_discover_knc(struct pmu_caps *caps, const struct cpu_ident *id, const struct cpuid_source *src);
bool pmu_discover_intel(struct pmu_caps *caps, const struct cpu_ident *id, const struct cpuid_source *src);
bool pmu_discover_amd(struct pmu_caps *caps, const struct cpu_ident *id, const struct cpuid_source *src);

/* Architectural perfmon (pmu/discover_intel.c), for the kinds that follow it: decode CPUID.0AH (version, GP and
 * fixed counters and widths, event availability) and give the MSR map of that version. */
void pmu_arch_perfmon_decode(struct pmu_caps *caps, const struct cpuid_regs *r);
void pmu_arch_perfmon_msrs(struct pmu_caps *caps);

/* Index of the highest set bit + 1 (0 for 0). */
static inline u32 pmu_fls(u32 v)
{
    u32 n = 0;
    while (v) {
        n++;
        v >>= 1;
    }
    return n;
}

static inline u32 pmu_low_mask(u32 n)
{
    return n >= 32 ? 0xffffffffu : (1u << n) - 1;
}
