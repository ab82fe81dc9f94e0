/* Bounded reads of physical memory. Parsers of firmware/loader data read through a window instead of
 * dereferencing raw pointers, so a bad address or length is an error, never a fault; host tests hand the
 * same parsers a buffer that stands for a slice of physical memory. */
#pragma once
#include "lib/types.h"

struct phys_window {
    u64 base;       /* first physical address covered */
    u64 size;       /* bytes covered */
    const u8 *ptr;  /* where physical address `base` can be read */
    /* NULL: every byte inside is readable. Else called before a read to make [addr, addr+len) readable (the
     * kernel maps it above 4 GiB, kernel/paging.c); false means it cannot be, and the read fails. */
    bool (*reach)(u64 addr, u64 len);
};

static inline bool phys_range_ok(const struct phys_window *w, u64 addr, u64 len)
{
    return addr >= w->base && len <= w->size && addr - w->base <= w->size - len;
}

/* Copy len bytes at physical addr into dst; false (dst untouched) when any byte lies outside the window or
 * cannot be reached. */
bool phys_read(const struct phys_window *w, u64 addr, void *dst, u64 len);

enum phys_str_status { PHYS_STR_OK, PHYS_STR_OUTSIDE, PHYS_STR_TOO_LONG };
/* Copy a NUL-terminated string of at most dst_size-1 characters. On PHYS_STR_TOO_LONG dst holds the
 * truncated prefix; on PHYS_STR_OUTSIDE the string ran out of the window before its NUL. */
enum phys_str_status phys_read_str(const struct phys_window *w, u64 addr, char *dst, size_t dst_size);
