#include "tests/machine/portable/cmos_diff.h"

u32 cmos_untracked_changes(const u8 boot[CMOS_BANK_BYTES], const u8 now[CMOS_BANK_BYTES],
                           const bool in_ledger[CMOS_BANK_BYTES], u8 *out, u32 max)
{
    u32 n = 0;
    for (u32 i = CMOS_STILL_FIRST; i < CMOS_BANK_BYTES; i++) {
        if (boot[i] == now[i] || in_ledger[i])
            continue;
        if (n < max)
            out[n] = (u8)i;
        n++;
    }
    return n;
}
