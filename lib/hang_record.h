/* Where the boot CPU was when a hang stopped the run: a 16-byte record in unused CMOS bytes (the area suite reset
 * uses, in a slot of its own: lib/cmos_slot.h), written before each of its checks while a hardware watchdog runs
 * (kernel/watchdog.h), so that the boot after the watchdog's reset knows which check on which thread hung, reports it
 * as failed and skips it. Portable: the kernel reads and writes the bytes (harness/hang_guard.c), this decides.
 *
 * Never loops: a place that hung is skipped on every later boot of the run; a hang in a place more when the list is
 * full (HANG_MAX_SKIPS), a place that hung although it was to be skipped, more than HANG_MAX_BOOTS boots, or a
 * watchdog reset with no record to say where: the watchdog is no longer armed (the next hang stops the run, said in
 * the header). */
#pragma once
#include "lib/cmos_slot.h"
#include "lib/types.h"

#define HANG_RECORD_BYTES CMOS_RECORD_BYTES
#define HANG_MAX_SKIPS 2
#define HANG_MAX_BOOTS 12 /* suite reset's own boots (up to 4) and the hangs' */

enum hang_state {
    HANG_IDLE,      /* between checks */
    HANG_IN_CHECK,  /* the boot CPU is in r->at */
    HANG_RESETTING, /* suite reset resets the machine on purpose: the next boot goes on with this run */
};

struct hang_place {
    u8 suite, check; /* the suite's index in the suite list, the check's in its table */
};

struct hang_record {
    u8 state;                 /* enum hang_state */
    u8 boots;                 /* boots of this run so far, this one included */
    struct hang_place at;     /* HANG_IN_CHECK: the check the boot CPU is in */
    u8 cpu_apic_id;           /* the boot CPU's APIC ID (low 8 bits) */
    u8 seconds;               /* the watchdog's time, for the report */
    u8 run_id;                /* which run: a hash of the image's version and the command line (hang_run_id) */
    u8 nskip;
    struct hang_place skip[HANG_MAX_SKIPS]; /* places that stopped the machine on an earlier boot of this run */
    bool skip_not_watchdog[HANG_MAX_SKIPS]; /* ... and the watchdog's status said the reset was not its own */
};

void hang_record_encode(const struct hang_record *r, u8 out[HANG_RECORD_BYTES]);
/* False (and *r zeroed) when the bytes hold no valid record (magic, version, checksum, ranges). */
bool hang_record_decode(const u8 in[HANG_RECORD_BYTES], struct hang_record *r);

/* Whether the bytes hold a valid hang record: the predicate lib/cmos_slot.h's cmos_record_slot takes (the record
 * store pairs it with suite reset's, kernel/record_store.c). */
bool hang_record_valid(const u8 b[HANG_RECORD_BYTES]);

enum hang_boot {
    HANG_BOOT_FIRST,    /* no record: a new run */
    HANG_BOOT_HUNG,     /* the previous boot stopped in r->at: it is now in the skip list */
    HANG_BOOT_STALE,    /* a record between checks (the previous boot stopped outside a check: a power cycle, a hang
                         * while supervising), or another run's: a new run */
    HANG_BOOT_CONTINUE, /* suite reset's deliberate reset: the run goes on, skip list kept */
    HANG_BOOT_LOST,     /* no record, yet the watchdog says it reset the machine: the record did not survive, so a
                         * hang could not be skipped; arm no more (never loop) */
    HANG_BOOT_GIVE_UP,  /* too many hangs or boots: report, and arm the watchdog no more */
};
/* What the watchdog says of the last reset. */
enum hang_wd_status { HANG_WD_UNKNOWN, HANG_WD_OURS, HANG_WD_NOT_OURS };
/* At the start of a boot: what it is, given the record found (valid or not), this run's id and what the watchdog
 * says; *r becomes this boot's record. */
enum hang_boot hang_plan_boot(struct hang_record *r, bool valid, u8 run_id, enum hang_wd_status wd);
/* The skip list's index of the place, or -1. */
int hang_skip_index(const struct hang_record *r, u8 suite, u8 check);
/* An 8-bit id of a run: FNV-1a of the strings, folded. */
u8 hang_run_id(const char *version, const char *cmdline);

