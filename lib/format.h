/* printf-style formatting into a bounded buffer; freestanding, shared by kernel and host tests.
 * Supports %d %i %u %x %X %o %c %s %p %% with flags '-', '0', '#', width, precision (also '*'),
 * and length modifiers hh h l ll z. Always NUL-terminates when size > 0; returns the untruncated length. */
#pragma once
#include <stdarg.h>
#include <stddef.h>
#include "lib/types.h"

int k_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int k_snprintf(char *buf, size_t size, const char *fmt, ...) PRINTF_LIKE(3, 4);

/* Append to a fixed buffer, tracking the used length; never overflows, marks truncation with "...". */
struct strbuf {
    char *buf;
    size_t size;
    size_t len;
    bool truncated;
};
void sb_init(struct strbuf *sb, char *buf, size_t size);
void sb_printf(struct strbuf *sb, const char *fmt, ...) PRINTF_LIKE(2, 3);
void sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap);
