/* Which UART carries the checklist, and why: console= (explicit ttyS or earlycon-style UART) wins; otherwise
 * (console=auto, the default) the ACPI SPCR table's port when pmuboot can drive it, else COM1. Portable. */
#pragma once
#include "lib/bootinfo.h"
#include "lib/cmdline.h"
#include "lib/spcr.h"
#include "lib/uart.h"

struct console_choice {
    struct uart_desc uart;
    bool from_spcr;
    char why[400]; /* for the header line: "ACPI SPCR rev 2, interface 0x0", "console=ttyS1,9600", ... */
};

/* state and spcr as acpi_spcr_find returned them. */
void console_choose(const struct options *o, enum acpi_lookup state, const struct acpi_spcr *spcr,
                    struct console_choice *c);

/* NULL when pmuboot may touch the registers of u; else why not (written into why, why_size bytes). Refused:
 * - MMIO that the memory map calls RAM: usable, ACPI reclaimable, ACPI NVS, bad (defective RAM), persistent memory
 *   or soft-reserved RAM (Multiboot 3.3 / E820 types, ACPI 6.5 Table 15.6); without a map, the loader's mem_lower/mem_upper RAM. A UART's
 *   registers lie in a range the map calls reserved, or in none (a hole); RAM passes the scratch-register test and
 *   would swallow the whole checklist in silence.
 * - MMIO below 640 KiB (conventional memory: the real-mode IVT, the BIOS data area, the loader's data; RAM on every
 *   PC whatever the map says) and MMIO inside pmuboot's own image [image_start, image_end).
 * - I/O ports 0x00-0xff (the system board's DMA, PIC, PIT, keyboard controller, RTC, POST and FPU ports: Linux claims
 *   them at boot, arch/x86/kernel/setup.c standard_io_resources, so its 8250 driver never gets them) and 0xcf8-0xcff
 *   (PCI configuration mechanism #1, with the reset control register 0xcf9; Linux arch/x86/pci/direct.c claims
 *   them): a "UART" there would write to those devices.
 * Linux's earlycon checks none of this (drivers/tty/serial/8250/8250_early.c); its 8250 driver probes the port
 * (lib/uart_probe.h), which pmuboot then does too, on what passes here. */
const char *console_uart_refusal(const struct uart_desc *u, const struct boot_info *bi, u64 image_start,
                                 u64 image_end, char *why, size_t why_size);

/* The chosen UART is refused or does not answer (reason): fall back to COM1 and say both in why. */
void console_choice_fallback(struct console_choice *c, const char *reason);
