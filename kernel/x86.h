/* Thin wrappers over x86 instructions (kernel only). Faulting variants live in kernel/safe.h. */
#pragma once
#include "lib/types.h"

static inline void outb(u16 port, u8 v) { asm volatile("outb %0, %1" ::"a"(v), "Nd"(port)); }
static inline void outw(u16 port, u16 v) { asm volatile("outw %0, %1" ::"a"(v), "Nd"(port)); }
static inline void outl(u16 port, u32 v) { asm volatile("outl %0, %1" ::"a"(v), "Nd"(port)); }
static inline u8 inb(u16 port) { u8 v; asm volatile("inb %1, %0" : "=a"(v) : "Nd"(port)); return v; }
static inline u16 inw(u16 port) { u16 v; asm volatile("inw %1, %0" : "=a"(v) : "Nd"(port)); return v; }
static inline u32 inl(u16 port) { u32 v; asm volatile("inl %1, %0" : "=a"(v) : "Nd"(port)); return v; }

static inline void cpuid_count(u32 leaf, u32 sub, u32 *a, u32 *b, u32 *c, u32 *d)
{
    asm volatile("cpuid" : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d) : "a"(leaf), "c"(sub));
}

static inline u64 rdmsr(u32 msr)
{
    u32 lo, hi;
    asm volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
    return ((u64)hi << 32) | lo;
}

static inline void wrmsr(u32 msr, u64 v)
{
    asm volatile("wrmsr" ::"c"(msr), "a"((u32)v), "d"((u32)(v >> 32)) : "memory");
}

static inline u64 rdtsc(void)
{
    u32 lo, hi;
    asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return ((u64)hi << 32) | lo;
}

#define DEFINE_CR(n)                                                                                          \
    static inline u64 read_cr##n(void)                                                                        \
    {                                                                                                         \
        u64 v;                                                                                                \
        asm volatile("mov %%cr" #n ", %0" : "=r"(v));                                                         \
        return v;                                                                                             \
    }                                                                                                         \
    static inline void write_cr##n(u64 v) { asm volatile("mov %0, %%cr" #n ::"r"(v) : "memory"); }
DEFINE_CR(0)
DEFINE_CR(2)
DEFINE_CR(3)
DEFINE_CR(4)
#undef DEFINE_CR

static inline u64 read_flags(void)
{
    u64 f;
    asm volatile("pushfq; popq %0" : "=r"(f));
    return f;
}
static inline void cli(void) { asm volatile("cli" ::: "memory"); }
static inline void sti(void) { asm volatile("sti" ::: "memory"); }
static inline void cpu_relax(void) { asm volatile("pause" ::: "memory"); }
/* One step of a timed busy-wait (udelay, the timer calibration), between two reads of the TSC. No PAUSE, because
 * QEMU TCG leaves translated code on PAUSE and each vCPU then takes QEMU's global lock again. And not the next RDTSC
 * at once: under QEMU TCG every RDTSC takes one spinlock that all vCPUs share (softmmu/cpu-timers.c cpu_get_ticks(),
 * timers_state.vm_clock_lock; QEMU 7.2), and on a 2-core host a holder preempted leaves every other reader spinning
 * through the time slice: with 8 vCPUs polling the TSC, perf put 86% of QEMU's time in cpu_get_ticks and the
 * emulated timers fell behind (the apic suite on 64 vCPUs, 8 at a time: 10.6 s with 42 timing TODOs, and 4.1 s
 * with none once the loops read the TSC every step of this). So 4096 plain iterations per step: 3.3-3.9 us under
 * QEMU TCG, a microsecond or two on hardware, far below any window, gap or timeout measured with it. */
static inline void spin_wait_step(void)
{
    for (u32 i = 0; i < 4096; i++)
        asm volatile("" ::: "memory");
}
static inline void hlt(void) { asm volatile("hlt" ::: "memory"); }
static inline u16 read_cs(void) { u16 v; asm volatile("mov %%cs, %0" : "=r"(v)); return v; }

#define RFLAGS_IF BIT(9)
#define CR0_PE BIT(0)
#define CR0_NW BIT(29) /* SDM Vol.3A 2.5: not write-through */
#define CR0_CD BIT(30) /* cache disable */
#define CR0_PG BIT(31)
#define CR4_PAE BIT(5)
#define CR4_PCE BIT(8)
#define CR4_OSFXSR BIT(9)
#define MSR_EFER 0xC0000080u
#define EFER_LME BIT(8)
#define EFER_LMA BIT(10)
#define MSR_GS_BASE 0xC0000101u

/* irqsave/irqrestore: keep interrupts off across a critical section, restoring the caller's state. */
static inline u64 irq_save(void)
{
    u64 f = read_flags();
    cli();
    return f;
}
static inline void irq_restore(u64 f)
{
    if (f & RFLAGS_IF)
        sti();
}
