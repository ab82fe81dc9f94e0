/* AMD (and Hygon) core performance counters.
 * AMD APM Vol.2 13.2 "Performance-Monitoring Counters": legacy PerfEvtSel0-3/PerfCtr0-3 at C001_0000-7 on
 * every K7 and later part; PerfCtrExtCore (CPUID Fn8000_0001 ECX[23]) adds 6 counters at C001_0200-B with
 * select and counter interleaved; PerfMonV2 (CPUID Fn8000_0022 EAX[0]) adds global control/status and
 * enumerates the core counter count in EBX[3:0]. All counters are 48 bits wide.
 * Decisions follow Linux arch/x86/events/amd/core.c amd_pmu_init()/amd_core_pmu_init(). */
#include "pmu/discover_internal.h"

#include "pmu/pmu_msr.h"

#define AMD_COUNTER_WIDTH 48     /* APM Vol.2 13.2.1: "PerfCtrn ... 48-bit" */
#define AMD_LEGACY_COUNTERS 4    /* Linux AMD64_NUM_COUNTERS */
#define AMD_CORE_EXT_COUNTERS 6  /* Linux AMD64_NUM_COUNTERS_CORE */

bool pmu_discover_amd(struct pmu_caps *caps, const struct cpu_ident *id, const struct cpuid_source *src)
{
    struct cpuid_regs r;
    bool v2 = false;
    u32 v2_counters = 0;

    if (id->family < 6) {
        pmu_evidence(caps, "AMD family 0x%x < 6: no performance counters before K7 (Linux amd_pmu_init)",
                     id->family);
        return false;
    }
    if (id->max_ext_leaf >= 0x80000001 && cpuid_query(src, 0x80000001, 0, &r)) {
        caps->amd_perfctr_core = (r.ecx >> 23) & 1;
        caps->amd_perfctr_nb = (r.ecx >> 24) & 1;
        caps->amd_perfctr_llc = (r.ecx >> 28) & 1;
        pmu_evidence(caps, "CPUID 0x80000001 ECX=0x%08x (PerfCtrExtCore[23]=%u)", r.ecx, caps->amd_perfctr_core);
    } else {
        pmu_evidence(caps, "no CPUID leaf 0x80000001");
    }
    if (id->max_ext_leaf >= 0x80000022 && cpuid_query(src, 0x80000022, 0, &r)) {
        /* Linux asm/perf_event.h union cpuid_0x80000022_ebx */
        v2 = r.eax & 1;
        caps->amd_lbr_v2 = (r.eax >> 1) & 1;
        caps->amd_lbr_pmc_freeze = (r.eax >> 2) & 1;
        v2_counters = r.ebx & 0xf;
        caps->amd_lbr_depth = (r.ebx >> 4) & 0x3f;
        caps->amd_num_df = (r.ebx >> 10) & 0x3f;
        caps->amd_num_umc = (r.ebx >> 16) & 0x3f;
        pmu_evidence(caps, "CPUID 0x80000022 EAX=0x%08x EBX=0x%08x (PerfMonV2[0]=%u)", r.eax, r.ebx, v2);
    } else {
        pmu_evidence(caps, "no leaf 0x80000022 (max extended leaf 0x%x)", id->max_ext_leaf);
    }

    struct pmu_msrs *m = &caps->msrs;
    if (caps->amd_perfctr_core) {
        caps->kind = PMU_KIND_AMD_CORE_EXT;
        caps->num_gp = AMD_CORE_EXT_COUNTERS;
        m->evtsel0 = MSR_F15H_PERF_CTL0;
        m->ctr0 = MSR_F15H_PERF_CTR0;
        m->stride = 2;
        if (v2) {
            caps->kind = PMU_KIND_AMD_PERFMON_V2;
            if (v2_counters)
                caps->num_gp = v2_counters;
            else
                pmu_note_quirk(caps, "PerfMonV2 reports 0 core counters (0x80000022 EBX[3:0]): kept the "
                                     "PerfCtrExtCore count of 6");
            m->global_ctrl = MSR_AMD64_PERF_CNTR_GLOBAL_CTL;
            m->global_status = MSR_AMD64_PERF_CNTR_GLOBAL_STATUS;
            m->global_status_reset = MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR;
            m->global_status_set = MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_SET;
        }
    } else {
        if (v2)
            pmu_note_quirk(caps, "PerfMonV2 without PerfCtrExtCore: ignored, as Linux amd_core_pmu_init does");
        if (caps->hypervisor) {
            /* The K7 counters are not enumerated; bare metal always has them, a hypervisor may not back them
             * (QEMU TCG reads 0 from every one) or may (KVM). Discovery reads CPUID only, so nothing is claimed
             * here: pmu_probe_amd_legacy() decides by write/readback and a count. */
            pmu_evidence(caps, "hypervisor, no AMD counters enumerated: K7 probe");
            return false;
        }
        caps->kind = PMU_KIND_AMD_LEGACY;
        caps->num_gp = AMD_LEGACY_COUNTERS;
        m->evtsel0 = MSR_K7_EVNTSEL0;
        m->ctr0 = MSR_K7_PERFCTR0;
        m->stride = 1;
    }
    caps->gp_mask = pmu_low_mask(caps->num_gp);
    caps->gp_width = AMD_COUNTER_WIDTH;
    return true;
}
