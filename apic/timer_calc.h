/* APIC timer arithmetic, portable (kernel and host tests): the divide configuration register encoding and
 * overflow-free tick/time conversions. No hardware access here; apic/timer.c does that. */
#pragma once
#include "kernel/types.h"

/* SDM Vol.3A 11.5.4, Figure 11-10: DCR bits 0, 1 and 3 select the divisor: value = bit3:bit1:bit0,
 * divisor = 2 << value for value 0..6 (2..128), and 1 for value 7 (0b1011). Bit 2 is reserved (0). */
#define APIC_DCR_MASK 0xBu
u32 apic_dcr_divisor(u32 dcr);
/* The DCR value for a divisor (1, 2, 4, ..., 128); false for any other divisor. */
bool apic_dcr_for_divisor(u32 divisor, u32 *dcr);

/* floor(a * b / c) without 64-bit overflow of the product; *ok is false when c is 0 or the quotient does not
 * fit in 64 bits (the result is then UINT64_MAX). No 128-bit division: the kernel has no libgcc. */
u64 mul_div_u64(u64 a, u64 b, u64 c, bool *ok);

/* The median of n values (n >= 1). Sorts values in place, ascending. For odd n the middle one, for even n
 * the lower middle one, so the result is always one of the measured values. */
u64 median_u64(u64 *values, u32 n);
