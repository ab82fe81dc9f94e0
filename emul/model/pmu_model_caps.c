/* Synthetic struct pmu_caps for model tests, filled the way pmu_discover() fills them (pmu/discover_*.c);
 * tests/host/test_model.c compares them with pmu_discover() on matching synthetic CPUID. */
#include "emul/model/pmu_model.h"

#include "pmu/pmu_msr.h"

#include <string.h>

static u32 low_mask32(u32 n)
{
    return n >= 32 ? ~0u : (1u << n) - 1;
}

void pmu_model_caps_intel(struct pmu_caps *c, u32 version, u32 num_gp, u32 gp_width, u32 num_fixed,
                          u32 fixed_width, bool fw_write)
{
    memset(c, 0, sizeof(*c));
    c->kind = PMU_KIND_INTEL_ARCH;
    c->vendor = VENDOR_INTEL;
    c->family = 6;
    c->model = 0x55;
    c->version = version;
    c->arch_events_len = 7;
    c->arch_events = 0x7f;
    c->num_gp = num_gp;
    c->gp_mask = low_mask32(num_gp);
    c->gp_width = gp_width;
    if (version >= 2) { /* v1 has no fixed counters (SDM 21.2.2) */
        c->num_fixed = num_fixed;
        c->fixed_mask = low_mask32(num_fixed);
        c->fixed_width = fixed_width;
    }
    c->pdcm = true;
    struct pmu_msrs *m = &c->msrs;
    m->evtsel0 = MSR_IA32_PERFEVTSEL0;
    m->ctr0 = MSR_IA32_PMC0;
    m->stride = 1;
    m->legacy_gp = MIN(num_gp, version >= 6 ? 8u : (u32)MSR_IA32_ARCH_GP_MAX); /* discover_intel.c fill_msrs */
    m->perf_capabilities = MSR_IA32_PERF_CAPABILITIES;
    if (version >= 2) {
        if (c->num_fixed) {
            m->fixed_ctr0 = MSR_IA32_FIXED_CTR0;
            m->fixed_ctr_ctrl = MSR_IA32_FIXED_CTR_CTRL;
        }
        m->global_ctrl = MSR_IA32_PERF_GLOBAL_CTRL;
        m->global_status = MSR_IA32_PERF_GLOBAL_STATUS;
        m->global_status_reset = MSR_IA32_PERF_GLOBAL_OVF_CTRL;
    }
    if (version >= 4) {
        m->global_status_set = MSR_IA32_PERF_GLOBAL_STATUS_SET;
        m->global_inuse = MSR_IA32_PERF_GLOBAL_INUSE;
    }
    if (version >= 6) {
        m->v6_gp_ctr0 = MSR_IA32_PMC_V6_GP0_CTR;
        m->v6_gp_cfg_a0 = MSR_IA32_PMC_V6_GP0_CFG_A;
        m->v6_fixed_ctr0 = MSR_IA32_PMC_V6_FX0_CTR;
        m->v6_stride = MSR_IA32_PMC_V6_STEP;
    }
    /* The kernel reads PERF_CAPABILITIES and hands it over; FW_WRITE is bit 13 (SDM "IA32_PERF_CAPABILITIES"). */
    pmu_caps_apply_perf_capabilities(c, fw_write ? BIT(13) : 0);
}

void pmu_model_caps_amd(struct pmu_caps *c, enum pmu_kind kind, u32 num_gp)
{
    memset(c, 0, sizeof(*c));
    c->kind = kind;
    c->vendor = VENDOR_AMD;
    c->family = 0x19;
    c->gp_width = 48; /* APM Vol.2 13.2.1 */
    struct pmu_msrs *m = &c->msrs;
    if (kind == PMU_KIND_AMD_LEGACY) {
        c->num_gp = 4;
        m->evtsel0 = MSR_K7_EVNTSEL0;
        m->ctr0 = MSR_K7_PERFCTR0;
        m->stride = 1;
    } else {
        c->amd_perfctr_core = true;
        c->num_gp = kind == PMU_KIND_AMD_PERFMON_V2 ? num_gp : 6;
        m->evtsel0 = MSR_F15H_PERF_CTL0;
        m->ctr0 = MSR_F15H_PERF_CTR0;
        m->stride = 2;
    }
    if (kind == PMU_KIND_AMD_PERFMON_V2) {
        m->global_ctrl = MSR_AMD64_PERF_CNTR_GLOBAL_CTL;
        m->global_status = MSR_AMD64_PERF_CNTR_GLOBAL_STATUS;
        m->global_status_reset = MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR;
        m->global_status_set = MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_SET;
    }
    c->gp_mask = low_mask32(c->num_gp);
}

void pmu_model_caps_knc(struct pmu_caps *c)
{
    memset(c, 0, sizeof(*c));
    c->vendor = VENDOR_INTEL;
    c->family = 0x0b;
    c->model = 0x01;
    pmu_knc_fill(c); /* the same counters and MSR map discovery gives (pmu/discover_knc.c) */
}
