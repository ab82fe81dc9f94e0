/* The MC146818-compatible RTC's CMOS bytes (index port 0x70, data 0x71). Bit 7 of the index also masks NMI on
 * PC chipsets; it is left clear (NMI enabled), as Linux's CMOS_READ does. Every write goes into the ledger first
 * (kernel/ledger.h), with the value the byte held, so that the run puts it back. */
#pragma once
#include "lib/types.h"

u8 cmos_read(u8 reg);
/* False, with nothing written, when the ledger cannot take the byte (it could not be put back). */
bool cmos_write(u8 reg, u8 value);
/* For the ledger's own restore: no note. */
void cmos_write_raw(u8 reg, u8 value);
