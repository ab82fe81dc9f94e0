/* The final screen's list of failures (see screen_final.h). */
#include "lib/screen_final.h"

#include <string.h>

#include "lib/span.h"

static u32 line_end(const char *s, u32 len, u32 at)
{
    while (at < len && s[at] != '\n')
        at++;
    return at;
}

bool screen_final_next_fail(const char *s, u32 len, u32 *pos, struct screen_fail *f)
{
    while (*pos < len) {
        u32 at = *pos, end = line_end(s, len, at);
        const char *l = s + at;
        u32 n = end - at;
        *pos = end < len ? end + 1 : end;
        if (span_starts(l, n, "Bail out!")) {
            u32 skip = n > 10 ? 10 : n;
            *f = (struct screen_fail){0, l + skip, n - skip, "", 0};
            return true;
        }
        if (!span_starts(l, n, "not ok ") || span_contains(l, n, " # TODO"))
            continue;
        u32 i = 7, number = 0;
        while (i < n && l[i] >= '0' && l[i] <= '9')
            number = number * 10 + (u32)(l[i++] - '0');
        if (i + 3 <= n && memcmp(l + i, " - ", 3) == 0)
            i += 3;
        u32 name_end = i;
        while (name_end < n && l[name_end] != ' ')
            name_end++;
        *f = (struct screen_fail){number, l + i, name_end - i, "", 0};
        /* Its evidence: the first expectation in the YAML block that follows (it says what failed), else the
         * first "failure" entry, else the block's first line. */
        u32 y = *pos, yend = line_end(s, len, y);
        if (yend - y == 5 && span_starts(s + y, 5, "  ---")) {
            u32 rank = 0; /* of the line taken: 3 expectation, 2 failure, 1 first */
            for (u32 e = yend + 1; e < len;) {
                u32 eend = line_end(s, len, e), n = eend - e;
                if (n < 3 || !span_starts(s + e, n, "  ") || span_starts(s + e, n, "  ..."))
                    break;
                u32 r = span_contains(s + e, n, "{expected:") ? 3 : span_starts(s + e, n, "  \"failure\":") ? 2 : 1;
                if (r > rank) {
                    rank = r;
                    f->evidence = s + e + 2;
                    f->evidence_len = n - 2;
                }
                if (rank == 3)
                    break;
                e = eend + 1;
            }
        }
        return true;
    }
    return false;
}

const char *screen_final_comment(const char *s, u32 len, const char *prefix, u32 *out_len)
{
    u32 n = (u32)strlen(prefix);
    for (u32 at = 0; at < len;) {
        u32 end = line_end(s, len, at);
        if (end - at >= n + 2 && s[at] == '#' && s[at + 1] == ' ' && memcmp(s + at + 2, prefix, n) == 0) {
            *out_len = end - at - 2 - n;
            return s + at + 2 + n;
        }
        at = end + 1;
    }
    return NULL;
}

static u32 fail_rows(u32 fails, u32 shown)
{
    return shown + (fails > shown); /* and the line that counts them */
}

void screen_final_layout(u32 fails, u32 packed_len, u32 w, u32 h, struct final_layout *out)
{
    const u32 tries[3] = {MIN(fails, 20u), MIN(fails, 4u), 0};
    u32 text_rows = h / 16, best = 0;
    *out = (struct final_layout){.fails = fails};
    out->no_codes = packed_len ? NULL : "the result does not compress into its buffer";
    struct result_layout codes;
    /* The fewest pages in all; among equals the most FAILs a page. None listed (only counted) when no count
     * that lists some leaves room for a code. */
    for (u32 i = 0; i < 3 && !out->no_codes && !(i == 2 && best); i++) {
        u32 caption = SCREEN_FINAL_FAIL_ROW + fail_rows(fails, tries[i]);
        if ((i && tries[i] == tries[i - 1]) || caption + 1 >= text_rows ||
            result_code_paged_layout(packed_len, w, h - (caption + 1) * 16, 2, &codes))
            continue;
        u32 fp = tries[i] ? (fails + tries[i] - 1) / tries[i] : 1, pages = MAX(fp, codes.pages);
        if (!best || pages < best) {
            best = pages;
            out->fails_per_page = tries[i];
            out->caption_row = caption;
            out->codes = codes;
        }
    }
    if (!best) {
        if (!out->no_codes)
            out->no_codes = "the result does not fit the screen as QR codes";
        /* The screen is the FAILs': the top rows, the count line, the note there are no codes, the status bar. */
        u32 room = text_rows > SCREEN_FINAL_FAIL_ROW + 3 ? text_rows - SCREEN_FINAL_FAIL_ROW - 3 : 0;
        out->fails_per_page = MIN(fails, room);
        out->caption_row = SCREEN_FINAL_FAIL_ROW + fail_rows(fails, out->fails_per_page);
        out->codes = (struct result_layout){0};
    }
    out->fail_pages = out->fails_per_page ? (fails + out->fails_per_page - 1) / out->fails_per_page : 1;
    out->pages = MAX(out->fail_pages, MAX(out->codes.pages, 1u));
}

void screen_final_page(const struct final_layout *l, u32 page, u32 *fail_first, u32 *fail_end, u32 *code_first,
                       u32 *code_end)
{
    u32 fp = page % MAX(l->fail_pages, 1u), cp = page % MAX(l->codes.pages, 1u);
    *fail_first = MIN(fp * l->fails_per_page, l->fails);
    *fail_end = MIN(*fail_first + l->fails_per_page, l->fails);
    *code_first = MIN(cp * l->codes.per_page, l->codes.n);
    *code_end = MIN(*code_first + l->codes.per_page, l->codes.n);
}
