#include "kernel/console.h"

#include <stdarg.h>

#include "lib/cmdline.h"
#include "lib/format.h"
#include "kernel/percpu.h"
#include "kernel/serial.h"
#include "kernel/x86.h"

#define NO_OWNER 0xFFFFFFFFu
static volatile u32 owner = NO_OWNER;
static u32 depth;
static u64 saved_flags;
/* The screen (kernel/fbcon.c) registers itself here: the console writes to the serial port and to its mirror, and
 * knows nothing of the screen (as Linux's printk writes to the consoles registered with it). */
static void (*mirror)(char c);

void console_set_mirror(void (*putc)(char c))
{
    mirror = putc;
}

static void emit_n(const char *s, size_t n)
{
    for (size_t i = 0; i < n && s[i]; i++) {
        if (s[i] == '\n')
            serial_putc('\r'); /* serial terminals want CR LF */
        serial_putc(s[i]);
        if (mirror)
            mirror(s[i]);
    }
}

static void emit(const char *s)
{
    emit_n(s, (size_t)-1);
}

void console_write_locked(const char *s, size_t n)
{
    emit_n(s, n);
}

const char *console_init(const struct uart_desc *u)
{
    return serial_init(u);
}

void console_lock(void)
{
    u64 flags = irq_save();
    u32 me = this_cpu()->index;
    if (owner == me) { /* re-entered from an exception/NMI on this CPU */
        depth++;
        return;
    }
    while (!__sync_bool_compare_and_swap(&owner, NO_OWNER, me))
        cpu_relax();
    depth = 1;
    saved_flags = flags;
}

void console_unlock(void)
{
    if (--depth)
        return;
    u64 flags = saved_flags;
    __atomic_store_n(&owner, NO_OWNER, __ATOMIC_RELEASE);
    irq_restore(flags);
}

void console_recover(void)
{
    if (owner == this_cpu()->index) {
        depth = 0;
        __atomic_store_n(&owner, NO_OWNER, __ATOMIC_RELEASE);
    }
}

static void vprint(const char *fmt, va_list ap)
{
    char buf[512];
    k_vsnprintf(buf, sizeof(buf), fmt, ap);
    emit(buf);
}

void kprintf_locked(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprint(fmt, ap);
    va_end(ap);
}

void kprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    console_lock();
    vprint(fmt, ap);
    console_unlock();
    va_end(ap);
}

void console_comment_line(const char *text)
{
    console_lock();
    console_write_locked("# ", 2);
    console_write_locked(text, (size_t)-1);
    console_write_locked("\n", 1);
    console_unlock();
}

/* Room for the longest header line: a rejected command line's message with its list of valid values
 * (CMDLINE_ERROR_MAX), a refused console's reason. Written as it is, past kprintf's own buffer. */
void console_comment(const char *fmt, ...)
{
    char buf[CONSOLE_COMMENT_MAX];
    va_list ap;
    va_start(ap, fmt);
    k_vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    console_comment_line(buf);
}
