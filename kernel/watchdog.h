/* A hardware watchdog armed around each check of the boot CPU, so that a hang there (which no other CPU supervises)
 * ends in a machine reset instead of silence; the next boot reads where it hung (lib/hang_record.h,
 * harness/hang_guard.c). Two kinds, in this order:
 *  - the ACPI WDAT table, the firmware's own description of its watchdog (lib/wdat.h), run as Linux runs it;
 *  - the Intel TCO timer of ICH9-family south bridges (the LPC bridges of lib/tco_lpc_ids.h) (ICH9 datasheet 13.9 "TCO Registers": TCO_RLD,
 *    TCO1_CNT.TCO_TMR_HLT, TCO_TMR in 0.6 s ticks, a reset at the second expiry unless GCS.NO_REBOOT), which QEMU's
 *    q35 emulates (hw/acpi/tco.c).
 * Neither: the header says so, and a hang of the boot CPU inside a check ends the run. */
#pragma once
#include "lib/types.h"

enum watchdog_kind { WATCHDOG_NONE, WATCHDOG_WDAT, WATCHDOG_TCO };

struct watchdog {
    enum watchdog_kind kind;
    bool present;        /* kind != WATCHDOG_NONE */
    char evidence[320];  /* what was found, or why there is none (the header line) */
    char problems[320];  /* a WDAT that was listed but not used, and why ("" when none) */
    bool reset_was_ours; /* WDAT QUERY_WATCHDOG_STATUS said this boot follows a watchdog reset (then cleared) */
    bool status_known;   /* the watchdog can say that */
    u32 reset_ms;        /* from an arm to the reset, at most */
    u32 least_ms;        /* ... and at least (a count's first tick comes anywhere within its period): what the hang
                          * report calls "no return within N s", and what watchdog_s= asks for */
    bool no_reboot_was;  /* TCO: GCS.NO_REBOOT as found, put back whenever the timer stops (as Linux's iTCO_wdt) */
    bool running;        /* armed since the last stop */
    bool smi_routed;     /* TCO: SMI_EN.TCO_EN set: the first expiry is the firmware's SMI; a reset is not promised */
    char chipset[40];    /* TCO: the chipset's name (lib/tco_lpc_ids.h) */
    u16 tco;             /* TCO: register block (I/O) */
    u32 gcs;             /* TCO: the chipset's GCS register (MMIO), NO_REBOOT in bit 5 */
    u32 count;           /* TCO_TMR ticks (the reset after twice this), or the WDAT countdown */
};
extern struct watchdog g_watchdog;

/* Find the watchdog and set its period so that the reset comes `seconds` after the last arm (0: leave it off).
 * on_request (watchdog_s=N rather than auto): a firmware setting that keeps an expiry from resetting (GCS.NO_REBOOT,
 * a WDAT that needs SET_REBOOT) may be changed for the run; by default the watchdog is then not used. Every register
 * it changes is in the ledger (kernel/ledger.h). */
void watchdog_init(u32 seconds, bool on_request);
bool watchdog_arm(void);  /* reload and run: call before each guarded stretch; false when it did not start */
void watchdog_stop(void); /* halt the timer */
/* "ACPI WDAT", "Intel TCO" or "none". */
const char *watchdog_kind_name(void);
