#include "kernel/cmos.h"

#include "kernel/ledger.h"
#include "kernel/x86.h"

u8 cmos_read(u8 reg)
{
    u64 f = irq_save();
    outb(0x70, reg & 0x7F);
    u8 v = inb(0x71);
    irq_restore(f);
    return v;
}

void cmos_write_raw(u8 reg, u8 value)
{
    u64 f = irq_save();
    outb(0x70, reg & 0x7F);
    outb(0x71, value);
    irq_restore(f);
}

bool cmos_write(u8 reg, u8 value)
{
    if (!ledger_note_cmos(reg, cmos_read(reg), NULL))
        return false;
    cmos_write_raw(reg, value);
    return true;
}
