/* Accessors that return a fault instead of taking it: the faulting instruction is listed in the fixup
 * table (kernel/traps.h), and the trap handler resumes after it with %rdi = FIXUP_FAULT | vector.
 * Each returns 0 on success, or FIXUP_FAULT | vector; this_cpu()->last_fault has the error code. */
#pragma once
#include "kernel/traps.h"
#include "lib/types.h"

#define EX_TABLE_ENTRY(insn, fixup) \
    ".pushsection .ex_table, \"a\"\n .balign 8\n .quad " #insn ", " #fixup "\n .popsection\n"

static inline int fault_vector(int r) { return r & 0xff; }

/* MSRs a layer above takes instead of the CPU: with pmu=emulated:KIND the emulated PMU routes the PMU's MSRs to
 * this CPU's register model (emul/kernel/pmu_emul.h). Set once, on the boot CPU before any AP starts. */
struct msr_hook {
    bool (*routed)(u32 msr);
    int (*rd)(u32 msr, u64 *val);
    int (*wr)(u32 msr, u64 val);
};
extern const struct msr_hook *g_msr_hook;
void msr_set_hook(const struct msr_hook *h);

static inline int rdmsr_safe(u32 msr, u64 *val)
{
    if (__builtin_expect(g_msr_hook != NULL, 0) && g_msr_hook->routed(msr))
        return g_msr_hook->rd(msr, val);
    u32 lo = 0, hi = 0;
    u64 fault = 0;
    asm volatile("1: rdmsr\n2:\n" EX_TABLE_ENTRY(1b, 2b)
                 : "+a"(lo), "+d"(hi), "+D"(fault)
                 : "c"(msr)
                 : "memory");
    *val = fault ? 0 : ((u64)hi << 32) | lo;
    return (int)fault;
}

static inline int wrmsr_safe(u32 msr, u64 val)
{
    if (__builtin_expect(g_msr_hook != NULL, 0) && g_msr_hook->routed(msr))
        return g_msr_hook->wr(msr, val);
    u64 fault = 0;
    asm volatile("1: wrmsr\n2:\n" EX_TABLE_ENTRY(1b, 2b)
                 : "+D"(fault)
                 : "c"(msr), "a"((u32)val), "d"((u32)(val >> 32))
                 : "memory");
    return (int)fault;
}

/* Under pmu=emulated the RDPMC raises #UD on QEMU TCG and the trap handler emulates it (pmu_emul_ud). */
static inline int rdpmc_safe(u32 index, u64 *val)
{
    u32 lo = 0, hi = 0;
    u64 fault = 0;
    asm volatile("1: rdpmc\n2:\n" EX_TABLE_ENTRY(1b, 2b)
                 : "+a"(lo), "+d"(hi), "+D"(fault)
                 : "c"(index)
                 : "memory");
    *val = fault ? 0 : ((u64)hi << 32) | lo;
    return (int)fault;
}

/* Read 8 bytes at any address (e.g. a non-canonical or unmapped one) without faulting. */
static inline int read_u64_safe(u64 addr, u64 *val)
{
    u64 v = 0, fault = 0;
    asm volatile("1: movq (%2), %0\n2:\n" EX_TABLE_ENTRY(1b, 2b)
                 : "+r"(v), "+D"(fault)
                 : "r"(addr)
                 : "memory");
    *val = fault ? 0 : v;
    return (int)fault;
}

/* Read 4 bytes (an aligned MMIO register, e.g. the xAPIC's, SDM Vol.3A 11.4.1) without faulting. */
static inline int read_u32_safe(u64 addr, u32 *val)
{
    u32 v = 0;
    u64 fault = 0;
    asm volatile("1: movl (%2), %0\n2:\n" EX_TABLE_ENTRY(1b, 2b)
                 : "+r"(v), "+D"(fault)
                 : "r"(addr)
                 : "memory");
    *val = fault ? 0 : v;
    return (int)fault;
}
