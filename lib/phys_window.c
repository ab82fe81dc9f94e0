#include "lib/phys_window.h"

#include <string.h>

static bool reachable(const struct phys_window *w, u64 addr, u64 len)
{
    return !w->reach || w->reach(addr, len);
}

bool phys_read(const struct phys_window *w, u64 addr, void *dst, u64 len)
{
    if (!phys_range_ok(w, addr, len) || !reachable(w, addr, len))
        return false;
    memcpy(dst, w->ptr + (addr - w->base), (size_t)len);
    return true;
}

enum phys_str_status phys_read_str(const struct phys_window *w, u64 addr, char *dst, size_t dst_size)
{
    size_t i = 0;
    if (dst_size == 0)
        return PHYS_STR_TOO_LONG;
    for (;; i++) {
        if (!phys_range_ok(w, addr + i, 1) || addr + i < addr || !reachable(w, addr + i, 1)) {
            dst[i < dst_size ? i : dst_size - 1] = '\0';
            return PHYS_STR_OUTSIDE;
        }
        char c = (char)w->ptr[addr + i - w->base];
        if (i == dst_size - 1) {
            dst[i] = '\0';
            return c ? PHYS_STR_TOO_LONG : PHYS_STR_OK;
        }
        dst[i] = c;
        if (!c)
            return PHYS_STR_OK;
    }
}
