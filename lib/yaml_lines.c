/* The lines of a check's YAML block (lib/yaml_lines.h). */
#include "lib/yaml_lines.h"

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
