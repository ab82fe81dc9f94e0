/* The boot CPU's hardware watchdog (see watchdog.h). */
#include "kernel/watchdog.h"

#include "kernel/enumerate.h"
#include "kernel/ledger.h"
#include "kernel/paging.h"
#include "kernel/pci.h"
#include "kernel/x86.h"
#include "lib/format.h"
#include "lib/tco_lpc_ids.h"
#include "lib/wdat.h"

struct watchdog g_watchdog;
static struct acpi_wdat wdat;

/* ---- ACPI WDAT ---- */

static u32 wdat_read(void *ctx, const struct acpi_gas *g, u32 width)
{
    (void)ctx;
    if (g->space_id == 1)
        return width == 1 ? inb((u16)g->address) : width == 2 ? inw((u16)g->address) : inl((u16)g->address);
    uintptr_t a = (uintptr_t)g->address; /* below 4 GiB, identity-mapped (lib/wdat.c refuses the rest) */
    return width == 1 ? *(volatile u8 *)a : width == 2 ? *(volatile u16 *)a : *(volatile u32 *)a;
}

static void wdat_write(void *ctx, const struct acpi_gas *g, u32 width, u32 v)
{
    (void)ctx;
    if (g->space_id == 1) {
        if (width == 1)
            outb((u16)g->address, (u8)v);
        else if (width == 2)
            outw((u16)g->address, (u16)v);
        else
            outl((u16)g->address, v);
        return;
    }
    uintptr_t a = (uintptr_t)g->address;
    if (width == 1)
        *(volatile u8 *)a = (u8)v;
    else if (width == 2)
        *(volatile u16 *)a = (u16)v;
    else
        *(volatile u32 *)a = v;
}

static const struct wdat_io wdat_regs = {NULL, wdat_read, wdat_write};

/* The ledger's view of the WDAT: the countdown (QUERY/SET_COUNTDOWN_PERIOD) and whether it runs (QUERY_RUNNING_STATE,
 * SET_RUNNING_STATE or SET_STOPPED_STATE). */
static u64 wdat_get(u64 action)
{
    u32 v = 0;
    wdat_run(&wdat, (u8)action, 0, &wdat_regs, &v);
    return v;
}

static void wdat_put(u64 action, u64 v)
{
    if (action == WDAT_QUERY_RUNNING_STATE)
        wdat_run(&wdat, v ? WDAT_SET_RUNNING_STATE : WDAT_SET_STOPPED_STATE, 0, &wdat_regs, NULL);
    else
        wdat_run(&wdat, WDAT_SET_COUNTDOWN_PERIOD, (u32)v, &wdat_regs, NULL);
}

