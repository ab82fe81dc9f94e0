/* pmuboot's records in an ACPI ERST store: a record of pmuboot's (lib/cper.h) by its identifier, read, written with a
 * read-back, cleared; what the store holds, for the header. The decisions of kernel/erst_store.c, portable so that the
 * host tests hold them against a model of QEMU's device: a write that would change nothing is not made (the store is
 * often flash), an older record with the identifier goes before the new one is written (Linux never writes an
 * identifier twice, and a store may keep both), and a store that fails once (a command status other than success or
 * "no such record", a firmware busy past its time, a record read back wrong) is not used again: nothing more is
 * written. */
#pragma once
#include "lib/cper.h"
#include "lib/erst.h"
#include "lib/format.h"

struct erst_records {
    struct erst_dev dev;     /* the table and its registers */
    struct erst_range range; /* the Error Log Address Range ... */
    u8 *range_mem;           /* ... where it can be read and written */
    bool failed;             /* the store failed: every later call is refused */
    char failure[ERST_WHY_LEN]; /* why, then */
    char error[ERST_WHY_LEN + 96]; /* the reason of the last false */
    u8 rec[CPER_PMUBOOT_MAX_LEN];
};

/* Where the Error Log Address Range can be reached (ctx: the io's), or NULL with the reason in *no. */
typedef u8 *erst_map_fn(void *ctx, u64 base, u64 size, const char **no);

/* Start on a store whose table and registers are reachable: its Error Log Address Range (erst_get_range), checked
 * (erst_range_problem: bi may be NULL) and reached through map. False with the reason in s->error. */
bool erst_records_open(struct erst_records *s, const struct acpi_erst *t, const struct erst_io *io,
                       const struct boot_info *bi, erst_map_fn *map);

/* "3 records in the store, 1 of them pmuboot's (0x80706d7562000001)": GET_RECORD_COUNT and the firmware's walk over
 * its identifiers (GET_RECORD_IDENTIFIER, stopping where Linux's erst_get_record_id_next stops: "none", or an
 * identifier seen first or just before). False when the store failed. */
bool erst_records_describe(struct erst_records *s, struct strbuf *sb);

/* The record id of pmuboot's: true with its payload (len bytes). False with the reason in s->error: none stored, not
 * pmuboot's layout, or the store failed. */
bool erst_records_read(struct erst_records *s, u64 id, u8 *payload, u32 len);
/* Store (replacing any record with this id), then read back: true only when the read-back matches. */
bool erst_records_write(struct erst_records *s, u64 id, const u8 *payload, u32 len);
/* No record with this id remains (true also when there was none). */
bool erst_records_clear(struct erst_records *s, u64 id);
