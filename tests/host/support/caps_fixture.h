/* Capabilities for host tests that do not start from a CPUID dump: those pmu_discover() finds on the CPUID an
 * emulated kind with these parameters answers (emul/emul_kinds.c pmu_emul_caps), so a test's PMU has the MSR map
 * and rules of its kind descriptor (pmu/kind_*.c) and no second copy of them. */
#pragma once
#include "pmu/pmu_caps.h"

/* Intel architectural perfmon version 1..6 on a family 6 model 55H signature; fixed counters from v2;
 * PERF_CAPABILITIES (v2+) with FW_WRITE when fw_write. */
void fixture_caps_intel(struct pmu_caps *c, u32 version, u32 num_gp, u32 gp_width, u32 num_fixed, u32 fixed_width,
                        bool fw_write);
/* AMD family 19h; kind PMU_KIND_AMD_LEGACY (4 counters), PMU_KIND_AMD_CORE_EXT (6) or PMU_KIND_AMD_PERFMON_V2
 * (num_gp, 0 reading as 6). */
void fixture_caps_amd(struct pmu_caps *c, enum pmu_kind kind, u32 num_gp);
/* Knights Corner (family 0BH model 01H). */
void fixture_caps_knc(struct pmu_caps *c);
