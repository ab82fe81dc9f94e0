/* Short form of a repeated per-CPU SKIP (verdict_repeat.h). */
#include "lib/verdict_repeat.h"

#include <string.h>

#include "lib/format.h"

#define SKIP_MARK " # SKIP "

/* The text after the check's name: " - NAME" ends at the first space or newline after " - ". */
static const char *after_name(const char *text, u32 len)
{
    if (len < 4 || memcmp(text, " - ", 3) != 0)
        return NULL;
    for (u32 i = 3; i < len; i++)
        if (text[i] == ' ' || text[i] == '\n')
            return text + i;
    return NULL;
}

static bool single_line(const char *text, u32 len)
{
    const char *nl = memchr(text, '\n', len);
    return nl && nl == text + len - 1;
}

u32 verdict_repeat(const char *text, u32 len, const char *ref, u32 ref_len, u32 ref_cpu, char *out, u32 size)
{
    if (!single_line(text, len) || !single_line(ref, ref_len))
        return 0;
    const char *rest = after_name(text, len), *ref_rest = after_name(ref, ref_len);
    if (!rest || !ref_rest)
        return 0;
    u32 rest_len = (u32)(text + len - rest);
    if (rest_len != (u32)(ref + ref_len - ref_rest) || memcmp(rest, ref_rest, rest_len) != 0)
        return 0;
    /* The directive of a SKIP is the last thing on the line (report_render); the marker cannot start a name. */
    const char *skip = NULL;
    for (const char *p = rest; p + sizeof(SKIP_MARK) - 1 <= text + len; p++)
        if (!memcmp(p, SKIP_MARK, sizeof(SKIP_MARK) - 1)) {
            skip = p;
            break;
        }
    if (!skip)
        return 0;
    const char *reason = skip + sizeof(SKIP_MARK) - 1, *end = text + len - 1;
    const char *colon = memchr(reason, ':', (size_t)(end - reason));
    if (!colon || colon == reason || colon - reason > VERDICT_REPEAT_HEAD_MAX)
        return 0;
    int n = k_snprintf(out, size, "%.*s: as cpu%u\n", (int)(colon - text), text, ref_cpu);
    if (n <= 0 || (u32)n >= size || (u32)n >= len)
        return 0; /* no room, or no shorter */
    return (u32)n;
}
