/* The single-step oracle: run a function with EFLAGS.TF set and see every instruction it retires, one #DB
 * (vector 1, DR6.BS) after each (SDM Vol.3B 18.3.1.4 "Single-Step Exception Condition"). Kernel only.
 *
 * What is counted: every instruction of fn from its first to its final RET, as retired instructions in
 * order. Not counted: the stepping machinery (the CALL that enters fn, the IRET/POPF that set TF).
 * REP string instructions: the CPU traps after each iteration with RIP still on the instruction (SDM Vol.3B
 * 18.3.1.4: "if the instruction is a REP string instruction, a single-step exception is generated after each
 * iteration"), while "Instructions Retired" counts an instruction once, at the retirement of its last micro-op
 * (SDM Vol.3B Table 21-1). The oracle follows the PMU: same-RIP traps of a REP string are iterations
 * (step_stats.rep_iterations) and the instruction is reported once, when RIP moves on; a CPU or emulator that
 * traps only once per REP gives the same count. (A REP string interrupted by an interrupt or exception
 * retires partially and restarts: not done by the workloads, which run with their LVT entries masked.) */
#pragma once
#include "lib/insn_class.h"
#include "lib/types.h"

struct trap_frame;
struct step_record {
    u64 rip;        /* the retired instruction */
    u64 next_rip;   /* where execution went on */
    u8 cpl;
    struct insn_class cls;
    bool classified; /* false: opcode unknown to insn_classify (cls is zero) */
    bool taken;      /* branch: next_rip != rip + len */
    const struct trap_frame *regs; /* the single-step trap's frame: the registers after the instruction */
};

typedef void (*step_observer_fn)(const struct step_record *r, void *arg);

struct step_stats {
    u64 limit;          /* in: stop stepping after this many retired instructions (0: no limit) */
    u64 traps;          /* #DB single-step traps taken while stepping fn */
    u64 retired;        /* instructions reported to the observer */
    u64 unknown;        /* of those, not classified */
    u64 rep_iterations; /* same-RIP traps of REP strings (not retirements) */
    u64 foreign;        /* #DB without DR6.BS while stepping (left to the usual path) */
    bool truncated;     /* the limit was reached: the rest of fn ran without TF */
    bool ended;         /* fn's final RET was seen */
};

/* Run fn(arg) single-stepped at CPL 3 (cpl=3, through kernel/user.c, IF=0) or CPL 0 (cpl=0, IF=0); obs (may be
 * NULL) is called once per retired instruction of fn, in order. Returns fn's return value. st may be NULL. */
u64 step_run(u8 cpl, u64 (*fn)(u64), u64 arg, step_observer_fn obs, void *obs_arg, struct step_stats *st);

/* The same with interrupts enabled inside fn (IF=1 at its CPL), so a PMI can arrive mid-workload: interrupt
 * handlers run unstepped (their gate clears TF, their IRET restores it) and are not reported. */
u64 step_run_irq(u8 cpl, u64 (*fn)(u64), u64 arg, step_observer_fn obs, void *obs_arg, struct step_stats *st);

/* An NMI taken while the observer runs (the emulated PMU sends its PMIs from there) interrupted the stepped code
 * between two of its instructions: *rip is where that code resumes, the instruction the NMI is charged to. False
 * outside an observer call. */
bool singlestep_resume_rip(u64 *rip);

/* A trap handler emulated the faulting instruction at f and moved RIP past it: with TF set, report the
 * single-step trap the CPU would have raised after it. */
struct trap_frame;
void singlestep_after_emulation(struct trap_frame *f);

/* Called by trap_dispatch for #DB: true when the trap was this engine's (handled, return to the frame). */
struct trap_frame;
bool singlestep_trap(struct trap_frame *f);
