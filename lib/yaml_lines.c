/* The lines of a check's YAML block (lib/yaml_lines.h). */
#include "lib/yaml_lines.h"

#include <string.h>

void yaml_str(struct strbuf *sb, const char *s)
{
    sb_printf(sb, "\"");
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            sb_printf(sb, "\\%c", *s);
        else if (*s == '\n')
            sb_printf(sb, "\\n");
        else
            sb_printf(sb, "%c", *s);
    }
    sb_printf(sb, "\"");
}

void yaml_key(struct strbuf *sb, const char *key)
{
    yaml_str(sb, key);
    sb_printf(sb, ": ");
}

void yaml_note(struct strbuf *sb, const char *key, const char *value)
{
    yaml_key(sb, key);
    yaml_str(sb, value);
    sb_printf(sb, "\n");
}

void yaml_equal(struct strbuf *sb, const char *key, bool hex, u64 expected, u64 observed)
{
    yaml_key(sb, key);
    if (hex)
        sb_printf(sb, "{expected: 0x%llx, observed: 0x%llx, tolerance: 0}\n", (unsigned long long)expected,
                  (unsigned long long)observed);
    else
        sb_printf(sb, "{expected: %llu, observed: %llu, tolerance: 0}\n", (unsigned long long)expected,
                  (unsigned long long)observed);
}

void yaml_exact(struct strbuf *sb, const char *key, const char *expected, const char *observed)
{
    yaml_key(sb, key);
    sb_printf(sb, "{expected: ");
    yaml_str(sb, expected);
    sb_printf(sb, ", observed: ");
    yaml_str(sb, observed);
    sb_printf(sb, ", tolerance: exact}\n");
}

/* As sb_vprintf when it runs out of room: the buffer ends with "..." and takes nothing more. */
static void mark_truncated(struct strbuf *sb)
{
    sb->truncated = true;
    sb->len = sb->size - 1;
    if (sb->size >= 4)
        memcpy(sb->buf + sb->size - 4, "...", 4);
}

/* The formatted text as yaml_str writes a string: formatted at the end of sb, then escaped in place from the end
 * backwards (each '"', '\' and newline takes one byte more). */
static void yaml_vstr(struct strbuf *sb, const char *fmt, va_list ap)
{
    sb_printf(sb, "\"");
    if (sb->truncated)
        return;
    size_t start = sb->len;
    sb_vprintf(sb, fmt, ap);
    if (sb->truncated)
        return;
    size_t extra = 0;
    for (size_t i = start; i < sb->len; i++)
        extra += sb->buf[i] == '"' || sb->buf[i] == '\\' || sb->buf[i] == '\n';
    if (sb->len + extra >= sb->size) {
        mark_truncated(sb);
        return;
    }
    size_t src = sb->len, dst = sb->len + extra;
    sb->buf[dst] = '\0';
    while (src > start) {
        char c = sb->buf[--src];
        sb->buf[--dst] = c == '\n' ? 'n' : c;
        if (c == '"' || c == '\\' || c == '\n')
            sb->buf[--dst] = '\\';
    }
    sb->len += extra;
    sb_printf(sb, "\"");
}

void yaml_note_v(struct strbuf *sb, const char *key, const char *fmt, va_list ap)
{
    yaml_key(sb, key);
    yaml_vstr(sb, fmt, ap);
    sb_printf(sb, "\n");
}

void yaml_exact_v(struct strbuf *sb, const char *key, const char *expected, const char *fmt, va_list ap)
{
    yaml_key(sb, key);
    sb_printf(sb, "{expected: ");
    yaml_str(sb, expected);
    sb_printf(sb, ", observed: ");
    yaml_vstr(sb, fmt, ap);
    sb_printf(sb, ", tolerance: exact}\n");
}
