/* Which UART carries the checklist, and why: console= (explicit ttyS or earlycon-style UART) wins; otherwise
 * (console=auto, the default) the ACPI SPCR table's port when pmuboot can drive it, else COM1. Portable. */
#pragma once
#include "lib/cmdline.h"
#include "lib/spcr.h"
#include "lib/uart.h"

struct console_choice {
    struct uart_desc uart;
    bool from_spcr;
    char why[160]; /* for the header line: "ACPI SPCR rev 2, interface 0x0", "console=ttyS1,9600", ... */
};

/* state and spcr as acpi_spcr_find returned them. */
void console_choose(const struct options *o, enum spcr_state state, const struct acpi_spcr *spcr,
                    struct console_choice *c);

/* The chosen UART does not answer: fall back to COM1 and say so in why. */
void console_choice_fallback(struct console_choice *c);
