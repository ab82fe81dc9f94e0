/* Where the boot CPU was when a hang stopped the run: a 16-byte record in unused CMOS bytes (the area suite reset
 * uses, in a slot of its own: lib/cmos_slot.h), written before each of its checks while a hardware watchdog runs
 * (kernel/watchdog.h), so that the boot after the watchdog's reset knows which check on which thread hung, reports it
 * as failed and skips it. Portable: the kernel reads and writes the bytes (harness/hang_guard.c), this decides.
 *
 * Never loops: a place that hung is skipped on every later boot of the run; a hang in a place more when the list is
 * full (HANG_MAX_SKIPS), a place that hung although it was to be skipped, or more than HANG_MAX_BOOTS boots: the
 * watchdog is no longer armed (the next hang stops the run, said in the header). */
#pragma once
#include "lib/cmos_slot.h"
#include "lib/types.h"

#define HANG_RECORD_BYTES CMOS_RECORD_BYTES
#define HANG_MAX_SKIPS 2
#define HANG_MAX_BOOTS 5

enum hang_state { HANG_IDLE, HANG_IN_CHECK };

struct hang_place {
    u8 suite, check; /* the suite's index in the suite list, the check's in its table */
};

struct hang_record {
    u8 state;                 /* enum hang_state */
    u8 boots;                 /* boots of this run so far, this one included */
    struct hang_place at;     /* HANG_IN_CHECK: the check the boot CPU is in */
    u8 cpu_apic_id;           /* the boot CPU's APIC ID (low 8 bits) */
    u8 seconds;               /* the watchdog's time, for the report */
    u8 nskip;
    struct hang_place skip[HANG_MAX_SKIPS]; /* places that hung on an earlier boot of this run */
};

void hang_record_encode(const struct hang_record *r, u8 out[HANG_RECORD_BYTES]);
/* False (and *r zeroed) when the bytes hold no valid record (magic, version, checksum, ranges). */
bool hang_record_decode(const u8 in[HANG_RECORD_BYTES], struct hang_record *r);

/* The slot in CMOS bytes 0x40..0x7F (cmos[0] is byte 0x40): a valid hang record's, else the first 16 bytes that read
 * 0, are allowed and do not overlap suite reset's record (lib/cmos_slot.h); -1 when there is none. */
int hang_cmos_slot(const u8 cmos[0x40], bool *found_record);

enum hang_boot {
    HANG_BOOT_FIRST,  /* no record: a new run */
    HANG_BOOT_HUNG,   /* the previous boot hung in r->at: it is now in the skip list */
    HANG_BOOT_STALE,  /* a record between checks: the previous boot stopped outside a check (a power cycle, a hang
                       * while supervising); a new run */
    HANG_BOOT_GIVE_UP, /* too many hangs or boots: report, and arm the watchdog no more */
};
/* At the start of a boot: what it is, given the record found (valid or not); *r becomes this boot's record. */
enum hang_boot hang_plan_boot(struct hang_record *r, bool valid);
/* Whether the place is in the skip list. */
bool hang_skipped(const struct hang_record *r, u8 suite, u8 check);