/* The WDAT, when the firmware lists a usable one: true with the watchdog set up (or refused, with why). */
static bool wdat_init(u32 seconds, bool on_request)
{
    struct acpi_problems pr = {0};
    enum acpi_lookup st = acpi_wdat_find(&phys_all, &g_acpi, &wdat, &pr);
    if (st == ACPI_LOOKUP_BAD) {
        struct strbuf sb;
        sb_init(&sb, g_watchdog.problems, sizeof(g_watchdog.problems));
        sb_printf(&sb, "an ACPI WDAT is listed but not used:");
        for (u32 i = 0; i < pr.count && i < ACPI_PROBLEMS_MAX; i++)
            sb_printf(&sb, " %s%s", pr.msg[i], i + 1 < pr.count ? ";" : "");
    }
    if (st != ACPI_LOOKUP_FOUND)
        return false;
    /* What pmuboot changes it must put back (kernel/ledger.h): a table that cannot say whether its watchdog runs, or
     * its countdown, would have both changed for good. By default such a table is left untouched. */
    if (!on_request && (!wdat_has(&wdat, WDAT_QUERY_RUNNING_STATE) || !wdat_has(&wdat, WDAT_QUERY_COUNTDOWN_PERIOD))) {
        k_snprintf(g_watchdog.problems, sizeof(g_watchdog.problems),
                   "the ACPI WDAT watchdog is not armed by default: the table has no %s, so the firmware's %s could "
                   "not be put back at the end (watchdog_s=N uses it anyway)",
                   !wdat_has(&wdat, WDAT_QUERY_RUNNING_STATE) ? "QUERY_RUNNING_STATE" : "QUERY_COUNTDOWN_PERIOD",
                   !wdat_has(&wdat, WDAT_QUERY_RUNNING_STATE) ? "running state" : "countdown");
        return false;
    }
    u32 v = 0;
    /* As Linux's wdat_wdt probe: does an expiry reset the machine? SET_REBOOT makes it so, and no action undoes it:
     * run only on request (watchdog_s=N), never by default. */
    bool reboots = wdat_run(&wdat, WDAT_QUERY_REBOOT, 0, &wdat_regs, &v) && v;
    const char *reboot = reboots ? "QUERY_REBOOT: an expiry resets" : "no QUERY_REBOOT: an expiry does what the firmware set";
    if (!reboots && wdat_has(&wdat, WDAT_SET_REBOOT)) {
        if (!on_request) {
            k_snprintf(g_watchdog.problems, sizeof(g_watchdog.problems),
                       "the ACPI WDAT watchdog is not armed by default: an expiry would reset only after SET_REBOOT, a "
                       "firmware setting no WDAT action puts back (watchdog_s=N runs it)");
            return false;
        }
        wdat_run(&wdat, WDAT_SET_REBOOT, 0, &wdat_regs, NULL);
        reboot = "SET_REBOOT run on request (not undone: no action for it)";
        if (wdat_run(&wdat, WDAT_QUERY_REBOOT, 0, &wdat_regs, &v) && !v) {
            k_snprintf(g_watchdog.problems, sizeof(g_watchdog.problems),
                       "the ACPI WDAT watchdog is not used: after SET_REBOOT, QUERY_REBOOT says an expiry would not "
                       "reset the machine");
            return false;
        }
    }
    /* The ledger first, with what the firmware left: running or not, and its countdown. */
    if (wdat_has(&wdat, WDAT_QUERY_RUNNING_STATE))
        ledger_note("ACPI WDAT running state", wdat_get, wdat_put, WDAT_QUERY_RUNNING_STATE,
                    wdat_get(WDAT_QUERY_RUNNING_STATE), 8);
    if (wdat_has(&wdat, WDAT_QUERY_COUNTDOWN_PERIOD))
        ledger_note("ACPI WDAT countdown period", wdat_get, wdat_put, WDAT_QUERY_COUNTDOWN_PERIOD,
                    wdat_get(WDAT_QUERY_COUNTDOWN_PERIOD), 32);
    wdat_run(&wdat, WDAT_SET_STOPPED_STATE, 0, &wdat_regs, NULL);
    /* As Linux's wdat_wdt probe: was the last reset the watchdog's? Then clear the status for the next boot. */
    if (wdat_run(&wdat, WDAT_QUERY_WATCHDOG_STATUS, 0, &wdat_regs, &v)) {
        g_watchdog.status_known = true;
        g_watchdog.reset_was_ours = v;
        wdat_run(&wdat, WDAT_SET_WATCHDOG_STATUS, 0, &wdat_regs, NULL);
    }
    /* One count more than the time asks for: the first may end at once (watchdog.h least_ms). SET_COUNTDOWN_PERIOD
     * is there: lib/wdat.c refuses a table without it, as Linux does. Set once: each arm only restarts the count (as
     * Linux sets its timeout apart from its pings). */
    g_watchdog.count = wdat_count_for(&wdat, seconds * 1000 + wdat.period_ms);
    wdat_run(&wdat, WDAT_SET_COUNTDOWN_PERIOD, g_watchdog.count, &wdat_regs, NULL);
    u64 ms = (u64)g_watchdog.count * wdat.period_ms, least = ms >= wdat.period_ms ? ms - wdat.period_ms : 0;
    g_watchdog.reset_ms = ms > 0xffffffffu ? 0xffffffffu : (u32)ms;
    g_watchdog.least_ms = least > 0xffffffffu ? 0xffffffffu : (u32)least;
    char desc[120];
    struct strbuf sb;
    sb_init(&sb, desc, sizeof(desc));
    acpi_wdat_format(&wdat, &sb);
    k_snprintf(g_watchdog.evidence, sizeof(g_watchdog.evidence),
               "ACPI WDAT at 0x%llx (%s; %s): a machine reset %u.%u..%u.%u s after the boot CPU enters a check that "
               "does not return",
               (unsigned long long)wdat.phys, desc, reboot, g_watchdog.least_ms / 1000, g_watchdog.least_ms % 1000 / 100,
               g_watchdog.reset_ms / 1000, g_watchdog.reset_ms % 1000 / 100);
    g_watchdog.kind = WATCHDOG_WDAT;
    return true;
}

