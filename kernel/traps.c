/* IDT setup and the common trap dispatcher. An exception is, in order: fixed up (safe accessors),
 * handed to what catches this CPU's faults (the running check: kernel/catch_hook.h), or fatal (reported, run ends). */
#include "kernel/traps.h"
#include "kernel/safe.h"

#include <string.h>

#include "kernel/catch_hook.h"
#include "kernel/console.h"
#include "kernel/panic.h"
#include "kernel/user.h"
#include "kernel/x86.h"
#include "kernel/percpu_array.h"

struct idt_gate {
    u16 off_lo, sel;
    u8 ist, type_attr;
    u16 off_mid;
    u32 off_hi, zero;
} PACKED;

static struct idt_gate idt[256] __attribute__((aligned(16)));
static irq_handler_t irq_handlers[256];
/* Per-CPU handlers that take precedence over irq_handlers on that CPU: a check that runs while other CPUs run
 * theirs installs its handlers here, so it neither sees nor replaces the others' (irq_register_local). */
PER_CPU_ARRAY(irq_handler_t[256], local_handlers);
extern const u64 isr_stub_table[256];
extern const struct ex_entry __extable_start[], __extable_end[];

static const char *const exc_names[32] = {
    "#DE", "#DB", "NMI", "#BP", "#OF", "#BR", "#UD", "#NM", "#DF", "CSO", "#TS", "#NP", "#SS", "#GP", "#PF", "15",
    "#MF", "#AC", "#MC", "#XM", "#VE", "#CP", "22",  "23",  "24",  "25",  "26",  "27",  "#HV", "#VC", "#SX", "31",
};

const char *exception_name(u32 vector)
{
    return vector < 32 ? exc_names[vector] : "IRQ";
}

static void set_gate(u8 v, u64 handler, u8 ist, u8 dpl)
{
    idt[v] = (struct idt_gate){
        .off_lo = (u16)handler,
        .sel = SEL_KCODE,
        .ist = ist,
        .type_attr = (u8)(0x8E | (dpl << 5)), /* present, 64-bit interrupt gate: IF cleared on entry */
        .off_mid = (u16)(handler >> 16),
        .off_hi = (u32)(handler >> 32),
    };
}

void idt_init(void)
{
    for (int v = 0; v < 256; v++)
        set_gate((u8)v, isr_stub_table[v], 0, 0);
    set_gate(8, isr_stub_table[8], IST_DF, 0);
    set_gate(2, isr_stub_table[2], IST_NMI, 0);
    set_gate(18, isr_stub_table[18], IST_MC, 0);
    set_gate(3, isr_stub_table[3], 0, 3); /* int3 usable from ring 3 */
}

void idt_load(void)
{
    struct {
        u16 limit;
        u64 base;
    } PACKED ptr = {sizeof(idt) - 1, (u64)idt};
    asm volatile("lidt %0" ::"m"(ptr));
}

irq_handler_t irq_register(u8 vector, irq_handler_t h)
{
    irq_handler_t prev = irq_handlers[vector];
    irq_handlers[vector] = h;
    return prev;
}

irq_handler_t irq_register_local(u8 vector, irq_handler_t h)
{
    irq_handler_t *slot = &local_handlers[this_cpu()->index][vector];
    irq_handler_t prev = *slot;
    *slot = h;
    return prev;
}

void irq_clear_local(void)
{
    memset(local_handlers[this_cpu()->index], 0, sizeof(local_handlers[0]));
}

static const struct ex_entry *extable_find(u64 rip)
{
    for (const struct ex_entry *e = __extable_start; e < __extable_end; e++)
        if (e->insn == rip)
            return e;
    return NULL;
}

static void record_fault(struct cpu *c, const struct trap_frame *f)
{
    c->last_fault = (struct fault_record){
        .valid = true,
        .vector = (u8)f->vector,
        .error = f->error,
        .rip = f->rip,
        .rsp = f->rsp,
        .cr2 = f->vector == 14 ? read_cr2() : 0,
        .cs = f->cs,
    };
}

/* Exceptions a layer above answers, tried in registration order before the fixup table. */
#define TRAP_CLAIMS_MAX 4
static struct {
    u8 vector;
    trap_claim_t fn;
} claims[TRAP_CLAIMS_MAX];
static u32 claim_count;

void trap_add_claim(u8 vector, trap_claim_t fn)
{
    if (claim_count == TRAP_CLAIMS_MAX)
        panic("trap_add_claim: more than %u exception claims", TRAP_CLAIMS_MAX);
    claims[claim_count].vector = vector;
    claims[claim_count].fn = fn;
    claim_count++;
}

static bool claimed(struct trap_frame *f)
{
    for (u32 i = 0; i < claim_count; i++)
        if (claims[i].vector == f->vector && claims[i].fn(f))
            return true;
    return false;
}

const struct msr_hook *g_msr_hook; /* kernel/safe.h */

void msr_set_hook(const struct msr_hook *h)
{
    g_msr_hook = h;
}

static NORETURN void fatal_fault(const struct fault_record *f, const char *why)
{
    panic("cpu%u: %s: %s (vector %u) error 0x%llx at rip 0x%llx rsp 0x%llx cr2 0x%llx", this_cpu()->index, why,
          exception_name(f->vector), f->vector, (unsigned long long)f->error, (unsigned long long)f->rip,
          (unsigned long long)f->rsp, (unsigned long long)f->cr2);
}

void trap_dispatch(struct trap_frame *f);
void trap_dispatch(struct trap_frame *f)
{
    struct cpu *c = this_cpu();
    c->trap_depth++;
    if (f->vector == 2) { /* the runner's NMI that stops a check past its time limit, or another one */
        enum catch_nmi stop = catch_nmi();
        if (stop == CATCH_NMI_STOP) {
            record_fault(c, f);
            catch_time_limit(c->catch_ctx, &c->last_fault); /* the runner clears trap_depth and re-opens NMIs */
            fatal_fault(&c->last_fault, "a stop NMI nothing caught");
        }
        if (stop == CATCH_NMI_NOTHING_TO_STOP) {
            c->trap_depth--;
            return; /* that check had ended already: nothing to stop */
        }
    }
    if (!is_exception(f->vector) || f->vector == 2) { /* NMI: a PMI in NMI mode, or unexpected */
        irq_handler_t h = local_handlers[c->index][f->vector];
        if (!h)
            h = irq_handlers[f->vector];
        if (h)
            h(f);
        else
            kprintf("# cpu%u: unexpected interrupt vector %llu at rip 0x%llx\n", c->index,
                    (unsigned long long)f->vector, (unsigned long long)f->rip);
        c->trap_depth--;
        return;
    }

    if (claimed(f)) { /* e.g. the single-step oracle's #DB, the emulated PMU's RDPMC #UD: resume */
        c->trap_depth--;
        return;
    }
    user_return_trap(f); /* does not return when this is the end of a ring-3 call */
    record_fault(c, f);
    const struct ex_entry *e = extable_find(f->rip);
    if (e) {
        f->rip = e->fixup;
        f->rdi = FIXUP_FAULT | f->vector;
        c->trap_depth--;
        return;
    }
    if (c->catch_ctx && c->trap_depth == 1)
        catch_exception(c->catch_ctx, &c->last_fault); /* back to the runner; it clears trap_depth and re-opens NMIs */
    fatal_fault(&c->last_fault, c->trap_depth > 1 ? "exception inside a trap handler" : "exception outside any check");
}
