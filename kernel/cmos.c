#include "kernel/cmos.h"

#include "kernel/ledger.h"
#include "kernel/percpu.h"
#include "kernel/x86.h"

/* The index port and the data port are one register pair for the whole machine: two CPUs interleaving them would
 * write a byte to another index (Linux serialises them with rtc_lock). A CPU that bails out restores CMOS bytes while
 * the others may still run, so every access takes this lock; re-entered on the same CPU (an NMI inside an access)
 * it is not taken again, and a holder that never lets go (a CPU stopped inside an access) is waited for a bounded
 * time only, so that a bail-out still ends. */
#define NO_OWNER 0xffffffffu
static volatile u32 owner = NO_OWNER;

static bool lock(void)
{
    u32 me = this_cpu()->index;
    if (__atomic_load_n(&owner, __ATOMIC_ACQUIRE) == me)
        return false;
    for (u32 i = 0; i < (1u << 24); i++) {
        if (__sync_bool_compare_and_swap(&owner, NO_OWNER, me))
            return true;
        cpu_relax();
    }
    return false; /* a holder that never lets go: go on without the lock */
}

static void unlock(bool taken)
{
    if (taken)
        __atomic_store_n(&owner, NO_OWNER, __ATOMIC_RELEASE);
}

u8 cmos_read(u8 reg)
{
    u64 f = irq_save();
    bool taken = lock();
    outb(0x70, reg & 0x7F);
    u8 v = inb(0x71);
    unlock(taken);
    irq_restore(f);
    return v;
}

void cmos_write_raw(u8 reg, u8 value)
{
    u64 f = irq_save();
    bool taken = lock();
    outb(0x70, reg & 0x7F);
    outb(0x71, value);
    unlock(taken);
    irq_restore(f);
}

bool cmos_write(u8 reg, u8 value)
{
    if (!ledger_note_cmos(reg, cmos_read(reg), NULL))
        return false;
    cmos_write_raw(reg, value);
    return true;
}
