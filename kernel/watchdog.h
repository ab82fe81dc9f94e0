/* A hardware watchdog armed around each check of the boot CPU, so that a hang there (which no other CPU supervises)
 * ends in a machine reset instead of silence; the next boot reads where it hung (lib/hang_record.h,
 * harness/hang_guard.c). One kind today: the Intel TCO timer of ICH9-family south bridges (ICH9 datasheet 13.9 "TCO
 * Registers": TCO_RLD, TCO1_CNT.TCO_TMR_HLT, TCO_TMR in 0.6 s ticks, a reset at the second expiry unless
 * GCS.NO_REBOOT), which QEMU's q35 emulates (hw/acpi/tco.c). The ACPI WDAT table, where firmware describes its
 * watchdog, is not interpreted yet: such a machine says so in the header. */
#pragma once
#include "lib/types.h"

struct watchdog {
    bool present;
    char evidence[200]; /* what was found, or why there is none (the header line) */
    u16 tco;            /* TCO register block (I/O) */
    u32 gcs;            /* the chipset's GCS register (MMIO), NO_REBOOT in bit 5 */
    u32 ticks;          /* TCO_TMR: the reset comes after twice this many 0.6 s ticks */
};
extern struct watchdog g_watchdog;

/* Find the watchdog and set its period so that the reset comes `seconds` after the last arm (0: leave it off). */
void watchdog_init(u32 seconds);
void watchdog_arm(void);  /* reload and run: call before each guarded stretch */
void watchdog_stop(void); /* halt the timer */
