/* The check state of each CPU and the catch path. The runner (runner.c) numbers the checks a CPU starts, says which
 * one runs and where a fault inside it resumes; an exception there, or the NMI that stops it past its time limit,
 * comes here from the kernel's trap handler through the catch hook (kernel/catch_hook.h), is charged to the check
 * (framework.c check_exception, check_time_limit), and the runner is resumed with k_longjmp. The kernel sees only
 * an opaque pointer (struct cpu catch_ctx) while a check runs. */
#pragma once
#include "kernel/setjmp.h"
#include "lib/types.h"

struct check;

struct check_catch {
    struct check *check;      /* running here: exceptions are charged to it */
    k_jmp_buf resume;         /* where an exception inside it resumes (the runner) */
    volatile u32 seq;         /* checks started on this CPU (the runner numbers them) */
    volatile bool in_body;    /* the check's own code runs: a stop NMI may leave it (never the runner's own steps
                               * before or after it, such as the hang record's write) */
    volatile u32 abort_seq;   /* set by another CPU: stop check number abort_seq (an NMI) */
    volatile u32 abort_from;  /* the CPU that set abort_seq and sends the NMI (written before it) */
};

/* Set the catch hook (kernel/catch_hook.h): on the boot CPU, first thing, before any AP starts. */
void catch_install(void);
/* This CPU's state. */
struct check_catch *catch_here(void);
/* c runs on this CPU from now on (its faults are caught), until catch_leave. */
void catch_enter(struct check_catch *k, struct check *c);
void catch_leave(struct check_catch *k);
/* From CPU from (0 for the runner on the boot CPU): stop check number seq on CPU cpu with an NMI. */
void catch_request_stop(u32 cpu, u32 seq, u32 from);
