/* Slots for pmuboot's CMOS records (see cmos_slot.h). */
#include "lib/cmos_slot.h"

#include <string.h>

#include "lib/format.h"

bool cmos_layout_is_qemu(bool hypervisor_bit, const char *fadt_oem_id)
{
    return hypervisor_bit && fadt_oem_id && !strncmp(fadt_oem_id, "BOCHS", 5);
}

void cmos_window_qemu(struct cmos_window *w)
{
    *w = (struct cmos_window){.first = 0x40, .last = 0x7f, .keep_first = 0x5b, .keep_last = 0x5f};
    k_snprintf(w->source, sizeof(w->source), "QEMU's CMOS, whose bytes are documented (hw/i386/pc.c)");
}

const char *cmos_window_user(struct cmos_window *w, u32 first, u32 last, u32 century_index)
{
    if (first > last)
        return "the first byte comes after the last";
    if (first < RESET_CMOS_FIRST || last >= RESET_CMOS_END)
        return "the bytes must lie in 0x40..0x7F: 0x00..0x0D are the RTC's clock and status registers, 0x0E..0x0F "
               "the diagnostic and shutdown status, 0x10..0x3F the AT configuration bytes, their checksum "
               "(0x2E..0x2F) and the century";
    if (last - first + 1 < CMOS_RECORD_BYTES)
        return "fewer than the 16 bytes of one record";
    if (century_index && century_index >= first && century_index <= last)
        return "the range holds the RTC's century byte, which the ACPI FADT names (CENTURY)";
    *w = (struct cmos_window){.first = (u8)first, .last = (u8)last, .keep_first = 1, .keep_last = 0};
    k_snprintf(w->source, sizeof(w->source), "named on the command line (cmos=0x%x-0x%x)", first, last);
    return NULL;
}

bool cmos_slot_allowed(const struct cmos_window *w, u32 idx)
{
    return idx >= w->first && idx + CMOS_RECORD_BYTES <= (u32)w->last + 1 &&
           (idx + CMOS_RECORD_BYTES <= w->keep_first || idx > w->keep_last);
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

int cmos_record_slot(const struct cmos_window *w, const u8 cmos[RESET_CMOS_END - RESET_CMOS_FIRST],
                     cmos_record_valid mine, cmos_record_valid other, bool *found_record)
{
    bool taken[RESET_CMOS_END - RESET_CMOS_FIRST] = {0};
    *found_record = false;
    for (u32 idx = RESET_CMOS_FIRST; idx < RESET_CMOS_END; idx++) {
        if (!cmos_slot_allowed(w, idx))
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
        if (!cmos_slot_allowed(w, idx))
            continue;
        u32 k = 0;
        while (k < CMOS_RECORD_BYTES && cmos[idx - RESET_CMOS_FIRST + k] == 0 && !taken[idx - RESET_CMOS_FIRST + k])
            k++;
        if (k == CMOS_RECORD_BYTES)
            return (int)idx;
    }
    return -1;
}
