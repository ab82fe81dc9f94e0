/* Per-CPU state. GS base points at the CPU's struct cpu (first field = self), so this_cpu() is one load. */
#pragma once
#include "lib/types.h"

/* The most logical CPUs one boot tests (as Linux's common NR_CPUS). Per-CPU state is sized at boot for the CPUs
 * that exist (kernel/percpu_array.h); only the enumeration tables (ACPI_MAX_CPUS) are this long. */
#define MAX_CPUS 8192
#define KSTACK_SIZE 16384
#define IST_STACK_SIZE 8192

/* An exception taken by this CPU, as the trap handler saw it. */
struct fault_record {
    bool valid;
    u8 vector;
    u64 error, rip, rsp, cr2, cs;
};

struct tss64 {
    u32 reserved0;
    u64 rsp[3];
    u64 reserved1;
    u64 ist[7];
    u64 reserved2;
    u16 reserved3;
    u16 iomap_base;
} PACKED;

struct cpu {
    struct cpu *self; /* must stay first: this_cpu() reads %gs:0 */
    u32 index;        /* logical index, 0 = the boot CPU */
    u32 apic_id;
    bool online;

    u32 trap_depth;               /* nesting of trap_dispatch on this CPU */
    struct fault_record last_fault; /* the latest exception, fixed up or not */
    void *catch_ctx;              /* set by the harness while a check runs here: what catches this CPU's faults
                                   * (kernel/catch_hook.h); the kernel only hands it back */
    u8 *user_stack_top;           /* the ring-3 stack (struct cpu_stacks user_top), for kernel/user.c */

    u64 gdt[7] __attribute__((aligned(16)));
    struct tss64 tss __attribute__((aligned(16)));
};

extern struct cpu *cpus; /* per-CPU array (kernel/percpu_array.h) */

static inline struct cpu *this_cpu(void)
{
    struct cpu *c;
    asm volatile("mov %%gs:0, %0" : "=r"(c));
    return c;
}

/* A CPU's stacks: the kernel stack (APs run on it), IST1-3 (#DF, NMI, #MC), the RSP0 stack for traps from
 * ring 3 (never the stack the CPU runs on when it enters ring 3), and the ring-3 stack. */
struct cpu_stacks {
    u8 *kstack_top;
    u8 *ist_top[3];
    u8 *rsp0_top;
    u8 *user_top;
};
#define USER_STACK_SIZE 8192
#define CPU_STACKS_BYTES (KSTACK_SIZE + 4 * IST_STACK_SIZE + USER_STACK_SIZE)
extern struct cpu_stacks *cpu_stacks; /* per-CPU array */

/* Carve a CPU's stacks out of `mem` (CPU_STACKS_BYTES, 16-byte aligned). The boot CPU's are static. */
void percpu_assign_stacks(u32 index, u8 *mem);

/* Size every per-CPU array for count CPUs (boot CPU, before the APs start) and move the boot CPU's GS base,
 * GDT and TSS to its new cpus[0]. Returns the CPUs that fit: count, or 1 with the reason in why. */
u32 percpu_resize(u32 count, char *why, u32 why_len);

/* Point GS at cpus[index], load its GDT/TSS (with the stacks assigned to it) and the shared IDT. */
void cpu_local_init(u32 index, u32 apic_id);

#define SEL_KCODE 0x08
#define SEL_KDATA 0x10
#define SEL_UDATA (0x18 | 3)
#define SEL_UCODE (0x20 | 3)
#define SEL_TSS 0x28

/* IST slots (1-based as in the IDT gate): separate stacks for faults that must report even when the
 * current stack is unusable (SDM Vol.3A 7.14.5 "Interrupt Stack Table"). */
#define IST_DF 1
#define IST_NMI 2
#define IST_MC 3
