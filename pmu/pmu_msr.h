/* MSR numbers of every PMU kind pmuboot knows, with their sources. The discovery code copies the ones that
 * exist on a given CPU into struct pmu_msrs (pmu_caps.h); the programming code should take them from there. */
#pragma once

/* Intel architectural performance monitoring: SDM Vol.4 Table 2-2 (IA-32 Architectural MSRs),
 * SDM Vol.3B 21.2 (Architectural Performance Monitoring). Linux arch/x86/include/asm/msr-index.h. */
#define MSR_IA32_PMC0 0x0c1                 /* IA32_PMCi = 0xC1 + i, i < MSR_IA32_ARCH_GP_MAX (below) */
#define MSR_IA32_PERFEVTSEL0 0x186          /* IA32_PERFEVTSELi = 0x186 + i, likewise */
#define MSR_IA32_PERF_CAPABILITIES 0x345    /* when CPUID.1:ECX.PDCM[15] = 1 */
#define MSR_IA32_FIXED_CTR0 0x309           /* IA32_FIXED_CTR0.. = 0x309.., v2+ */
#define MSR_IA32_FIXED_CTR_CTRL 0x38d       /* v2+ */
#define MSR_IA32_PERF_GLOBAL_STATUS 0x38e   /* v2+ */
#define MSR_IA32_PERF_GLOBAL_CTRL 0x38f     /* v2+ */
#define MSR_IA32_PERF_GLOBAL_OVF_CTRL 0x390 /* v2+; called IA32_PERF_GLOBAL_STATUS_RESET from v4 */
#define MSR_IA32_PERF_GLOBAL_STATUS_SET 0x391 /* v4+ */
#define MSR_IA32_PERF_GLOBAL_INUSE 0x392    /* v4+ */
#define MSR_IA32_DEBUGCTL 0x1d9           /* SDM Vol.4 Table 2-2; Linux MSR_IA32_DEBUGCTLMSR */
#define DEBUGCTL_FREEZE_LBRS_ON_PMI (1ull << 11)    /* SDM Vol.3B 18.4.7; Linux DEBUGCTLMSR_FREEZE_LBRS_ON_PMI */
#define DEBUGCTL_FREEZE_PERFMON_ON_PMI (1ull << 12) /* SDM Vol.3B 18.4.7; DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI */
#define MSR_IA32_A_PMC0 0x4c1               /* full-width alias of IA32_PMC0, when PERF_CAPABILITIES.FW_WRITE[13];
                                             * IA32_A_PMCi = 0x4C1 + i, likewise */
/* GP counters the three blocks above address: counter i < 10 is IA32_PERFEVTSELi = 0x186 + i, IA32_PMCi = 0xC1 + i,
 * IA32_A_PMCi = 0x4C1 + i, also where CPUID.0AH says version 5 and only leaf 23H enumerates the counters beyond 8
 * (Arrow Lake-H's Lion Cove P-cores: 0AH 8 GP counters, 23H.1 EAX = 0x3FF). Linux arch/x86/events/perf_event.h:
 * x86_pmu_config_addr(i) = x86_pmu.eventsel + i, x86_pmu_event_addr(i) = x86_pmu.perfctr + i unless
 * x86_pmu.addr_offset is set, which events/intel/core.c intel_pmu_init() does only "if (x86_pmu.version >= 6)"
 * (intel_pmu_v6_addr_offset); below v6 eventsel is MSR_ARCH_PERFMON_EVENTSEL0 and perfctr MSR_ARCH_PERFMON_PERFCTR0,
 * or MSR_IA32_PMC0 (0x4C1) with full-width writes. It does so for every bit of the hybrid PMU's cntr_mask, which
 * update_pmu_cap() takes from CPUID.23H.1 EAX, and events/core.c check_hw_exists() RDMSRs each of those selects
 * and gives the PMU up if one faults. Recent SDM Vol.4 Table 2-2 editions list IA32_PMC8/9, IA32_PERFEVTSEL8/9 and
 * IA32_A_PMC8/9 at these addresses (seen in public transcriptions of the table; the SDM text was not at hand).
 * Nothing documents an address for GP counter 10+ outside the v6 aliases: the IA32_PMCx block runs into other
 * registers soon after (0xCD MSR_FSB_FREQ, 0xCE MSR_PLATFORM_INFO, 0xCF IA32_CORE_CAPABILITIES; Linux
 * msr-index.h), and KVM gives its guests at most 8 ("More counters may conflict with other existing Architectural
 * MSRs", asm/kvm_host.h). */
#define MSR_IA32_ARCH_GP_MAX 10
/* Arch perfmon v6 MSR aliasing: one 4-MSR block per counter (Linux msr-index.h "V6 PMON MSR range",
 * events/intel/core.c "Support V6+ MSR Aliasing"). */
#define MSR_IA32_PMC_V6_GP0_CTR 0x1900
#define MSR_IA32_PMC_V6_GP0_CFG_A 0x1901    /* the event select */
#define MSR_IA32_PMC_V6_FX0_CTR 0x1980
#define MSR_IA32_PMC_V6_STEP 4

/* AMD legacy (K7 and later): APM Vol.2 13.2.1 "Performance Counter MSRs"; Linux MSR_K7_EVNTSEL0/PERFCTR0. */
#define MSR_K7_EVNTSEL0 0xc0010000          /* PerfEvtSel0..3 = C001_0000..3 */
#define MSR_K7_PERFCTR0 0xc0010004          /* PerfCtr0..3 = C001_0004..7 */
/* AMD PerfCtrExtCore (CPUID 0x80000001 ECX[23]): APM Vol.2 13.2.1; Linux MSR_F15H_PERF_CTL/CTR.
 * PerfEvtSeln = C001_0200 + 2n, PerfCtrn = C001_0201 + 2n. */
#define MSR_F15H_PERF_CTL0 0xc0010200
#define MSR_F15H_PERF_CTR0 0xc0010201
/* AMD PerfMonV2 (CPUID 0x80000022 EAX[0]): APM Vol.2 13.2.2; Linux msr-index.h MSR_AMD64_PERF_CNTR_GLOBAL_*. */
#define MSR_AMD64_PERF_CNTR_GLOBAL_STATUS 0xc0000300
#define MSR_AMD64_PERF_CNTR_GLOBAL_CTL 0xc0000301
#define MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR 0xc0000302
#define MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_SET 0xc0000303

/* Knights Corner: Intel Xeon Phi Coprocessor (Knights Corner) PMU, doc 327357-001, 1.4.3 Table 1-2;
 * Linux MSR_KNC_PERFCTR0/EVNTSEL0 and knc_pmu (events/intel/knc.c). */
#define MSR_KNC_PERFCTR0 0x20               /* PerfCnt0/1 = 0x20/0x21, 40-bit */
#define MSR_KNC_EVNTSEL0 0x28               /* PerfEvtSel0/1 = 0x28/0x29 */
#define MSR_KNC_SPFLT_CONTROL 0x2c
#define MSR_KNC_PERF_GLOBAL_STATUS 0x2d     /* read-only */
#define MSR_KNC_PERF_GLOBAL_OVF_CTRL 0x2e   /* write-only: 1 clears the status bit */
#define MSR_KNC_PERF_GLOBAL_CTRL 0x2f
