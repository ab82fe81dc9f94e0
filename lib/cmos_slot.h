/* Where pmuboot keeps records across a machine reset when the record store is CMOS (kernel/record_store.h): 16-byte
 * runs of a window of the extended CMOS area 0x40..0x7F that pmuboot may use. Boards keep settings there (coreboot's
 * src/mainboard/.../cmos.layout files: vboot data, memory-training seeds, option checksums), so there is a window only
 * where the layout is known: QEMU's, whose own bytes are documented (hw/i386/pc.c pc_cmos_init: 0x5B..0x5D memory
 * above 4 GiB, 0x5F the CPU count; SeaBIOS reads them), or the bytes the user names (cmos=FIRST-LAST). Inside it, a
 * record is written only into bytes that read 0, and written back to 0 when its run ends. Two kinds share the window:
 * suite reset's record (lib/reset_record.h) and the record of where the boot CPU is for the watchdog
 * (lib/hang_record.h); a slot never overlaps the other kind's valid record. Portable: the kernel reads the bytes (kernel/cmos.c). */
#pragma once
#include "lib/types.h"

#define CMOS_RECORD_BYTES 16
#define RESET_CMOS_FIRST 0x40
#define RESET_CMOS_END 0x80

struct cmos_window {
    u8 first, last;           /* records may use first..last (inclusive), inside 0x40..0x7F */
    u8 keep_first, keep_last; /* ... except these (keep_first > keep_last: none) */
    char source[80];          /* why these bytes are pmuboot's to use */
};

/* Whether this is QEMU, whose CMOS layout is documented: a hypervisor (CPUID.1:ECX[31]) and ACPI tables built by QEMU,
 * whose headers carry OEM ID "BOCHS " (hw/acpi/aml-build.c ACPI_BUILD_APPNAME6) whichever firmware installs them
 * (SeaBIOS, OVMF). Both are read-only facts; nothing is probed. */
bool cmos_layout_is_qemu(bool hypervisor_bit, const char *fadt_oem_id);
/* QEMU's CMOS: 0x40..0x7F but for QEMU's and SeaBIOS's 0x5B..0x5F. */
void cmos_window_qemu(struct cmos_window *w);
/* cmos=FIRST-LAST as the user gives it: NULL with w set, or why these bytes cannot be used (outside 0x40..0x7F, fewer
 * than one record, or over the century byte the ACPI FADT names: century_index, 0 when none). */
const char *cmos_window_user(struct cmos_window *w, u32 first, u32 last, u32 century_index);

/* Whether a record may start at CMOS index idx (its 16 bytes inside the window, clear of the kept bytes). */
bool cmos_slot_allowed(const struct cmos_window *w, u32 idx);

/* Both kinds end in a checksum byte that makes the record's bytes sum to 0. */
void cmos_record_seal(u8 b[CMOS_RECORD_BYTES]);
bool cmos_record_sealed(const u8 b[CMOS_RECORD_BYTES]);

typedef bool (*cmos_record_valid)(const u8 b[CMOS_RECORD_BYTES]);
/* cmos holds bytes 0x40..0x7F (cmos[0] is byte 0x40). The CMOS index of a valid record of this kind inside the window
 * (mine; then *found_record), else of the first all-zero run there that no valid record of the other kind overlaps;
 * -1 when there is none. */
int cmos_record_slot(const struct cmos_window *w, const u8 cmos[RESET_CMOS_END - RESET_CMOS_FIRST],
                     cmos_record_valid mine, cmos_record_valid other, bool *found_record);
