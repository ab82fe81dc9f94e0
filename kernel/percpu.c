/* Per-CPU GDT, TSS (with IST stacks) and GS base. */
#include "kernel/percpu.h"

#include <string.h>

#include "kernel/percpu_array.h"
#include "lib/guest_state.h"
#include "kernel/traps.h"
#include "kernel/x86.h"

PER_CPU_ARRAY_GLOBAL(struct cpu, cpus);
PER_CPU_ARRAY_GLOBAL(struct cpu_stacks, cpu_stacks);
static u8 bsp_stacks[CPU_STACKS_BYTES] __attribute__((aligned(16))); /* APs' come from early_alloc() */

void percpu_assign_stacks(u32 index, u8 *mem)
{
    struct cpu_stacks *s = &cpu_stacks[index];
    s->kstack_top = mem + KSTACK_SIZE;
    for (int i = 0; i < 3; i++)
        s->ist_top[i] = mem + KSTACK_SIZE + (u64)(i + 1) * IST_STACK_SIZE;
    s->rsp0_top = mem + KSTACK_SIZE + 4 * IST_STACK_SIZE;
    s->user_top = mem + CPU_STACKS_BYTES;
}

/* Flat long-mode descriptors (SDM Vol.3A 3.4.5, 5.2.1): kernel code/data, user data, user code. */
static const u64 gdt_template[5] = {
    0,
    0x00AF9A000000FFFFull, /* 0x08 ring-0 code, L=1 */
    0x00CF92000000FFFFull, /* 0x10 ring-0 data */
    0x00CFF2000000FFFFull, /* 0x18 ring-3 data */
    0x00AFFA000000FFFFull, /* 0x20 ring-3 code, L=1 */
};

/* Load c's GDT (with a fresh, not busy, TSS descriptor), its TSS and the shared IDT, and point GS at c. */
static void cpu_local_load(struct cpu *c)
{
    tss64_descriptor(&c->gdt[5], (u64)&c->tss, sizeof(c->tss) - 1);
    struct {
        u16 limit;
        u64 base;
    } PACKED gdtr = {sizeof(c->gdt) - 1, (u64)c->gdt};
    asm volatile("lgdt %0\n"
                 "pushq %1\n"
                 "leaq 1f(%%rip), %%rax\n"
                 "pushq %%rax\n"
                 "lretq\n"
                 "1:\n"
                 "movw %w2, %%ds\n movw %w2, %%es\n movw %w2, %%ss\n"
                 :
                 : "m"(gdtr), "i"(SEL_KCODE), "r"(SEL_KDATA)
                 : "rax", "memory");
    asm volatile("ltr %w0" ::"r"(SEL_TSS));
    idt_load();
    wrmsr(MSR_GS_BASE, (u64)c);
}

void cpu_local_init(u32 index, u32 apic_id)
{
    struct cpu *c = &cpus[index];
    memset(c, 0, sizeof(*c));
    c->self = c;
    c->index = index;
    c->apic_id = apic_id;
    if (index == 0 && !cpu_stacks[0].kstack_top)
        percpu_assign_stacks(0, bsp_stacks);
    const struct cpu_stacks *st = &cpu_stacks[index];

    memcpy(c->gdt, gdt_template, sizeof(gdt_template));
    c->tss.iomap_base = sizeof(c->tss); /* no I/O permission bitmap: ring 3 port I/O faults */
    c->tss.rsp[0] = (u64)st->rsp0_top;
    c->user_stack_top = st->user_top;
    for (int i = 0; i < 3; i++)
        c->tss.ist[i] = (u64)st->ist_top[i];
    cpu_local_load(c);
    c->online = true;
}

u32 percpu_resize(u32 count, char *why, u32 why_len)
{
    u64 flags = irq_save();
    struct cpu *before = cpus;
    u32 cap = percpu_arrays_grow(count, why, why_len);
    if (cpus != before) { /* the boot CPU's struct cpu moved: its self pointer, GDT, TSS and GS base with it */
        cpus[0].self = &cpus[0];
        cpu_local_load(&cpus[0]);
    }
    irq_restore(flags);
    return cap;
}
