/* Console selection at boot (see console_setup.h). */
#include "kernel/console_setup.h"

#include "kernel/console.h"
#include "kernel/boot_state.h"
#include "kernel/serial.h"

struct console_choice g_console;
static struct acpi_spcr spcr;
static enum acpi_lookup spcr_state;
static struct acpi_problems spcr_problems;

void console_setup(const struct options *o, const struct acpi_info *ai, const struct phys_window *mem)
{
    spcr_state = acpi_spcr_find(mem, ai, &spcr, &spcr_problems);
    console_choose(o, spcr_state, &spcr, &g_console);
    const struct uart_desc *u = &g_console.uart;
    u32 com;
    /* What kmain set up first, exactly (an SPCR naming 0x3F8 with another UART clock or access width must be
     * programmed again, or the divisor set for 1.8432 MHz garbles the output). */
    if (uart_is_com(u, &com) && com == 0 && u->baud == 115200 && u->access_bytes == 1 &&
        (u->clock_hz == 0 || u->clock_hz == UART_CLOCK_PC))
        return;
    /* Never write to RAM or to the chipset's own ports for a UART that is not there: the checklist would vanish into
     * memory (or reset the machine) and the run would look silent. COM1, which kmain set up, carries the refusal. */
    char why[240];
    const char *refused = console_uart_refusal(u, &boot_state()->info, (u64)(uintptr_t)__image_start,
                                               (u64)(uintptr_t)__image_end, why, sizeof(why));
    if (!refused)
        refused = console_init(u);
    if (refused)
        console_choice_fallback(&g_console, refused);
}

void console_report(void)
{
    char buf[160];
    struct strbuf sb;
    sb_init(&sb, buf, sizeof(buf));
    uart_describe(&g_console.uart, &sb);
    if (!g_console.uart.baud) {
        u32 div = serial_divisor();
        u32 clock = g_console.uart.clock_hz ? g_console.uart.clock_hz : UART_CLOCK_PC;
        if (div)
            sb_printf(&sb, " (divisor %u: %u baud)", div, clock / 16 / div);
    }
    console_comment("console: %s (%s)", buf, g_console.why);
    if (spcr_state == ACPI_LOOKUP_FOUND) {
        sb_init(&sb, buf, sizeof(buf));
        acpi_spcr_format(&spcr, &sb);
        console_comment("console: %s", buf);
    }
    for (u32 i = 0; i < spcr_problems.count && i < ACPI_PROBLEMS_MAX; i++)
        console_comment("console: ACPI problem: %s", spcr_problems.msg[i]);
}
