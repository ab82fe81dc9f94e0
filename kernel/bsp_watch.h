/* An idle AP watches the boot CPU's check, as the boot CPU watches the APs' (harness/runner.c supervise): past the
 * check's time limit it asks the harness to stop it (catch_stop, kernel/catch_hook.h: an NMI, SDM Vol.3A 11.6.1,
 * with the check's number), and the boot CPU's NMI handler leaves the check as it leaves a faulting one.
 * An idle AP halts until a mailbox call (kernel/smp.c idle_loop); a watcher is woken by the boot CPU when a check
 * begins and then by a slow one-shot tick of its local APIC timer (VECTOR_WAIT_TICK), only while the boot CPU is
 * inside a check, and stops the tick before it runs any call (checks test the APIC timer). The decisions are
 * portable: lib/bsp_watch_plan.h. */
#pragma once
#include "lib/types.h"

/* Boot CPU, before check number seq (the harness's numbering) runs: the lowest-index idle APs (up to
 * BSP_WATCHERS_MAX) watch it with this limit, `name` (kept until bsp_watch_end) for their messages. Returns how many
 * watch (0: none can: no AP online and idle). */
u32 bsp_watch_begin(u32 seq, u32 limit_ms, const char *name);
/* Boot CPU, after the check (returned or left by a fault or the NMI): nothing to watch. */
void bsp_watch_end(void);
/* The APs online and idle now (no call in its mailbox), that could watch: up to max of them, lowest index first,
 * into out; returns how many. */
u32 bsp_watch_idle_aps(u32 *out, u32 max);

/* AP, from its idle loop with interrupts disabled: on entry (a fresh or re-entered AP, timer as INIT left it), before
 * a call (the tick stopped and the APIC timer as it was), and before each halt (watch, tick, act). */
void bsp_watch_ap_enter(u32 me);
void bsp_watch_ap_pause(u32 me);
void bsp_watch_ap_idle(u32 me);
