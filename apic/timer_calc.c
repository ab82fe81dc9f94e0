#include "apic/timer_calc.h"

u32 apic_dcr_divisor(u32 dcr)
{
    u32 value = ((dcr >> 1) & 4) | (dcr & 3); /* SDM Vol.3A Figure 11-10: bits 3, 1, 0 */
    return value == 7 ? 1 : 2u << value;
}

bool apic_dcr_for_divisor(u32 divisor, u32 *dcr)
{
    for (u32 value = 0; value < 8; value++) {
        u32 d = ((value & 4) << 1) | (value & 3);
        if (apic_dcr_divisor(d) == divisor) {
            *dcr = d;
            return true;
        }
    }
    return false;
}

/* Shift-and-subtract long division of the 128-bit product (hi:lo) by c. */
u64 mul_div_u64(u64 a, u64 b, u64 c, bool *ok)
{
    bool dummy;
    if (!ok)
        ok = &dummy;
    *ok = false;
    if (c == 0)
        return UINT64_MAX;
    /* 64x64 -> 128 multiply from 32-bit halves. */
    u64 a_lo = (u32)a, a_hi = a >> 32, b_lo = (u32)b, b_hi = b >> 32;
    u64 p0 = a_lo * b_lo, p1 = a_lo * b_hi, p2 = a_hi * b_lo, p3 = a_hi * b_hi;
    u64 mid = (p0 >> 32) + (u32)p1 + (u32)p2;
    u64 lo = (mid << 32) | (u32)p0;
    u64 hi = p3 + (p1 >> 32) + (p2 >> 32) + (mid >> 32);
    if (hi >= c) /* the quotient would need more than 64 bits */
        return UINT64_MAX;
    u64 rem = hi, q = 0;
    for (int i = 63; i >= 0; i--) {
        bool carry = rem >> 63;
        rem = (rem << 1) | ((lo >> i) & 1);
        q <<= 1;
        if (carry || rem >= c) {
            rem -= c;
            q |= 1;
        }
    }
    *ok = true;
    return q;
}

u64 median_u64(u64 *values, u32 n)
{
    for (u32 i = 1; i < n; i++) { /* insertion sort: n is a handful of samples */
        u64 v = values[i];
        u32 j = i;
        for (; j > 0 && values[j - 1] > v; j--)
            values[j] = values[j - 1];
        values[j] = v;
    }
    return values[(n - 1) / 2];
}
