/* The MC146818-compatible RTC's CMOS bytes (index port 0x70, data 0x71). Bit 7 of the index also masks NMI on
 * PC chipsets; it is left clear (NMI enabled), as Linux's CMOS_READ does. */
#pragma once
#include "lib/types.h"

u8 cmos_read(u8 reg);
void cmos_write(u8 reg, u8 value);
