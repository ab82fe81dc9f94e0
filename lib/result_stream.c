/* Which checklist lines the QR codes carry (see result_stream.h). */
#include "lib/result_stream.h"

#include <string.h>

#include "lib/span.h"

void result_stream_init(struct result_stream *r, char *buf, u32 size)
{
    memset(r, 0, sizeof(*r));
    r->buf = buf;
    r->size = size;
}

/* The line's evidence is kept for a failure (not ok, not a TODO) and for the PMU's discovery. */
static bool evidence_kept(const char *l, u32 len)
{
    if (span_starts(l, len, "not ok") && !span_contains(l, len, " # TODO"))
        return true;
    return span_contains(l, len, "/pmu_enum/discover");
}

static void append(struct result_stream *r, const char *l, u32 len)
{
    static const char cut[] = "# result: the stream is cut here, the result buffer is full\n";
    if (r->full)
        return;
    if (r->len + len + 1 + sizeof(cut) > r->size) {
        memcpy(r->buf + r->len, cut, sizeof(cut) - 1);
        r->len += sizeof(cut) - 1;
        r->full = true;
        return;
    }
    memcpy(r->buf + r->len, l, len);
    r->len += len;
    r->buf[r->len++] = '\n';
}

static void line_done(struct result_stream *r)
{
    const char *l = r->line;
    u32 len = r->line_len;
    r->line_len = 0;
    if (len && l[len - 1] == '\r')
        len--;
    if (!r->started) {
        if (!span_starts(l, len, "TAP version 13"))
            return;
        r->started = true;
    }
    if (r->in_yaml) {
        if (r->keep_yaml)
            append(r, l, len);
        if (len == 5 && memcmp(l, "  ...", 5) == 0)
            r->in_yaml = false;
        return;
    }
    if (len == 5 && memcmp(l, "  ---", 5) == 0) {
        r->in_yaml = true;
        if (r->keep_yaml)
            append(r, l, len);
        return;
    }
    if (span_starts(l, len, "ok ") || span_starts(l, len, "not ok "))
        r->keep_yaml = evidence_kept(l, len);
    append(r, l, len);
}

void result_stream_putc(struct result_stream *r, char c)
{
    if (c == '\n') {
        line_done(r);
        return;
    }
    if (r->line_len < RESULT_LINE_MAX)
        r->line[r->line_len++] = c;
}
