/* Where pmuboot keeps the few bytes that must survive a machine reset: suite reset's record (lib/reset_record.h) and
 * the record of where the boot CPU is while the reset watchdog runs (lib/hang_record.h). Only a place the platform made
 * for such records, or one whose layout is known, in this order:
 *  - the ACPI ERST, the firmware's store for an OS's records (kernel/erst_store.h; Linux's pstore uses it);
 *  - CMOS, on QEMU (its bytes are documented: lib/cmos_slot.h) or in the bytes the user names (cmos=FIRST-LAST);
 *  - nowhere else: a board's CMOS holds firmware settings that may read 0 (coreboot's cmos.layout files), and a
 *    record there would change them after a reset or a power loss.
 * With no store, what needs one says so (the watchdog is not armed, suite reset skips). Every byte written is in the
 * ledger (kernel/ledger.h) and the records are gone at the end of the run, whatever way it ends. */
#pragma once
#include "lib/cmos_slot.h"
#include "lib/types.h"

enum record_kind { RECORD_HANG, RECORD_RESET, RECORD_KINDS };
enum record_store_kind { STORE_NONE, STORE_ERST, STORE_CMOS };

struct record_store {
    enum record_store_kind kind;
    struct cmos_window cmos; /* STORE_CMOS */
    char evidence[240];      /* the header line: where, why there, or why there is none */
    char erst[320];          /* what the ERST search found (the "# persist:" line) */
};
extern struct record_store g_records;

/* Once, at boot, after the options, ACPI and the clocks and before the APs start (the ERST may need mappings): choose
 * the store and say why (idempotent). */
void record_store_init(void);
/* Where kind k's 16 bytes go: true with them in b (a valid record of k when *found, else unused bytes); false with
 * why when there is no store or no room. */
bool record_store_open(enum record_kind k, u8 b[CMOS_RECORD_BYTES], bool *found, char *why, size_t n);
/* Whether a valid record of kind k is stored (nothing written, nothing noted). */
bool record_store_holds(enum record_kind k);
/* Write kind k's record (after record_store_open) and read it back: false when it did not keep it. */
bool record_store_write(enum record_kind k, const u8 b[CMOS_RECORD_BYTES]);
/* The record gone (its bytes unused again); also done for every record by ledger_restore_all. */
void record_store_clear(enum record_kind k);
/* Whether the store stopped answering in this boot (an ERST whose firmware failed): a record may be left behind, and
 * reading it back proves nothing. NULL when it did not, else why. */
const char *record_store_failure(void);
/* "CMOS 0x60..0x6f", for the notes of the checks that use it. */
const char *record_store_where(enum record_kind k);
