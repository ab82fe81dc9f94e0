/* Bounded printf-style formatting (see format.h). No floating point: the kernel has no SSE. */
#include "lib/format.h"

#include <string.h>

struct out {
    char *buf;
    size_t size;
    size_t pos;
};

static void put(struct out *o, char c)
{
    if (o->pos + 1 < o->size)
        o->buf[o->pos] = c;
    o->pos++;
}

static void pad(struct out *o, char c, int n)
{
    while (n-- > 0)
        put(o, c);
}

static void put_num(struct out *o, unsigned long long v, bool neg, unsigned base, bool upper, int width,
                    int prec, bool left, bool zero, const char *prefix)
{
    char tmp[24];
    int n = 0;
    const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    if (v == 0 && prec != 0)
        tmp[n++] = '0';
    while (v) {
        tmp[n++] = digits[v % base];
        v /= base;
    }
    int zeros = prec > n ? prec - n : 0;
    int plen = (int)strlen(prefix) + (neg ? 1 : 0);
    int total = plen + zeros + n;
    if (zero && !left && prec < 0 && width > total) {
        zeros += width - total;
        total = width;
    }
    if (!left)
        pad(o, ' ', width - total);
    if (neg)
        put(o, '-');
    for (const char *p = prefix; *p; p++)
        put(o, *p);
    pad(o, '0', zeros);
    while (n)
        put(o, tmp[--n]);
    if (left)
        pad(o, ' ', width - total);
}

int k_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    struct out o = {buf, size, 0};
    for (const char *f = fmt; *f; f++) {
        if (*f != '%') {
            put(&o, *f);
            continue;
        }
        bool left = false, zero = false, alt = false;
        int width = 0, prec = -1, lng = 0;
        for (;; f++) {
            if (f[1] == '-')
                left = true;
            else if (f[1] == '0')
                zero = true;
            else if (f[1] == '#')
                alt = true;
            else
                break;
        }
        f++;
        if (*f == '*') {
            width = va_arg(ap, int);
            if (width < 0) {
                left = true;
                width = -width;
            }
            f++;
        } else {
            while (*f >= '0' && *f <= '9')
                width = width * 10 + (*f++ - '0');
        }
        if (*f == '.') {
            f++;
            prec = 0;
            if (*f == '*') {
                prec = va_arg(ap, int);
                f++;
            } else {
                while (*f >= '0' && *f <= '9')
                    prec = prec * 10 + (*f++ - '0');
            }
        }
        for (;; f++) {
            if (*f == 'l')
                lng++;
            else if (*f == 'z')
                lng = 2;
            else if (*f == 'h')
                lng = lng > 0 ? 0 : lng - 1;
            else
                break;
        }
        unsigned long long u;
        long long s;
        switch (*f) {
        case 'd':
        case 'i':
            s = lng >= 2 ? va_arg(ap, long long) : lng == 1 ? va_arg(ap, long) : va_arg(ap, int);
            if (lng == -1)
                s = (short)s;
            else if (lng <= -2)
                s = (signed char)s;
            u = s < 0 ? 0ull - (unsigned long long)s : (unsigned long long)s;
            put_num(&o, u, s < 0, 10, false, width, prec, left, zero, "");
            break;
        case 'u':
        case 'x':
        case 'X':
        case 'o':
            u = lng >= 2 ? va_arg(ap, unsigned long long)
                : lng == 1 ? va_arg(ap, unsigned long)
                           : va_arg(ap, unsigned int);
            if (lng == -1)
                u = (unsigned short)u;
            else if (lng <= -2)
                u = (unsigned char)u;
            if (*f == 'u')
                put_num(&o, u, false, 10, false, width, prec, left, zero, "");
            else if (*f == 'o') {
                /* C11 7.21.6.1p6: '#' forces a leading 0 digit, unless the precision already gives one. */
                int digits = 0;
                for (unsigned long long t = u; t; t >>= 3)
                    digits++;
                put_num(&o, u, false, 8, false, width, prec, left, zero,
                        alt && prec <= digits && (u || prec == 0) ? "0" : "");
            }
            else
                put_num(&o, u, false, 16, *f == 'X', width, prec, left, zero,
                        alt && u ? (*f == 'X' ? "0X" : "0x") : "");
            break;
        case 'p':
            put_num(&o, (unsigned long long)(uintptr_t)va_arg(ap, void *), false, 16, false, width, prec,
                    left, zero, "0x");
            break;
        case 'c':
            pad(&o, ' ', left ? 0 : width - 1);
            put(&o, (char)va_arg(ap, int));
            pad(&o, ' ', left ? width - 1 : 0);
            break;
        case 's': {
            const char *str = va_arg(ap, const char *);
            if (!str)
                str = "(null)";
            int n = (int)(prec >= 0 ? strnlen(str, (size_t)prec) : strlen(str));
            pad(&o, ' ', left ? 0 : width - n);
            for (int i = 0; i < n; i++)
                put(&o, str[i]);
            pad(&o, ' ', left ? width - n : 0);
            break;
        }
        case '%':
            put(&o, '%');
            break;
        case '\0':
            f--;
            break;
        default: /* unknown conversion: print it verbatim so the mistake is visible */
            put(&o, '%');
            put(&o, *f);
            break;
        }
    }
    if (size)
        buf[o.pos < size ? o.pos : size - 1] = '\0';
    return (int)o.pos;
}

int k_snprintf(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = k_vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return n;
}

void sb_init(struct strbuf *sb, char *buf, size_t size)
{
    sb->buf = buf;
    sb->size = size;
    sb->len = 0;
    sb->truncated = false;
    if (size)
        buf[0] = '\0';
}

void sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap)
{
    if (sb->truncated || sb->size == 0)
        return;
    size_t room = sb->size - sb->len;
    int n = k_vsnprintf(sb->buf + sb->len, room, fmt, ap);
    if ((size_t)n < room) {
        sb->len += (size_t)n;
        return;
    }
    sb->truncated = true;
    sb->len = sb->size - 1;
    if (sb->size >= 4)
        memcpy(sb->buf + sb->size - 4, "...", 4);
}

void sb_printf(struct strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(sb, fmt, ap);
    va_end(ap);
}
