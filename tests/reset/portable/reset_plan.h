/* Suite reset's plan across boots: which machine reset comes next, what the previous boot left, and when to
 * stop, decided from the record the previous boot wrote (lib/reset_record.h). Portable: the suite reads and writes
 * the record, this decides.
 *
 * Never loops: every boot of a run increments `boots`; a boot that finds its predecessor still "running" (it
 * died before finishing or resetting) ends the run with a failure, and so does a boot count above the number of
 * requested resets + 1. */
#pragma once
#include "lib/reset_record.h"
#include "lib/types.h"

enum reset_boot {
    RESET_BOOT_FIRST,   /* no record of this run: phase 1 of the first round */
    RESET_BOOT_PHASE2,  /* back from the reset in `current` */
    RESET_BOOT_CRASHED, /* the previous boot never finished nor reset: end with a failure */
    RESET_BOOT_RUNAWAY, /* more boots than the plan allows: end with a failure */
};

/* At the start of a boot: what this boot is, given the record found (valid or not) and the requested mask.
 * Updates *r for this boot (boots counted, came-back noted, state RUNNING). A valid record for another request
 * mask is stale and starts a new run. */
enum reset_boot reset_plan_boot(struct reset_record *r, bool valid, u8 requested);
/* The next reset to issue (enum reset_type), or -1 when every requested one was issued. */
int reset_plan_next(const struct reset_record *r);
/* Mark `type` issued and in flight (call, write the record, then reset). */
void reset_plan_issue(struct reset_record *r, int type);
const char *reset_type_name(int type); /* "cf9", "kbc", "triple" */
u32 reset_plan_max_boots(u8 requested);
