/* The catch hook: the one way the kernel reaches the layer that runs checks (the harness, harness/catch.c). The
 * kernel knows only that something catches this CPU's faults (struct cpu catch_ctx, an opaque pointer the harness
 * sets while a check runs) and hands it, through these hooks, an exception no fixup took, the NMI that stops a
 * check past its time limit, another CPU's request for that NMI, and a fatal error that ends the run. Set once, on
 * the boot CPU before any AP starts. */
#pragma once
#include "kernel/percpu.h"
#include "lib/types.h"

/* What an NMI is to the catcher: not a stop request (the NMI goes on to its handlers: a PMI in NMI mode), a stop
 * request for a context that has ended already (nothing to do), or one to carry out. */
enum catch_nmi { CATCH_NMI_NOT_A_STOP, CATCH_NMI_NOTHING_TO_STOP, CATCH_NMI_STOP };

struct trap_catch_hooks {
    /* An exception inside the context ctx (this CPU's catch_ctx), outside any trap handler: charge it to that
     * context and leave it; does not return. */
    void (*exception)(void *ctx, const struct fault_record *f);
    /* An NMI on this CPU: whether it is a stop request (consumed here). */
    enum catch_nmi (*nmi)(void);
    /* Carry out the stop (f: where the context was); does not return. */
    void (*time_limit)(void *ctx, const struct fault_record *f);
    /* From CPU from: ask CPU cpu to stop its context number seq (the harness's own numbering), with an NMI. */
    void (*stop)(u32 cpu, u32 seq, u32 from);
    /* A fatal error: close the checklist as failed with this reason and end the run; does not return. */
    void (*bail_out)(const char *why);
};
void trap_set_catch_hooks(const struct trap_catch_hooks *h);

/* The kernel's side: each calls its hook when one is set. catch_exception, catch_time_limit and catch_bail_out
 * return only when there is none. */
void catch_exception(void *ctx, const struct fault_record *f);
enum catch_nmi catch_nmi(void);
void catch_time_limit(void *ctx, const struct fault_record *f);
void catch_stop(u32 cpu, u32 seq, u32 from);
void catch_bail_out(const char *why);
