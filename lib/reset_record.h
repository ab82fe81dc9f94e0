/* Suite reset's record across boots: the few bytes that say which machine resets a run asked for, which one is in
 * flight and what each found. The state lives in the record store (kernel/record_store.h: an ACPI ERST, or a CMOS
 * window where its layout is known: lib/cmos_slot.h), written with a magic, a version and a checksum, so a stale or
 * foreign byte pattern is never taken for a round in flight. In lib/, not in the suite, because the record store
 * finds the record's slot by its validity (beside the hang record's) and reads it at boot; what the suite decides
 * from it is its plan (tests/reset/portable/reset_plan.h). Portable: the kernel reads and writes the bytes. */
#pragma once
#include "lib/cmos_slot.h"
#include "lib/types.h"

enum reset_type { RESET_CF9, RESET_KBC, RESET_TRIPLE, RESET_TYPES };
#define RESET_ALL ((1u << RESET_TYPES) - 1) /* reset=all: one bit per enum reset_type */

#define RESET_RECORD_BYTES CMOS_RECORD_BYTES

/* Whether the bytes hold a valid reset record: the predicate lib/cmos_slot.h's cmos_record_slot takes, so that the
 * record goes into a slot of its own (the first 16 unused bytes, or the run already holding a valid record of this
 * run), clear of the watchdog's record (the record store pairs the two kinds: kernel/record_store.c). */
bool reset_record_valid(const u8 b[RESET_RECORD_BYTES]);

enum reset_state { RESET_STATE_NONE, RESET_STATE_ISSUED, RESET_STATE_RUNNING };

/* Per reset type (result[]). */
#define RESET_R_ISSUED 0x01
#define RESET_R_CAME_BACK 0x02
#define RESET_R_PMU_CHECKED 0x04 /* some CPU verified its PMU registers after this reset */
#define RESET_R_PMU_FAILED 0x08  /* ... and some register was not at its documented reset value */
#define RESET_R_PMU_SKIPPED 0x10 /* no CPU had a PMU */
#define RESET_R_OLD_EDITION 0x20 /* a GLOBAL_CTRL matched only the pre-079US SDM value */

struct reset_record {
    u8 requested; /* bit mask of enum reset_type */
    u8 state;     /* enum reset_state */
    u8 current;   /* the reset in flight (ISSUED) or last issued */
    u8 boots;     /* boots of this run so far, this one included */
    u8 result[RESET_TYPES];
    u8 mismatches[RESET_TYPES]; /* PMU registers off their reset value, all CPUs (saturates at 255) */
};

void reset_record_encode(const struct reset_record *r, u8 out[RESET_RECORD_BYTES]);
/* False (and *r zeroed) when the bytes hold no valid record: wrong magic, version or checksum. */
bool reset_record_decode(const u8 in[RESET_RECORD_BYTES], struct reset_record *r);
