/* Console choice (see console_choice.h). */
#include "lib/console_choice.h"

#include <string.h>

void console_choose(const struct options *o, enum spcr_state state, const struct acpi_spcr *spcr,
                    struct console_choice *c)
{
    memset(c, 0, sizeof(*c));
    switch (o->console_kind) {
    case CONSOLE_TTYS:
        uart_com(&c->uart, o->console_port, o->console_baud);
        k_snprintf(c->why, sizeof(c->why), "console=%s", o->console);
        return;
    case CONSOLE_UART:
        c->uart = o->console_uart;
        k_snprintf(c->why, sizeof(c->why), "console=%s", o->console);
        return;
    default:
        break;
    }
    uart_com(&c->uart, 0, 115200);
    switch (state) {
    case SPCR_NO_ACPI:
        k_snprintf(c->why, sizeof(c->why), "console=auto: no ACPI tables found, default COM1");
        break;
    case SPCR_ABSENT:
        k_snprintf(c->why, sizeof(c->why), "console=auto: no ACPI SPCR table, default COM1");
        break;
    case SPCR_BAD:
        k_snprintf(c->why, sizeof(c->why), "console=auto: ACPI SPCR table fails its checks (see acpi problems), "
                                           "default COM1");
        break;
    case SPCR_FOUND:
        if (!spcr->usable) {
            k_snprintf(c->why, sizeof(c->why), "console=auto: ACPI SPCR not used: %s; default COM1", spcr->why);
            break;
        }
        c->uart = spcr->uart;
        c->from_spcr = true;
        k_snprintf(c->why, sizeof(c->why), "ACPI SPCR rev %u, interface type 0x%x", spcr->revision,
                   spcr->interface_type);
        break;
    }
}

void console_choice_fallback(struct console_choice *c)
{
    char was[64], why[sizeof(c->why)];
    struct strbuf sb;
    sb_init(&sb, was, sizeof(was));
    uart_describe(&c->uart, &sb);
    k_snprintf(why, sizeof(why), "%s: %s does not answer (scratch register), fell back to COM1", c->why, was);
    memcpy(c->why, why, sizeof(why));
    uart_com(&c->uart, 0, 115200);
    c->from_spcr = false;
}
