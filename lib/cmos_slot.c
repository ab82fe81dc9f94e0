/* Slots for pmuboot's CMOS records (see cmos_slot.h). */
#include "lib/cmos_slot.h"

bool cmos_slot_allowed(u32 idx)
{
    return idx >= RESET_CMOS_FIRST && idx + CMOS_RECORD_BYTES <= RESET_CMOS_END &&
           (idx + CMOS_RECORD_BYTES <= RESET_CMOS_KEEP_FIRST || idx > RESET_CMOS_KEEP_LAST);
}

void cmos_record_seal(u8 b[CMOS_RECORD_BYTES])
{
    u8 sum = 0;
    for (u32 i = 0; i < CMOS_RECORD_BYTES - 1; i++)
        sum = (u8)(sum + b[i]);
    b[CMOS_RECORD_BYTES - 1] = (u8)(0x100 - sum);
}

bool cmos_record_sealed(const u8 b[CMOS_RECORD_BYTES])
{
    u8 sum = 0;
    for (u32 i = 0; i < CMOS_RECORD_BYTES; i++)
        sum = (u8)(sum + b[i]);
    return sum == 0;
}

int cmos_record_slot(const u8 cmos[RESET_CMOS_END - RESET_CMOS_FIRST], cmos_record_valid mine,
                     cmos_record_valid other, bool *found_record)
{
    bool taken[RESET_CMOS_END - RESET_CMOS_FIRST] = {0};
    *found_record = false;
    for (u32 idx = RESET_CMOS_FIRST; idx < RESET_CMOS_END; idx++) {
        if (!cmos_slot_allowed(idx))
            continue;
        if (mine(&cmos[idx - RESET_CMOS_FIRST])) {
            *found_record = true;
            return (int)idx;
        }
        if (other(&cmos[idx - RESET_CMOS_FIRST]))
            for (u32 k = 0; k < CMOS_RECORD_BYTES; k++)
                taken[idx - RESET_CMOS_FIRST + k] = true;
    }
    for (u32 idx = RESET_CMOS_FIRST; idx < RESET_CMOS_END; idx++) {
        if (!cmos_slot_allowed(idx))
            continue;
        u32 k = 0;
        while (k < CMOS_RECORD_BYTES && cmos[idx - RESET_CMOS_FIRST + k] == 0 && !taken[idx - RESET_CMOS_FIRST + k])
            k++;
        if (k == CMOS_RECORD_BYTES)
            return (int)idx;
    }
    return -1;
}
