/* Kernel backing of the hardware access layer (see hw_access_kernel.h). */
#include "pmu/kernel/hw_access_kernel.h"

#include <string.h>

#include "apic/apic.h"
#include "kernel/safe.h"

/* The portable code compares against HW_FAULT | vector; the fixup path returns FIXUP_FAULT | vector. */
_Static_assert(HW_FAULT == FIXUP_FAULT, "pmu/access.h HW_FAULT must equal kernel/traps.h FIXUP_FAULT");
/* pmu/access.h repeats these so that pmu/ stays portable; they must not drift. */
_Static_assert(HW_APIC_EOI == APIC_EOI, "HW_APIC_EOI");
_Static_assert(HW_APIC_LVT_PMC == APIC_LVT_PMC, "HW_APIC_LVT_PMC");
_Static_assert(HW_LVT_MASKED == LVT_MASKED, "HW_LVT_MASKED");
_Static_assert(HW_LVT_DM_NMI == LVT_DM_NMI, "HW_LVT_DM_NMI");

static int k_rdmsr(void *ctx, u32 msr, u64 *val)
{
    (void)ctx;
    return rdmsr_safe(msr, val);
}

static int k_wrmsr(void *ctx, u32 msr, u64 val)
{
    (void)ctx;
    return wrmsr_safe(msr, val);
}

static int k_rdpmc(void *ctx, u32 ecx, u64 *val)
{
    (void)ctx;
    return rdpmc_safe(ecx, val);
}

static u32 k_apic_read(void *ctx, u32 reg)
{
    (void)ctx;
    return apic_read(reg);
}

static void k_apic_write(void *ctx, u32 reg, u32 val)
{
    (void)ctx;
    apic_write(reg, val);
}

static const struct hw_ops kernel_hw_ops = {
    .rdmsr = k_rdmsr,
    .wrmsr = k_wrmsr,
    .rdpmc = k_rdpmc,
    .apic_read = k_apic_read,
    .apic_write = k_apic_write,
};

void hw_access_kernel_init(struct hw_access *a)
{
    memset(a, 0, sizeof(*a));
    a->ops = &kernel_hw_ops;
    a->ctx = NULL;
}
