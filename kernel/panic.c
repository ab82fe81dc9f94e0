/* A fatal error: the catch hook (kernel/catch_hook.h) closes the checklist as failed and ends the run (the harness,
 * through kernel_exit); before the harness set it, the bail-out line is written here and the CPU halts. */
#include "kernel/panic.h"

#include <stdarg.h>

#include "kernel/catch_hook.h"
#include "kernel/console.h"
#include "kernel/x86.h"
#include "lib/format.h"

void panic(const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    k_vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    catch_bail_out(msg);
    console_recover();
    kprintf("Bail out! %s\n", msg);
    for (;;) {
        cli();
        hlt();
    }
}
