/* The value parsers every layer's option table shares (lib/cmdline.h): a fixed set of values, a list of names as a
 * mask, a number in a range. */
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

bool opt_names_mask(const char *list, const char *const *names, u32 count, u32 *mask, char *bad, size_t bad_size)
{
    u32 m = 0;
    for (const char *p = list;;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        u32 bit = 0;
        for (u32 i = 0; i < count && i < 32 && n; i++)
            if (strlen(names[i]) == n && !strncmp(names[i], p, n))
                bit = 1u << i;
        if (!bit) {
            if (bad_size) {
                size_t k = n < bad_size ? n : bad_size - 1;
                memcpy(bad, p, k);
                bad[k] = '\0';
            }
            return false;
        }
        m |= bit;
        if (!comma)
            break;
        p = comma + 1;
    }
    *mask = m;
    return true;
}

const char *opt_names_join(const char *const *names, u32 count, char *buf, size_t size)
{
    size_t len = 0;
    if (!size)
        return buf;
    buf[0] = '\0';
    for (u32 i = 0; i < count; i++) {
        const char *parts[2] = {i ? ", " : "", names[i]};
        for (u32 j = 0; j < 2; j++)
            for (const char *c = parts[j]; *c && len + 1 < size; c++)
                buf[len++] = *c;
    }
    buf[len] = '\0';
    return buf;
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
