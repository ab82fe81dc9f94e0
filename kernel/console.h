/* Serial console output, safe from several CPUs and from interrupt/NMI context.
 * Lines from different CPUs never interleave: each kprintf is written under one lock hold. A CPU that
 * re-enters (an exception or NMI while it prints) writes without waiting rather than deadlocking. */
#pragma once
#include "lib/cmdline.h"
#include "lib/types.h"
#include "lib/uart.h"

/* Use this UART from now on; NULL, or why not (it does not answer as a 16550: the previous one stays). */
const char *console_init(const struct uart_desc *u);
void kprintf(const char *fmt, ...) PRINTF_LIKE(1, 2);

/* Several writes as one block (e.g. a TAP line and its YAML): lock, kprintf_locked..., unlock. */
void console_lock(void);
void console_unlock(void);
void kprintf_locked(const char *fmt, ...) PRINTF_LIKE(1, 2);
void console_write_locked(const char *s, size_t n); /* n bytes of s (or up to a NUL), unformatted */
/* After an exception unwound a check: release the lock if this CPU still holds it. */
void console_recover(void);

/* A comment line of the checklist ("# " text), e.g. what the kernel found at boot; text up to CONSOLE_COMMENT_MAX
 * bytes, past kprintf's own buffer. The checklist stream's own comments (harness/report.h) end here too. */
#define CONSOLE_COMMENT_MAX (CMDLINE_ERROR_MAX + 64)
void console_comment(const char *fmt, ...) PRINTF_LIKE(1, 2);
void console_comment_line(const char *text);
/* Every character the console writes goes to putc too (the screen, kernel/fbcon.c), under the console lock. */
void console_set_mirror(void (*putc)(char c));