/* ---- Intel TCO (ICH9 family) ---- */

/* ICH9 datasheet: LPC bridge D31:F0 config PMBASE 40H (I/O, bit 0 set, base in 15:7), ACPI_CNTL 44H (bit 7 ACPI
 * enable), RCBA F0H (bit 0 enable, base in 31:14); the TCO block at PMBASE + 60H; GCS at RCBA + 3410H. */
#define LPC_DEV 31
#define PMBASE 0x40
#define ACPI_CNTL 0x44
#define RCBA 0xf0
#define GCS_OFF 0x3410
#define GCS_NO_REBOOT (1u << 5)
enum { TCO_RLD = 0x00, TCO1_STS = 0x04, TCO2_STS = 0x06, TCO1_CNT = 0x08, TCO_TMR = 0x12 };
#define TCO1_STS_TIMEOUT (1u << 3)
#define TCO2_STS_SECOND_TO (1u << 1)
#define TCO1_CNT_TMR_HLT (1u << 11)
#define TCO_TICK_MS 600

#define SMI_EN 0x30 /* PMBASE + 30H (ICH9 datasheet 13.8.3.12) */
#define SMI_EN_TCO_EN (1u << 13)

static volatile u32 *gcs_reg(void)
{
    return (volatile u32 *)(uintptr_t)g_watchdog.gcs;
}

/* The ledger's view of the TCO: TCO1_CNT.TMR_HLT, TCO_TMR's 10 bits, GCS.NO_REBOOT. */
static u64 tco_get(u64 which)
{
    switch (which) {
    case TCO1_CNT:
        return inw(g_watchdog.tco + TCO1_CNT) & TCO1_CNT_TMR_HLT;
    case TCO_TMR:
        return inw(g_watchdog.tco + TCO_TMR) & 0x3ff;
    default:
        return *gcs_reg() & GCS_NO_REBOOT;
    }
}

static void tco_put(u64 which, u64 v)
{
    switch (which) {
    case TCO1_CNT:
        outw(g_watchdog.tco + TCO1_CNT, (u16)((inw(g_watchdog.tco + TCO1_CNT) & ~TCO1_CNT_TMR_HLT) | v));
        break;
    case TCO_TMR:
        outw(g_watchdog.tco + TCO_TMR, (u16)((inw(g_watchdog.tco + TCO_TMR) & ~0x3ffu) | v));
        break;
    default:
        *gcs_reg() = (*gcs_reg() & ~GCS_NO_REBOOT) | (u32)v;
    }
}

