/* pmuboot's small records (a few bytes each: where the boot CPU hung, where suite reset is) kept across a machine reset
 * in the ACPI ERST, the store firmware makes for an OS's records (ACPI 6.5 18.5; Linux's pstore keeps its records
 * there, drivers/acpi/apei/erst.c). The table's actions run through lib/erst.c, each record is a CPER record of
 * pmuboot's (lib/cper.h), and a record's identifier is CPER_PMUBOOT_ID(kind). docs/persist.md "ACPI ERST".
 *
 * As Linux: the firmware's registers and its Error Log Address Range are reached where the table says (mapped at init
 * when above 4 GiB), every wait is bounded (lib/erst.h ERST_FIRMWARE_TIMEOUT_US), and a store that fails once (a
 * command status other than success or "no such record", a firmware busy past its time, a record read back wrong) is
 * not used again in this boot: nothing more is written. Boot CPU only; erst_store_init before the APs start checks. */
#pragma once
#include "lib/types.h"

/* Whether the firmware lists a usable ERST; evidence (or the reason it is not used) in buf. */
bool erst_store_init(char *evidence, size_t n);
/* A record of pmuboot's with this id: true with its payload (len bytes) when one is stored. */
bool erst_store_read(u64 record_id, u8 *payload, u32 len);
/* Store (replacing any record with this id), then read back: true only when the read-back matches. An identical
 * record already stored is left as it is (the store is often flash: no write that changes nothing). */
bool erst_store_write(u64 record_id, const u8 *payload, u32 len);
/* No record with this id remains (true also when there was none). */
bool erst_store_clear(u64 record_id);
/* Whether the store failed in this boot (then nothing more is written, and a record may be left there). */
bool erst_store_failed(void);
/* The reason of the last false. */
const char *erst_store_last_error(void);
