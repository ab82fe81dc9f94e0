/* The decisions of the watch over the boot CPU's checks (kernel/bsp_watch.c applies them; docs/architecture.md "A hang
 * of the boot CPU"). The boot CPU stops an AP's check past its time limit with an NMI; an idle AP does the same for
 * the boot CPU's check: which APs watch, whether the boot CPU may start its own checks in a phase where APs run
 * theirs, what a watcher does on each tick of its APIC timer, how long that tick is, and a check's time limit.
 * Portable: no hardware, host-tested (tests/host/test_bsp_watch_plan.c). */
#pragma once
#include "lib/types.h"

/* APs that watch one check of the boot CPU: two, so that one busy with a call the boot CPU's check makes
 * (smp_run_on) leaves the other watching; more would only take host time from the vCPUs under QEMU TCG. */
#define BSP_WATCHERS_MAX 2
/* A watcher's tick: slow enough to cost nothing (under TCG every wake-up takes host time from the others), fast
 * enough that the NMI comes soon after the limit. */
#define BSP_WATCH_TICK_MS 20
/* After its NMI, how long the boot CPU has to leave the check before the watcher says it did not answer (NMIs
 * blocked, or in SMM): an NMI is taken within microseconds otherwise, and the reset watchdog (watchdog_s=, 4 s at
 * the least) must not end the run before the line is out. */
#define BSP_WATCH_ANSWER_MS 1000

/* Up to max watchers among the APs 1..count-1 for which idle(cpu, ctx) holds, lowest index first, into out;
 * returns how many. */
u32 bsp_watch_pick(u32 count, bool (*idle)(u32 cpu, void *ctx), void *ctx, u32 *out, u32 max);

/* In a phase where APs run their per-CPU checks too: whether the boot CPU starts its own now. Yes when an AP is
 * idle to watch it; no while APs are busy, for the first that finishes becomes its watcher; yes when none is
 * busy or idle (one CPU, or every AP lost): unwatched, the reset watchdog the last resort. */
bool bsp_watch_may_start(u32 idle_aps, u32 busy_aps);

/* What a watcher sees at a tick. Times are TSC values and TSC ticks. */
struct bsp_watch_view {
    u32 seq;            /* the boot CPU's check being watched (the number the runner gave it); 0: none */
    u64 since, limit;   /* when it started, and its time limit */
    u32 stopped_seq;    /* the check an NMI was sent to stop (by any watcher); 0: none yet */
    bool stopped_by_me; /* that NMI was this watcher's */
    u64 nmi_at;         /* when this watcher sent it */
    u64 answer;         /* how long the boot CPU has to leave the check after it */
    u32 said_seq;       /* the check this watcher already said did not answer */
};

enum bsp_watch_step {
    BSP_WATCH_IDLE,       /* no check to watch, or nothing more to do for it: stop ticking */
    BSP_WATCH_WAIT,       /* within its limit, or within the time to answer the NMI: tick on */
    BSP_WATCH_STOP,       /* past its limit: claim it, and the claimer sends the NMI */
    BSP_WATCH_UNANSWERED, /* the NMI was not answered in time: say so (once), then the reset watchdog's */
};
enum bsp_watch_step bsp_watch_step(const struct bsp_watch_view *v, u64 now);

/* The next one-shot count of a watcher's APIC timer, for a tick of target TSC ticks, given that the last count
 * took elapsed TSC ticks (the timer's frequency is not known on an AP that has not run the apic suite, and
 * calibrating it there would change that suite's evidence). The wake-up comes after the expiry, so elapsed is an
 * over-estimate and the tick errs short; it grows at most 32-fold and shrinks at most halfway per tick (a vCPU
 * descheduled for a second must not make it a storm of ticks), within [2^12, 2^30]. */
#define BSP_WATCH_FIRST_COUNT (1u << 20) /* at divide by 1: 1 ms at QEMU's 1 GHz, 42 ms at a 25 MHz crystal */
u32 bsp_watch_tick_count(u32 count, u64 elapsed, u64 target);

/* A check's time limit in ms: check_timeout_ms=, or the check's own longer one (struct check_def limit_ms: a
 * check that may legitimately run longer, documented at its row). */
u32 check_limit_ms(u32 option_ms, u32 own_ms);