/* Why there is no TCO, or NULL with the TCO set up. */
static const char *tco_init(u32 seconds, u32 id, bool on_request)
{
    u32 class = pci_cfg_read32(0, LPC_DEV, 0, 8) >> 16;
    if ((id & 0xffff) != 0x8086 || class != 0x0601)
        return "no Intel ISA bridge there";
    const char *chipset = tco_lpc_name((u16)(id >> 16));
    if (!chipset)
        return "an Intel LPC bridge without a version-2 TCO (Linux lpc_ich: ICH6..ICH10, 5- to 9-series PCH)";
    k_snprintf(g_watchdog.chipset, sizeof(g_watchdog.chipset), "%s", chipset);
    u32 pm = pci_cfg_read32(0, LPC_DEV, 0, PMBASE), acpi = pci_cfg_read32(0, LPC_DEV, 0, ACPI_CNTL);
    u32 rcba = pci_cfg_read32(0, LPC_DEV, 0, RCBA);
    if (!(pm & 1) || !(pm & 0xff80) || !(acpi & 0x80))
        return "no ICH-style PMBASE with ACPI decoding enabled (a PCH of the 100 series or later keeps the TCO "
               "elsewhere)";
    if (!(rcba & 1) || (rcba & ~0x3fffu) >= 0xffffc000u)
        return "the chipset configuration registers (RCBA) are not enabled";
    u16 pmbase = (u16)(pm & 0xff80);
    g_watchdog.tco = (u16)(pmbase + 0x60);
    g_watchdog.gcs = (rcba & ~0x3fffu) + GCS_OFF;
    /* NO_REBOOT set (by a strap, or firmware) makes the second expiry do nothing. Linux's iTCO_wdt clears it only when
     * someone opens the watchdog; pmuboot only when asked (watchdog_s=N): cleared while the timer runs, put back as
     * found when it stops, and believed only if it stays clear (ICH9 datasheet 10.1.75 GCS; a locked platform keeps
     * it). By default a set NO_REBOOT is left alone and the TCO is not armed. */
    g_watchdog.no_reboot_was = *gcs_reg() & GCS_NO_REBOOT;
    if (g_watchdog.no_reboot_was && !on_request)
        return "GCS.NO_REBOOT is set, so an expiry would not reset; it is left as found by default (watchdog_s=N "
               "clears it for the run and puts it back)";
    if (g_watchdog.no_reboot_was) {
        ledger_note("Intel TCO GCS.NO_REBOOT", tco_get, tco_put, GCS_OFF, GCS_NO_REBOOT, 32);
        *gcs_reg() &= ~GCS_NO_REBOOT;
        bool stuck = *gcs_reg() & GCS_NO_REBOOT;
        *gcs_reg() |= GCS_NO_REBOOT;
        if (stuck)
            return "GCS.NO_REBOOT stays set: the TCO timer cannot reset this machine";
    }
    /* SMI_EN.TCO_EN: the first expiry raises an SMI, and firmware that handles it may reload the timer, so that the
     * second expiry, the reset, never comes (ICH9 datasheet 13.8.3.12; Linux's iTCO_wdt leaves it as found on version
     * 2 TCOs). Left as found; the header then promises no reset. */
    g_watchdog.smi_routed = inl(pmbase + SMI_EN) & SMI_EN_TCO_EN;
    /* TCO2_STS.SECOND_TO_STS: the second expiry happened, i.e. the TCO reset the machine; kept across that reset
     * (resume well, cleared by RSMRST#: ICH9 datasheet 13.9.5). Read, then cleared for the next boot, as Linux's
     * iTCO_wdt does at probe. */
    g_watchdog.status_known = true;
    g_watchdog.reset_was_ours = inw(g_watchdog.tco + TCO2_STS) & TCO2_STS_SECOND_TO;
    outw(g_watchdog.tco + TCO2_STS, TCO2_STS_SECOND_TO);
    /* A reset at the second expiry, in 0.6 s ticks, 2..1023 each (TCO_TMR, 10 bits). The first tick of each expiry
     * comes anywhere within its 0.6 s, so the two take between (2 * ticks - 2) and 2 * ticks ticks: one tick more
     * than the time asks for makes it the least. */
    u32 ticks = (seconds * 1000 / 2 + TCO_TICK_MS - 1) / TCO_TICK_MS + 1;
    g_watchdog.count = ticks < 2 ? 2 : ticks > 1023 ? 1023 : ticks;
    g_watchdog.reset_ms = g_watchdog.count * 2 * TCO_TICK_MS;
    g_watchdog.least_ms = (g_watchdog.count * 2 - 2) * TCO_TICK_MS;
    ledger_note("Intel TCO TCO1_CNT.TMR_HLT", tco_get, tco_put, TCO1_CNT, tco_get(TCO1_CNT), 16);
    ledger_note("Intel TCO TCO_TMR", tco_get, tco_put, TCO_TMR, tco_get(TCO_TMR), 16);
    outw(g_watchdog.tco + TCO1_CNT, inw(g_watchdog.tco + TCO1_CNT) | TCO1_CNT_TMR_HLT);
    outw(g_watchdog.tco + TCO_TMR, (u16)g_watchdog.count); /* once: each arm reloads from it */
    /* Does the timer start? Linux's iTCO_wdt_start reads TMR_HLT back after clearing it ("failed to reset NO_REBOOT
     * flag" / "can't start"): firmware may lock it. Reloaded first, so the instant it runs is harmless. */
    outw(g_watchdog.tco + TCO_RLD, 1);
    outw(g_watchdog.tco + TCO1_CNT, inw(g_watchdog.tco + TCO1_CNT) & ~TCO1_CNT_TMR_HLT);
    bool halted = inw(g_watchdog.tco + TCO1_CNT) & TCO1_CNT_TMR_HLT;
    outw(g_watchdog.tco + TCO1_CNT, inw(g_watchdog.tco + TCO1_CNT) | TCO1_CNT_TMR_HLT);
    if (halted)
        return "TCO1_CNT.TMR_HLT stays set when cleared: the firmware keeps the TCO timer halted";
    g_watchdog.kind = WATCHDOG_TCO;
    return NULL;
}

