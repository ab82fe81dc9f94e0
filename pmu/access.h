/* The hardware access layer: every PMU MSR, RDPMC and local-APIC access made by pmu/ code goes through one
 * struct hw_access. The kernel backs it with the safe accessors and the real local APIC
 * (pmu/kernel/hw_access_kernel.c); the host tests back it with the register-level PMU/APIC model
 * (emul/model/pmu_model.[ch], apic_model.[ch]). It also counts accesses, which is how `make bench` measures the PMI handler's cost.
 * Portable: no kernel headers. */
#pragma once
#include "lib/types.h"

/* Return codes shared by the access layer and the PMU API. 0 is success. */
#define HW_FAULT 0x100          /* | vector: the access raised that exception (e.g. HW_FAULT | 13 for #GP) */
#define PMU_ENOTSUP 0x200       /* this PMU has no such register or feature */
#define PMU_EINVAL 0x201        /* a bad argument (counter index, field value) */
#define HW_GP (HW_FAULT | 13)
#define HW_UD (HW_FAULT | 6)

struct hw_ops {
    int (*rdmsr)(void *ctx, u32 msr, u64 *val);   /* *val is 0 on a fault */
    int (*wrmsr)(void *ctx, u32 msr, u64 val);
    int (*rdpmc)(void *ctx, u32 ecx, u64 *val);
    /* Local APIC registers by xAPIC offset (apic/apic.h: APIC_LVT_PMC 0x340, APIC_EOI 0xB0, ...). */
    u32 (*apic_read)(void *ctx, u32 reg);
    void (*apic_write)(void *ctx, u32 reg, u32 val);
};

struct hw_access {
    const struct hw_ops *ops;
    void *ctx;
    u64 msr_reads, msr_writes, rdpmcs, apic_reads, apic_writes; /* counted by the inline wrappers */
};

static inline int hw_rdmsr(struct hw_access *a, u32 msr, u64 *val)
{
    a->msr_reads++;
    return a->ops->rdmsr(a->ctx, msr, val);
}
static inline int hw_wrmsr(struct hw_access *a, u32 msr, u64 val)
{
    a->msr_writes++;
    return a->ops->wrmsr(a->ctx, msr, val);
}
static inline int hw_rdpmc(struct hw_access *a, u32 ecx, u64 *val)
{
    a->rdpmcs++;
    return a->ops->rdpmc(a->ctx, ecx, val);
}
static inline u32 hw_apic_read(struct hw_access *a, u32 reg)
{
    a->apic_reads++;
    return a->ops->apic_read(a->ctx, reg);
}
static inline void hw_apic_write(struct hw_access *a, u32 reg, u32 val)
{
    a->apic_writes++;
    a->ops->apic_write(a->ctx, reg, val);
}
static inline u64 hw_access_total(const struct hw_access *a)
{
    return a->msr_reads + a->msr_writes + a->rdpmcs + a->apic_reads + a->apic_writes;
}
static inline void hw_access_reset_counts(struct hw_access *a)
{
    a->msr_reads = a->msr_writes = a->rdpmcs = a->apic_reads = a->apic_writes = 0;
}

/* Local APIC offsets the PMU code uses (same values as apic/apic.h, repeated so pmu/ stays portable). */
#define HW_APIC_EOI 0x0B0
#define HW_APIC_LVT_PMC 0x340
#define HW_LVT_MASKED (1u << 16)
#define HW_LVT_DM_NMI (4u << 8)
