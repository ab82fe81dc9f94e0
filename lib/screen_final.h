/* What the final screen of a run lists besides its QR codes (docs/screen.md): every failure with its thread, check
 * and the line of evidence that says most, and the header lines that say which machine it was, read from the
 * stream the codes carry (lib/result_stream.h). Portable: the kernel draws what this finds. */
#pragma once
#include "lib/result_code.h"
#include "lib/types.h"

#define SCREEN_FINAL_FAIL_ROW 4 /* below the verdict, the CPU, the threads and a blank row */
#define SCREEN_FINAL_PAGE_SECONDS 8

struct screen_fail {
    u32 number;           /* the TAP test number (0 for a bail-out) */
    const char *name;     /* "cpu3/apic/id", "cpu[0-3]/apic/id", "smp/online", or the bail-out's reason */
    u32 name_len;
    const char *evidence; /* its first expectation ({expected: ...}), else its "failure" entry, else its first YAML
                           * line, without the indent ("" when it has no YAML block) */
    u32 evidence_len;
};

/* The next failure in s[*pos..len) ("not ok" without a TODO directive, or "Bail out!"), advancing *pos past it.
 * false at the end. */
bool screen_final_next_fail(const char *s, u32 len, u32 *pos, struct screen_fail *f);

/* The text after the first comment line "# PREFIX" in s[0..len), and its length; NULL if there is none. */
const char *screen_final_comment(const char *s, u32 len, const char *prefix, u32 *out_len);

/* What the final screen shows where, and how it pages (docs/screen.md): FAILs listed from row
 * SCREEN_FINAL_FAIL_ROW, fails_per_page at a time with a line counting them all when they do not all fit, then the
 * codes' caption and the codes, per_page at a time. The screen pages through max(fail_pages, codes.pages) pages;
 * page p shows FAIL page p % fail_pages and code page p % codes.pages, so every FAIL and every code is on one of
 * them. Text rows are 16 pixels. */
struct final_layout {
    u32 fails, fails_per_page, fail_pages;
    u32 caption_row;         /* the codes' caption; the codes from the row after it */
    u32 pages;               /* screens in all (1: nothing pages) */
    struct result_layout codes;
    const char *no_codes;    /* why there are no codes (then the screen is the FAILs'); NULL when there are */
};

/* The layout for fails FAILs and a packed result of packed_len bytes (0: it could not be packed) on a w x h
 * screen: 20 FAILs a page or 4, whichever makes the fewest pages in all with the codes (one page of them when
 * they fit, else paged: result_code_paged_layout), 20 among equals; none listed (only counted) when neither
 * leaves room for a code; no codes when even that does not. */
void screen_final_layout(u32 fails, u32 packed_len, u32 w, u32 h, struct final_layout *out);

/* What page p shows: FAILs [*fail_first, *fail_end) and codes [*code_first, *code_end), counted from 0. */
void screen_final_page(const struct final_layout *l, u32 page, u32 *fail_first, u32 *fail_end, u32 *code_first,
                       u32 *code_end);
