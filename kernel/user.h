/* Running a function at CPL 3 on the current CPU, for privilege checks (RDPMC/RDMSR at ring 3).
 * The identity map is user-accessible, so the function can run from kernel text on a per-CPU user stack.
 * It returns through the #UD of a ud2 at a known address (kernel/user_entry.asm). Other exceptions at CPL 3
 * take the usual path: fixed up by the safe accessors, or charged to the running check. */
#pragma once
#include "kernel/traps.h"
#include "lib/types.h"

/* Called by the trap handler for every exception: true (and no return) when it is the ring-3 return. */
bool user_return_trap(struct trap_frame *f);
/* Run fn(arg) at CPL 3 with interrupts off; returns fn's return value. */
u64 run_at_cpl3(u64 (*fn)(u64 arg), u64 arg);
/* The same with interrupts on at CPL 3 (IF=1, IOPL 0), so PMIs interrupt the workload as they would a
 * user program. */
u64 run_at_cpl3_irq(u64 (*fn)(u64 arg), u64 arg);
/* The same with the given RFLAGS at CPL 3 (IOPL 0): e.g. TF for the single-step oracle (kernel/singlestep.c).
 * The caller restores IF afterwards if it set it: the return trap comes through an interrupt gate. */
u64 run_at_cpl3_rflags(u64 (*fn)(u64 arg), u64 arg, u64 rflags);
