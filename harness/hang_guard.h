/* The boot CPU's checks under a hardware watchdog, with a breadcrumb in CMOS (lib/hang_record.h, kernel/watchdog.h):
 * a check that hangs the boot CPU, which supervises every other CPU, resets the machine; the next boot reports that
 * check on that thread as failed ("hung: no return within N s, watchdog reset") and skips it, and runs the rest.
 * Suite reset's checks, which reset the machine on purpose, are not guarded. */
#pragma once
#include "harness/framework.h"

/* At boot, after the options (watchdog_s=): read the record, find the watchdog, say both in the header. */
void hang_guard_boot(void);
/* Boot CPU, before check `slot` of s: true when it hung on an earlier boot (c is then that FAIL, not to be run). */
bool hang_guard_hung(const struct suite *s, u32 slot, struct check *c);
void hang_guard_enter(const struct suite *s, u32 slot); /* the breadcrumb, then the watchdog armed */
void hang_guard_leave(void);                             /* the watchdog stopped, then the breadcrumb cleared */
/* Whether the previous boot of this run stopped in one of the boot CPU's checks (reported as hung or stopped on this
 * boot): then its name. */
bool hang_guard_previous_stop(char *name, size_t n);
/* Suite reset is about to reset the machine on purpose: the watchdog stopped, and the record says so, so that the
 * next boot goes on with this run (its skip list kept) instead of taking the reset for a hang. */
void hang_guard_before_reset(void);
/* The run is over: the watchdog stopped (the record is cleared by the ledger's restore, kernel/ledger.h). */
void hang_guard_finish(void);
