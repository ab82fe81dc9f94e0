/* Intel Xeon Phi Knights Corner (family 0x0B): no CPUID perfmon leaf; the PMU is fixed by the KNC PMU
 * document (Intel Xeon Phi Coprocessor (Knights Corner) PMU, doc 327357-001: 1.2 and 1.4 "2 counters per
 * thread, 40 bits", Table 1-2 MSR addresses). Linux selects knc_pmu_init() for family 0x0B (events/intel/core.c). */
#include "pmu/discover_internal.h"

#include "pmu/pmu_msr.h"

void pmu_knc_fill(struct pmu_caps *caps)
{
    caps->kind = PMU_KIND_KNC;
    caps->num_gp = 2;
    caps->gp_mask = 0x3;
    caps->gp_width = 40;
    struct pmu_msrs *m = &caps->msrs;
    m->evtsel0 = MSR_KNC_EVNTSEL0;
    m->ctr0 = MSR_KNC_PERFCTR0;
    m->stride = 1;
    m->spflt_ctrl = MSR_KNC_SPFLT_CONTROL;
    m->global_status = MSR_KNC_PERF_GLOBAL_STATUS;
    m->global_status_reset = MSR_KNC_PERF_GLOBAL_OVF_CTRL;
    m->global_ctrl = MSR_KNC_PERF_GLOBAL_CTRL;
}

bool pmu_discover_knc(struct pmu_caps *caps, const struct cpu_ident *id, const struct cpuid_source *src)
{
    (void)src;
    if (id->family != 0x0b)
        return false;
    pmu_knc_fill(caps);
    if (id->model != 0x01)
        pmu_note_quirk(caps, "Intel family 0x0B with a model other than 0x01: assumed to be Knights Corner");
    pmu_evidence(caps, "Intel family 0x%x model 0x%x: Knights Corner PMU (not enumerated by CPUID)", id->family,
                 id->model);
    return true;
}
