/* The final screen (screen=grid, docs/screen.md): the verdict and totals, the machine, the FAILs (paged with
 * exit=halt when they do not fit) and the carried stream as QR codes (lib/result_code.c lays them out, lib/qr.c
 * encodes them, this draws them). */
#include "kernel/fbcon_views.h"

#include <string.h>

#include "kernel/fbcon.h"
#include "lib/crc32.h"
#include "lib/deflate.h"
#include "lib/qr.h"
#include "lib/result_code.h"
#include "lib/screen_final.h"
#include "kernel/timing.h"

static bool drawn; /* the final screen is up: it stays as drawn */
static u32 final_fails, final_per_page; /* FAILs in all, and listed at once from row FAIL_ROW */
#define FAIL_ROW 4
#define PAGE_SECONDS 8
static struct deflate_state dstate;
static u8 packed[64 * 1024], code_bytes[QR_CODEWORDS_MAX];
static struct qr_code qr;

/* One code with its quiet zone, light modules white and dark black, at pixel (x, y). */
static void draw_code(u32 x, u32 y, u32 scale)
{
    u32 side = (qr.size + 2 * RESULT_CODE_QUIET) * scale;
    fbtext_fill(&fbcon_fbt, x, y, side, side, FB_WHITE);
    for (u32 my = 0; my < qr.size; my++)
        for (u32 mx = 0; mx < qr.size; mx++)
            if (qr_module(&qr, mx, my))
                fbtext_fill(&fbcon_fbt, x + (mx + RESULT_CODE_QUIET) * scale, y + (my + RESULT_CODE_QUIET) * scale,
                            scale, scale, FB_BLACK);
}

/* FAILs first.. of the carried stream from row FAIL_ROW, as many as a page holds, and a line for the others. */
static u32 list_fails(u32 first)
{
    u32 pos = 0, row = FAIL_ROW, i = 0;
    struct screen_fail f;
    while (i < first + final_per_page && screen_final_next_fail(fbcon_stream.buf, fbcon_stream.len, &pos, &f))
        if (i++ >= first)
            row = fbcon_text_row(row, FB_RED, FB_BLACK, " FAIL %u %.*s: %.*s", f.number, (int)f.name_len, f.name,
                           (int)f.evidence_len, f.evidence);
    if (final_per_page < final_fails) {
        u32 pages = (final_fails + final_per_page - 1) / final_per_page;
        row = fbcon_text_row(FAIL_ROW + final_per_page, FB_RED, FB_BLACK,
                       " FAILs %u-%u of %u, page %u of %u (every %u s with exit=halt); all in the QR codes",
                       first + 1, MIN(first + final_per_page, final_fails), final_fails, first / final_per_page + 1,
                       pages, PAGE_SECONDS);
    }
    return row;
}

/* The final screen: the verdict and totals, the machine, every FAIL (as many as leave the codes room), and the
 * carried stream as QR codes below (docs/screen.md). */
void fbfinal_show(u32 passed, u32 failed, u32 skipped)
{
    const char *s = fbcon_stream.buf;
    u32 len = fbcon_stream.len, nfails = 0, pos = 0;
    struct screen_fail f;
    while (screen_final_next_fail(s, len, &pos, &f))
        nfails++;
    u32 plen = deflate_zlib(&dstate, (const u8 *)s, len, packed, sizeof(packed));
    u32 crc = crc32_update(0, (const u8 *)s, len);
    /* Text rows: verdict, CPU, threads, a blank, the FAILs shown (and a line for the rest), the codes' caption. */
    struct result_layout lay = {0};
    const char *why = plen ? NULL : "the result does not compress into its buffer";
    u32 shown = MIN(nfails, 20u);
    while (!why) {
        u32 rows = 4 + shown + (shown < nfails) + 1;
        why = rows * 16 < fbcon_fbt.height
                  ? result_code_layout(plen, fbcon_fbt.width, fbcon_fbt.height - rows * 16, 2, RESULT_CODE_MAX, &lay)
                  : "no room below the text";
        if (!why || !shown)
            break;
        why = NULL;
        shown = shown > 4 ? 4 : 0; /* fewer FAILs listed leave the codes more room */
    }
    if (why) /* no codes: the screen is the FAILs' */
        shown = MIN(nfails, fbcon_fbt.rows > 7 ? fbcon_fbt.rows - 7 : 0);
    drawn = true;
    fbtext_clear(&fbcon_fbt);
    u32 row = fbcon_text_row(0, FB_BLACK, failed ? FB_RED : FB_GREEN,
                             " pmuboot %s: %u passed, %u failed, %u skipped - run complete",
                             failed ? "FAILED" : "PASSED", passed, failed, skipped);
    u32 n;
    const char *c = screen_final_comment(s, len, "cpu: ", &n);
    row = fbcon_text_row(row, FB_WHITE, FB_BLACK, " cpu: %.*s", c ? (int)n : 7, c ? c : "unknown");
    c = screen_final_comment(s, len, "smp: ", &n);
    row = fbcon_text_row(row, FB_WHITE, FB_BLACK, " smp: %.*s", c ? (int)n : 7, c ? c : "unknown");
    row++;
    final_fails = nfails;
    final_per_page = shown;
    row = list_fails(0);
    if (why) {
        fbcon_text_row(row, FB_YELLOW, FB_BLACK, " No QR codes: %s (%u bytes packed); the serial log has the result",
                       why, plen);
        return;
    }
    row = fbcon_text_row(row, FB_WHITE, FB_BLUE, " The whole result: %u QR code%s (%s), version %u-%c: "
                   "tools/pmuboot-report --from-images PHOTO...", lay.n, lay.n > 1 ? "s" : "",
                   lay.n > 1 ? "1 to n left to right, top down" : "1 of 1", lay.version, "LMQH"[lay.ecc]);
    u32 side = (17 + 4 * lay.version + 2 * RESULT_CODE_QUIET) * lay.scale;
    u32 x0 = (fbcon_fbt.width - lay.cols * side) / 2, y0 = row * 16;
    for (u32 k = 1; k <= lay.n; k++) {
        u32 blen = result_code_build(packed, plen, crc, k, lay.n, code_bytes, sizeof(code_bytes));
        if (!blen || qr_encode(&qr, code_bytes, blen, lay.version, lay.ecc, QR_MASK_AUTO))
            return; /* cannot happen: the layout fitted each part */
        draw_code(x0 + (k - 1) % lay.cols * side, y0 + (k - 1) / lay.cols * side, lay.scale);
    }
}

bool fbfinal_shown(void)
{
    return drawn;
}

void fbcon_final_pages(void)
{
    if (!drawn || !final_per_page || final_per_page >= final_fails)
        return;
    for (u32 first = final_per_page;; first = first + final_per_page < final_fails ? first + final_per_page : 0) {
        udelay(PAGE_SECONDS * 1000000ull);
        fbtext_fill(&fbcon_fbt, 0, FAIL_ROW * 16, fbcon_fbt.width, (final_per_page + 1) * 16, FB_BLACK);
        list_fails(first);
    }
}
