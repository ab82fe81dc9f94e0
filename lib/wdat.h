/* ACPI WDAT, the Watchdog Action Table (Microsoft, "Hardware Watchdog Timers Design Specification", listed by the
 * UEFI Forum at uefi.org/acpi): the firmware's description of the platform's watchdog as actions (reset the count,
 * set the period, start, stop, ...), each a list of instructions on registers given as Generic Address Structures.
 * Portable: the table is decoded through a phys_window, and actions run through register callbacks, so that the
 * kernel (kernel/watchdog.c) drives real registers and the host tests a register file. The instructions mean what
 * Linux's interpreter makes of them (drivers/watchdog/wdat_wdt.c, wdat_wdt_run_action), which is what firmware is
 * tested against. */
#pragma once
#include "lib/acpi.h"
#include "lib/spcr.h" /* struct acpi_gas */

/* Watchdog actions (the specification's Table 3). */
enum wdat_action {
    WDAT_RESET = 0x01, /* restart the countdown (required) */
    WDAT_QUERY_CURRENT_COUNTDOWN = 0x04,
    WDAT_QUERY_COUNTDOWN_PERIOD = 0x05,
    WDAT_SET_COUNTDOWN_PERIOD = 0x06,
    WDAT_QUERY_RUNNING_STATE = 0x08,
    WDAT_SET_RUNNING_STATE = 0x09, /* start (required) */
    WDAT_QUERY_STOPPED_STATE = 0x0a,
    WDAT_SET_STOPPED_STATE = 0x0b, /* stop (required) */
    WDAT_QUERY_REBOOT = 0x10,
    WDAT_SET_REBOOT = 0x11, /* an expiry resets the machine */
    WDAT_QUERY_SHUTDOWN = 0x12,
    WDAT_SET_SHUTDOWN = 0x13,
    WDAT_QUERY_WATCHDOG_STATUS = 0x20, /* true: the last reset was the watchdog's */
    WDAT_SET_WATCHDOG_STATUS = 0x21,
};

/* Watchdog instructions (Table 4), bit 7 a flag. */
#define WDAT_READ_VALUE 0x00
#define WDAT_READ_COUNTDOWN 0x01
#define WDAT_WRITE_VALUE 0x02
#define WDAT_WRITE_COUNTDOWN 0x03
#define WDAT_PRESERVE_REGISTER 0x80

#define WDAT_FLAG_ENABLED 0x01 /* Watchdog Flags bit 0: the hardware is enabled */
#define WDAT_HEADER_LEN 32     /* Watchdog Header Length: offsets 36..67 */
#define WDAT_ENTRIES_AT 68
#define WDAT_ENTRY_LEN 24
#define WDAT_MAX_ENTRIES 64

struct wdat_entry {
    u8 action, instruction;
    struct acpi_gas reg;
    u32 value, mask;
};

struct acpi_wdat {
    u64 phys;
    u16 pci_segment;
    u8 pci_bus, pci_dev, pci_fn; /* 0xff: not a PCI device */
    u32 period_ms;               /* Timer Period: milliseconds per count */
    u32 max_count, min_count;
    u8 flags;
    u32 count;
    struct wdat_entry e[WDAT_MAX_ENTRIES];
};

/* Parse and check the WDAT at phys: the header fields, every entry's register (system memory or I/O, byte, word or
 * dword access, the bits inside it), a known instruction, and the three required actions. False with the reasons
 * in pr when pmuboot cannot drive it. */
bool acpi_wdat_parse(const struct phys_window *mem, u64 phys, struct acpi_wdat *out, struct acpi_problems *pr);

enum acpi_lookup acpi_wdat_find(const struct phys_window *mem, const struct acpi_info *ai, struct acpi_wdat *out,
                               struct acpi_problems *pr);

/* Registers as the interpreter reaches them: width in bytes (1, 2, 4). */
struct wdat_io {
    void *ctx;
    u32 (*read)(void *ctx, const struct acpi_gas *reg, u32 width);
    void (*write)(void *ctx, const struct acpi_gas *reg, u32 width, u32 value);
};

/* Run every instruction of the action, in table order. param is the count for WRITE_COUNTDOWN; *result (may be NULL)
 * the last READ_VALUE's truth (1/0) or READ_COUNTDOWN's count. False when the table has no such action. */
bool wdat_run(const struct acpi_wdat *w, u8 action, u32 param, const struct wdat_io *io, u32 *result);
bool wdat_has(const struct acpi_wdat *w, u8 action);

/* The count for a reset `ms` after RESET: rounded up to whole periods, within [min_count, max_count]. */
u32 wdat_count_for(const struct acpi_wdat *w, u32 ms);

/* "period 600 ms, counts 4..1023, 10 instructions, flags 0x81" */
void acpi_wdat_format(const struct acpi_wdat *w, struct strbuf *sb);
