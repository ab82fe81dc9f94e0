/* The value parsers every layer's option table shares (lib/cmdline.h): a fixed set of values, a number in a range. */
#include "lib/cmdline.h"

#include <string.h>

const char *opt_choice(const char *v, const char *const *names, u32 *out, const char *why)
{
    for (u32 i = 0; names[i]; i++)
        if (!strcmp(v, names[i])) {
            *out = i;
            return NULL;
        }
    return why;
}

bool opt_u32(const char *s, u32 *out, u32 min, u32 max)
{
    u64 v = 0;
    if (!*s)
        return false;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return false;
        v = v * 10 + (u64)(*s - '0');
        if (v > max)
            return false;
    }
    if (v < min)
        return false;
    *out = (u32)v;
    return true;
}
