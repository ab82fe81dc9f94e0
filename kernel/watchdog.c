/* The boot CPU's hardware watchdog (see watchdog.h). */
#include "kernel/watchdog.h"

#include "kernel/pci.h"
#include "kernel/x86.h"
#include "lib/format.h"

struct watchdog g_watchdog;

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

static volatile u32 *gcs_reg(void)
{
    return (volatile u32 *)(uintptr_t)g_watchdog.gcs;
}

static void none(const char *why, u32 id)
{
    g_watchdog.present = false;
    k_snprintf(g_watchdog.evidence, sizeof(g_watchdog.evidence),
               "none (%s; LPC bridge 00:1f.0 vendor:device %04x:%04x; no ACPI WDAT interpreter): a hang of the boot "
               "CPU inside a check stops the run",
               why, id & 0xffff, id >> 16);
}

void watchdog_init(u32 seconds)
{
    g_watchdog = (struct watchdog){0};
    u32 id = pci_cfg_read32(0, LPC_DEV, 0, 0);
    u32 class = pci_cfg_read32(0, LPC_DEV, 0, 8) >> 16;
    if (!seconds) {
        k_snprintf(g_watchdog.evidence, sizeof(g_watchdog.evidence), "off (watchdog_s=0)");
        return;
    }
    if ((id & 0xffff) != 0x8086 || class != 0x0601)
        return none("no Intel ISA bridge there", id);
    u32 pm = pci_cfg_read32(0, LPC_DEV, 0, PMBASE), acpi = pci_cfg_read32(0, LPC_DEV, 0, ACPI_CNTL);
    u32 rcba = pci_cfg_read32(0, LPC_DEV, 0, RCBA);
    if (!(pm & 1) || !(pm & 0xff80) || !(acpi & 0x80))
        return none("no ICH-style PMBASE with ACPI decoding enabled (a PCH of the 100 series or later keeps the TCO "
                    "elsewhere)", id);
    if (!(rcba & 1) || (rcba & ~0x3fffu) >= 0xffffc000u)
        return none("the chipset configuration registers (RCBA) are not enabled", id);
    g_watchdog.tco = (u16)((pm & 0xff80) + 0x60);
    g_watchdog.gcs = (rcba & ~0x3fffu) + GCS_OFF;
    /* A reset at the second expiry: each expiry half the time, in 0.6 s ticks, 2..1023 (TCO_TMR, 10 bits). */
    u32 ticks = (seconds * 1000 / 2 + TCO_TICK_MS - 1) / TCO_TICK_MS;
    g_watchdog.ticks = ticks < 2 ? 2 : ticks > 1023 ? 1023 : ticks;
    outw(g_watchdog.tco + TCO1_CNT, inw(g_watchdog.tco + TCO1_CNT) | TCO1_CNT_TMR_HLT);
    /* NO_REBOOT set (by a strap, or firmware) makes the second expiry do nothing: clear it, and believe it only if
     * it stays clear (ICH9 datasheet 10.1.75 GCS; a locked platform keeps it). */
    *gcs_reg() &= ~GCS_NO_REBOOT;
    if (*gcs_reg() & GCS_NO_REBOOT)
        return none("GCS.NO_REBOOT stays set: the TCO timer cannot reset this machine", id);
    g_watchdog.present = true;
    k_snprintf(g_watchdog.evidence, sizeof(g_watchdog.evidence),
               "Intel TCO (ICH9 family, LPC %04x:%04x) at I/O 0x%x: a machine reset %u.%u s after the boot CPU enters a "
               "check that does not return", id & 0xffff, id >> 16, g_watchdog.tco, g_watchdog.ticks * 2 * 6 / 10,
               g_watchdog.ticks * 2 * 6 % 10);
}

void watchdog_arm(void)
{
    if (!g_watchdog.present)
        return;
    u16 t = g_watchdog.tco;
    outw(t + TCO_TMR, (u16)g_watchdog.ticks);
    /* Status bits are write-1-to-clear (ICH9 13.9.4, 13.9.5): a first expiry left over would make the next one
     * the second. */
    outw(t + TCO1_STS, TCO1_STS_TIMEOUT);
    outw(t + TCO2_STS, TCO2_STS_SECOND_TO);
    outw(t + TCO_RLD, 1);
    outw(t + TCO1_CNT, inw(t + TCO1_CNT) & ~TCO1_CNT_TMR_HLT);
}

void watchdog_stop(void)
{
    if (!g_watchdog.present)
        return;
    outw(g_watchdog.tco + TCO1_CNT, inw(g_watchdog.tco + TCO1_CNT) | TCO1_CNT_TMR_HLT);
}
