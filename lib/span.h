/* Tests on a span of text that need not end in NUL (a line inside a checklist buffer): portable, over standard
 * <string.h> (the kernel's lib/libc/string.c, the C library on the host; memmem is a GNU extension, so not used). */
#pragma once
#include <string.h>

#include "lib/types.h"

/* The len bytes at s begin with the string p. */
static inline bool span_starts(const char *s, u32 len, const char *p)
{
    size_t n = strlen(p);
    return len >= n && memcmp(s, p, n) == 0;
}

/* The len bytes at s hold the string p. */
static inline bool span_contains(const char *s, u32 len, const char *p)
{
    size_t n = strlen(p);
    for (size_t i = 0; i + n <= len; i++)
        if (memcmp(s + i, p, n) == 0)
            return true;
    return false;
}