void watchdog_init(u32 seconds, bool on_request)
{
    g_watchdog = (struct watchdog){0};
    if (!seconds) {
        k_snprintf(g_watchdog.evidence, sizeof(g_watchdog.evidence), "off (watchdog_s=0)");
        return;
    }
    if (wdat_init(seconds, on_request)) {
        g_watchdog.present = true;
        return;
    }
    u32 id = pci_cfg_read32(0, LPC_DEV, 0, 0);
    const char *why = tco_init(seconds, id, on_request);
    if (why) {
        k_snprintf(g_watchdog.evidence, sizeof(g_watchdog.evidence),
                   "none (no usable ACPI WDAT; no Intel TCO: %s, LPC bridge 00:1f.0 vendor:device %04x:%04x): a hang "
                   "of the boot CPU inside a check stops the run",
                   why, id & 0xffff, id >> 16);
        return;
    }
    g_watchdog.present = true;
    k_snprintf(g_watchdog.evidence, sizeof(g_watchdog.evidence),
               "Intel TCO (%s, LPC %04x:%04x) at I/O 0x%x (no usable ACPI WDAT): %s %u.%u..%u.%u s after the boot CPU "
               "enters a check that does not return%s",
               g_watchdog.chipset, id & 0xffff, id >> 16, g_watchdog.tco,
               g_watchdog.smi_routed ? "an SMI, and a machine reset unless the firmware's handler reloads the timer,"
                                     : "a machine reset",
               g_watchdog.least_ms / 1000, g_watchdog.least_ms % 1000 / 100, g_watchdog.reset_ms / 1000,
               g_watchdog.reset_ms % 1000 / 100,
               g_watchdog.smi_routed ? " (SMI_EN.TCO_EN is set: the first expiry goes to the firmware's SMI handler; "
                                       "no reset is promised)"
                                     : "");
}

bool watchdog_arm(void)
{
    g_watchdog.running = g_watchdog.kind != WATCHDOG_NONE;
    if (g_watchdog.kind == WATCHDOG_WDAT) {
        wdat_run(&wdat, WDAT_RESET, 0, &wdat_regs, NULL);
        wdat_run(&wdat, WDAT_SET_RUNNING_STATE, 0, &wdat_regs, NULL);
        u32 v = 1;
        return !wdat_has(&wdat, WDAT_QUERY_RUNNING_STATE) ||
               (wdat_run(&wdat, WDAT_QUERY_RUNNING_STATE, 0, &wdat_regs, &v) && v);
    }
    if (g_watchdog.kind != WATCHDOG_TCO)
        return false;
    u16 t = g_watchdog.tco;
    /* Status bits are write-1-to-clear (ICH9 13.9.4, 13.9.5): a first expiry left over would make the next one
     * the second. */
    outw(t + TCO1_STS, TCO1_STS_TIMEOUT);
    outw(t + TCO2_STS, TCO2_STS_SECOND_TO);
    outw(t + TCO_RLD, 1);
    if (g_watchdog.no_reboot_was)
        *gcs_reg() &= ~GCS_NO_REBOOT;
    outw(t + TCO1_CNT, inw(t + TCO1_CNT) & ~TCO1_CNT_TMR_HLT);
    return !(inw(t + TCO1_CNT) & TCO1_CNT_TMR_HLT); /* read back, as Linux's iTCO_wdt_start */
}

void watchdog_stop(void)
{
    if (!g_watchdog.running)
        return; /* nothing to stop: and a stop now would undo what the ledger put back */
    g_watchdog.running = false;
    if (g_watchdog.kind == WATCHDOG_WDAT)
        wdat_run(&wdat, WDAT_SET_STOPPED_STATE, 0, &wdat_regs, NULL);
    else if (g_watchdog.kind == WATCHDOG_TCO) {
        outw(g_watchdog.tco + TCO1_CNT, inw(g_watchdog.tco + TCO1_CNT) | TCO1_CNT_TMR_HLT);
        if (g_watchdog.no_reboot_was)
            *gcs_reg() |= GCS_NO_REBOOT;
    }
}

const char *watchdog_kind_name(void)
{
    return g_watchdog.kind == WATCHDOG_WDAT ? "ACPI WDAT" : g_watchdog.kind == WATCHDOG_TCO ? "Intel TCO" : "none";
}
