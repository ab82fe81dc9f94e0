/* suite machine's reading of the CMOS: which bytes changed during the run without being in the ledger of changes
 * (kernel/ledger.h), i.e. that pmuboot changed without a note, or that something else changed. Portable. */
#pragma once
#include "lib/types.h"

#define CMOS_BANK_BYTES 128
/* 0x00..0x0D move by themselves: the RTC's clock and alarm, and status registers A-D (UIP, the flags that reading
 * register C clears; MC146818A datasheet). */
#define CMOS_STILL_FIRST 0x0E

/* The indexes (CMOS_STILL_FIRST..0x7F) where boot and now differ and in_ledger is false, at most max of them into
 * out; returns how many there are. */
u32 cmos_untracked_changes(const u8 boot[CMOS_BANK_BYTES], const u8 now[CMOS_BANK_BYTES],
                           const bool in_ledger[CMOS_BANK_BYTES], u8 *out, u32 max);
