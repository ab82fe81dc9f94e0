/* The ledger of what pmuboot changes on a machine it does not own: every piece of state that survives a warm reset or
 * that firmware reads on the next boot (CMOS bytes, the warm-reset vector, the watchdog's registers, a record in the
 * firmware's error-record store) is noted here with the value found, before pmuboot first changes it, and put back
 * before the run ends, whatever way it ends (the end of the suites, a bail-out, exit=halt|reboot|qemu: kernel_exit).
 * suite machine's check `restored` reads each entry back (docs/running.md "What pmuboot changes on your machine").
 * Boot CPU only (the watchdog, CMOS and the records are its alone), or a CPU that bails out with the others stopped. */
#pragma once
#include "lib/types.h"

#define LEDGER_MAX 48

struct ledger_entry {
    char what[72];                    /* "CMOS 0x0f (shutdown status)" */
    u64 found;                        /* the value to put back */
    u64 (*read)(u64 arg);             /* the value now */
    void (*write)(u64 arg, u64 value); /* put a value back */
    u64 arg;
    u32 bits;                         /* shown width: 8, 16, 32 */
    bool restored;                    /* ledger_restore_all wrote it back */
};

/* Note a change about to be made: the first note of (read, arg) keeps `found`; later ones are ignored. False when the
 * ledger is full (the caller must then not make the change: it could not be undone). */
bool ledger_note(const char *what, u64 (*read)(u64 arg), void (*write)(u64 arg, u64 value), u64 arg, u64 found,
                 u32 bits);
/* A CMOS byte (kernel/cmos.c notes every write through this, with the value it read first). */
bool ledger_note_cmos(u8 idx, u8 found, const char *what);
/* A run of CMOS bytes that read 0 before the run (a record's slot): one entry, put back as 0. Writes to them then go
 * through cmos_write_raw. */
bool ledger_note_cmos_unused(u8 first, u8 len, const char *what);
/* Put one CMOS byte back as found, now (its entry stays, restored). */
void ledger_restore_cmos(u8 idx);
/* Put every entry back (once each; later calls only retry what did not read back). Entries whose name holds the text
 * restore_skip= gives are left as they are, to show that machine/restored fails. */
u32 ledger_restore_all(void); /* how many were written */
/* Whether restore_skip= names this change (for changes put back outside the ledger, e.g. on every CPU). */
bool ledger_skips(const char *what);
/* restore_skip=TEXT ("" or NULL: none). */
void ledger_set_skip(const char *text);
u32 ledger_count(void);
const struct ledger_entry *ledger_entry_at(u32 i);
/* The CMOS bank (0x00..0x7F) as the boot found it, read once before anything writes it (kmain), for suite machine. */
void ledger_snapshot_cmos(void);
const u8 *ledger_cmos_at_boot(void);
/* Whether CMOS byte idx has an entry. */
bool ledger_has_cmos(u8 idx);
/* Entries that could not be noted (a full ledger): those changes were not made. */
u32 ledger_refused(void);
