/* Intel Xeon Phi Knights Corner core PMU: 2 x 40-bit counters per thread, P6-style selects, global
 * control/status at KNC-specific MSRs (Intel Xeon Phi Coprocessor (Knights Corner) PMU, doc 327357-001, 1.2
 * and 1.4, Tables 1-1, 1-2, 1-5; Linux arch/x86/events/intel/knc.c). */
#include "pmu/pmu_internal.h"

/* Table 1-5: the select is 32 bits (63:32 reserved), bit 19 reserved; bit 21 is the thread-count mode
 * (count all threads of the core), legal on every KNC. */
u64 pmu_knc_evsel_reserved(const struct pmu *p)
{
    (void)p;
    return 0xffffffff00000000ull | EVSEL_PC;
}

static int knc_global_set(struct pmu *p, u64 bits)
{
    if (bits & ~p->counters)
        return PMU_EINVAL;
    return hw_wrmsr(p->hw, p->caps->msrs.global_ctrl, bits); /* 0x2F, bit n enables PerfCnt n */
}

static int knc_global_get(struct pmu *p, u64 *bits)
{
    return hw_rdmsr(p->hw, p->caps->msrs.global_ctrl, bits);
}

static int knc_status_read(struct pmu *p, u64 *status)
{
    return hw_rdmsr(p->hw, p->caps->msrs.global_status, status); /* 0x2D, read-only, sticky */
}

static int knc_status_clear(struct pmu *p, u64 bits)
{
    if (bits & ~p->status_bits)
        return PMU_EINVAL;
    return hw_wrmsr(p->hw, p->caps->msrs.global_status_reset, bits); /* 0x2E, write-only, 1 clears */
}

static int knc_status_set(struct pmu *p, u64 bits)
{
    (void)p, (void)bits;
    return PMU_ENOTSUP; /* Table 1-2 has no status-set register */
}

static int knc_select_write(struct pmu *p, u32 gp, u64 raw)
{
    if (!pmu_gp_exists(p, gp) || (raw & pmu_knc_evsel_reserved(p)))
        return PMU_EINVAL;
    return hw_wrmsr(p->hw, p->caps->msrs.evtsel0 + gp, raw);
}

static int knc_select_read(struct pmu *p, u32 gp, u64 *raw)
{
    *raw = 0;
    if (!pmu_gp_exists(p, gp))
        return PMU_EINVAL;
    return hw_rdmsr(p->hw, p->caps->msrs.evtsel0 + gp, raw);
}

static int knc_fixed_ctrl_write(struct pmu *p, u32 fixed, u32 field4)
{
    (void)p, (void)fixed, (void)field4;
    return PMU_ENOTSUP;
}

/* PerfCnt writes set all 40 bits, unlike IA-32 parts that sign-extend bit 31; bits 63:40 are reserved (KNC PMU
 * 327357-001 §1.4.3.2 IA32_PerfCnt0/1 and its Table 1-4). */
static int knc_counter_write(struct pmu *p, u32 bit, u64 value)
{
    if (!pmu_gp_exists(p, bit) || (value & ~p->gp_mask_val))
        return PMU_EINVAL;
    return hw_wrmsr(p->hw, p->caps->msrs.ctr0 + bit, value);
}

static int knc_counter_read(struct pmu *p, u32 bit, u64 *value)
{
    *value = 0;
    if (!pmu_gp_exists(p, bit))
        return PMU_EINVAL;
    return hw_rdmsr(p->hw, p->caps->msrs.ctr0 + bit, value);
}

/* Table 1-1: RDPMC ECX = 0/1, zero-extended 40-bit value. */
static u32 knc_rdpmc_index(const struct pmu *p, u32 bit)
{
    (void)p;
    return bit;
}

static int knc_counter_rdpmc(struct pmu *p, u32 bit, u64 *value)
{
    *value = 0;
    if (!pmu_gp_exists(p, bit))
        return PMU_EINVAL;
    return hw_rdpmc(p->hw, knc_rdpmc_index(p, bit), value);
}

const struct pmu_backend pmu_backend_knc = {
    .name = "knc",
    .global_set = knc_global_set,
    .global_get = knc_global_get,
    .status_read = knc_status_read,
    .status_clear = knc_status_clear,
    .status_set = knc_status_set,
    .select_write = knc_select_write,
    .select_read = knc_select_read,
    .fixed_ctrl_write = knc_fixed_ctrl_write,
    .counter_write = knc_counter_write,
    .counter_read = knc_counter_read,
    .counter_rdpmc = knc_counter_rdpmc,
    .rdpmc_index = knc_rdpmc_index,
};
