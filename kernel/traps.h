/* IDT, exception handling and interrupt dispatch. */
#pragma once
#include "kernel/percpu.h"
#include "lib/types.h"

struct trap_frame {
    u64 r15, r14, r13, r12, r11, r10, r9, r8, rbp, rdi, rsi, rdx, rcx, rbx, rax;
    u64 vector, error;
    u64 rip, cs, rflags, rsp, ss; /* pushed by the CPU */
};

typedef void (*irq_handler_t)(struct trap_frame *f);

void idt_init(void); /* build the shared IDT once */
void idt_load(void); /* on each CPU */
/* Install h for vector (NULL removes it); returns the handler it replaces, so a check can put it back. */
irq_handler_t irq_register(u8 vector, irq_handler_t h);
/* The same for the calling CPU only: h takes precedence over the shared handler there (NULL removes it). */
irq_handler_t irq_register_local(u8 vector, irq_handler_t h);
void irq_clear_local(void); /* drop every handler this CPU installed with irq_register_local */
const char *exception_name(u32 vector);
/* Whether the vector is one the CPU raises as an exception (0..31). */
static inline bool is_exception(u64 v) { return v < 32; }

/* An exception a layer above answers (the single-step oracle's #DB, the emulated PMU's RDPMC #UD): fn returns
 * true when it handled the trap (execution resumes at f->rip), false to pass it on. Claims are tried in the
 * order they were added, after the runner's NMI and interrupts and before the fixup table. On the boot CPU
 * before any AP starts. */
typedef bool (*trap_claim_t)(struct trap_frame *f);
void trap_add_claim(u8 vector, trap_claim_t fn);

/* A fault inside a check, and the NMI that stops one, go to the harness through the catch hook
 * (kernel/catch_hook.h). */

/* Fault-fixup table: an instruction listed there that faults resumes at its fixup address with
 * %rdi = FIXUP_FAULT | vector (see kernel/safe.h). */
#define FIXUP_FAULT 0x100
struct ex_entry {
    u64 insn, fixup;
};
