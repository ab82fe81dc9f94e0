/* Where pmuboot keeps records across a machine reset: 16-byte runs of unused CMOS bytes in the extended area
 * 0x40..0x7F, which survive a reset on QEMU and on PC hardware. Boards keep settings there, so a record is written
 * only into bytes that read 0, and written back to 0 when its run ends. Two kinds share the area: suite reset's
 * plan (lib/reset_plan.h) and the record of where the boot CPU is for the watchdog (lib/hang_record.h); a slot
 * never overlaps the other kind's valid record. Portable: the kernel reads the bytes (kernel/cmos.c). */
#pragma once
#include "lib/types.h"

#define CMOS_RECORD_BYTES 16
#define RESET_CMOS_FIRST 0x40
#define RESET_CMOS_END 0x80
/* Never over QEMU's and SeaBIOS's bytes 0x5B..0x5F (memory above 4 GiB, CPU count). */
#define RESET_CMOS_KEEP_FIRST 0x5B
#define RESET_CMOS_KEEP_LAST 0x5F

/* Whether a record may start at CMOS index idx (inside the area, clear of the bytes kept for QEMU/SeaBIOS). */
bool cmos_slot_allowed(u32 idx);

/* Both kinds end in a checksum byte that makes the record's bytes sum to 0. */
void cmos_record_seal(u8 b[CMOS_RECORD_BYTES]);
bool cmos_record_sealed(const u8 b[CMOS_RECORD_BYTES]);

typedef bool (*cmos_record_valid)(const u8 b[CMOS_RECORD_BYTES]);
/* cmos holds bytes 0x40..0x7F (cmos[0] is byte 0x40). The CMOS index of a valid record of this kind (mine; then
 * *found_record), else of the first all-zero run that no valid record of the other kind overlaps; -1 when there is
 * none. */
int cmos_record_slot(const u8 cmos[RESET_CMOS_END - RESET_CMOS_FIRST], cmos_record_valid mine,
                     cmos_record_valid other, bool *found_record);
