/* Boot-time console selection (kernel side of lib/console_choice.c): switch output to the chosen UART and
 * say in the header which one it is and why. */
#pragma once
#include "lib/acpi.h"
#include "lib/cmdline.h"
#include "lib/console_choice.h"

extern struct console_choice g_console;

/* After the command line and acpi_discover: choose, switch (falling back to COM1 if the UART is silent). */
void console_setup(const struct options *o, const struct acpi_info *ai, const struct phys_window *mem);
/* "# console: ttyS1 I/O 0x2f8 115200 (ACPI SPCR rev 2, interface type 0x0)" and the SPCR's own line. */
void console_report(void);
