/* The final screen (screen=grid, docs/screen.md): the verdict and totals, the machine, the FAILs and the carried
 * stream as QR codes, paged with exit=halt when they do not fit one screen (lib/screen_final.c and
 * lib/result_code.c lay them out, lib/qr.c encodes them, this draws them). */
#include "kernel/fbcon_views.h"

#include <string.h>

#include "kernel/fbcon.h"
#include "lib/crc32.h"
#include "lib/deflate.h"
#include "lib/qr.h"
#include "lib/result_code.h"
#include "lib/screen_final.h"
#include "kernel/console.h"
#include "kernel/timing.h"

static bool drawn;          /* the final screen is up: it stays as drawn, but for its pages */
static struct final_layout flay; /* lib/screen_final.c decides where the FAILs and codes go, and the pages */
static u32 packed_len, stream_crc;
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

/* FAILs [first, end) of the carried stream from row SCREEN_FINAL_FAIL_ROW, and the line that counts them all when
 * a page does not hold them. */
static void list_fails(u32 first, u32 end, u32 page)
{
    u32 pos = 0, row = SCREEN_FINAL_FAIL_ROW, i = 0;
    struct screen_fail f;
    fbtext_fill(&fbcon_fbt, 0, row * 16, fbcon_fbt.width, (flay.caption_row - row) * 16, FB_BLACK);
    while (i < end && screen_final_next_fail(fbcon_stream.buf, fbcon_stream.len, &pos, &f))
        if (i++ >= first)
            row = fbcon_text_row(row, FB_RED, FB_BLACK, " FAIL %u %.*s: %.*s", f.number, (int)f.name_len, f.name,
                                 (int)f.evidence_len, f.evidence);
    if (!flay.fails_per_page && flay.fails)
        fbcon_text_row(SCREEN_FINAL_FAIL_ROW, FB_RED, FB_BLACK, " %u FAILs: no room to list them beside the codes; "
                       "all in the QR codes and the serial log", flay.fails);
    else if (flay.fails_per_page < flay.fails)
        fbcon_text_row(SCREEN_FINAL_FAIL_ROW + flay.fails_per_page, FB_RED, FB_BLACK,
                       " FAILs %u-%u of %u, page %u of %u (every %u s with exit=halt); all in the QR codes",
                       first + 1, end, flay.fails, page % flay.fail_pages + 1, flay.fail_pages,
                       SCREEN_FINAL_PAGE_SECONDS);
}

/* The caption and codes [first, end) below it. */
static void show_codes(u32 first, u32 end, u32 page)
{
    const struct result_layout *c = &flay.codes;
    u32 y0 = (flay.caption_row + 1) * 16;
    fbtext_fill(&fbcon_fbt, 0, flay.caption_row * 16, fbcon_fbt.width, fbcon_fbt.height - flay.caption_row * 16,
                FB_BLACK);
    if (c->pages > 1)
        fbcon_text_row(flay.caption_row, FB_WHITE, FB_BLUE, " The whole result: QR codes %u-%u of %u (page %u of %u, "
                       "every %u s), version %u-%c: photograph all; tools/pmuboot-report --from-images PHOTO...",
                       first + 1, end, c->n, page % c->pages + 1, c->pages, SCREEN_FINAL_PAGE_SECONDS, c->version,
                       "LMQH"[c->ecc]);
    else
        fbcon_text_row(flay.caption_row, FB_WHITE, FB_BLUE, " The whole result: %u QR code%s (%s), version %u-%c: "
                       "tools/pmuboot-report --from-images PHOTO...", c->n, c->n > 1 ? "s" : "",
                       c->n > 1 ? "1 to n left to right, top down" : "1 of 1", c->version, "LMQH"[c->ecc]);
    u32 side = (17 + 4 * c->version + 2 * RESULT_CODE_QUIET) * c->scale;
    u32 x0 = (fbcon_fbt.width - c->cols * side) / 2;
    for (u32 k = first; k < end; k++) {
        u32 blen = result_code_build(packed, packed_len, stream_crc, k + 1, c->n, code_bytes, sizeof(code_bytes));
        if (!blen || qr_encode(&qr, code_bytes, blen, c->version, c->ecc, QR_MASK_AUTO))
            return; /* cannot happen: the layout fitted each part */
        u32 at = k - first;
        draw_code(x0 + at % c->cols * side, y0 + at / c->cols * side, c->scale);
    }
}

/* Page p (from 0) of the final screen: its FAILs and its codes. */
static void show_page(u32 page)
{
    u32 f0, f1, c0, c1;
    screen_final_page(&flay, page, &f0, &f1, &c0, &c1);
    list_fails(f0, f1, page);
    if (flay.no_codes)
        fbcon_text_row(flay.caption_row, FB_YELLOW, FB_BLACK, " No QR codes: %s (%u bytes packed); the serial log "
                       "has the result", flay.no_codes, packed_len);
    else if (page == 0 || flay.codes.pages > 1)
        show_codes(c0, c1, page);
}

/* The final screen: the verdict and totals, the machine, the FAILs and the carried stream as QR codes below them
 * (docs/screen.md), page 1 of them. */
void fbfinal_show(u32 passed, u32 failed, u32 skipped)
{
    const char *s = fbcon_stream.buf;
    u32 len = fbcon_stream.len, nfails = 0, pos = 0;
    struct screen_fail f;
    while (screen_final_next_fail(s, len, &pos, &f))
        nfails++;
    packed_len = deflate_zlib(&dstate, (const u8 *)s, len, packed, sizeof(packed));
    stream_crc = crc32_update(0, (const u8 *)s, len);
    screen_final_layout(nfails, packed_len, fbcon_fbt.width, fbcon_fbt.height, &flay);
    drawn = true;
    fbtext_clear(&fbcon_fbt);
    u32 row = fbcon_text_row(0, FB_BLACK, failed ? FB_RED : FB_GREEN,
                             " pmuboot %s: %u passed, %u failed, %u skipped - run complete",
                             failed ? "FAILED" : "PASSED", passed, failed, skipped);
    u32 n;
    const char *c = screen_final_comment(s, len, "cpu: ", &n);
    row = fbcon_text_row(row, FB_WHITE, FB_BLACK, " cpu: %.*s", c ? (int)n : 7, c ? c : "unknown");
    c = screen_final_comment(s, len, "smp: ", &n);
    fbcon_text_row(row, FB_WHITE, FB_BLACK, " smp: %.*s", c ? (int)n : 7, c ? c : "unknown");
    show_page(0);
}

bool fbfinal_shown(void)
{
    return drawn;
}

/* The page on the serial port too, so that whoever photographs the screen (tools/screenshot.sh --pages) knows
 * what it shows and when it changed. */
static void page_marker(u32 page)
{
    u32 f0, f1, c0, c1;
    screen_final_page(&flay, page, &f0, &f1, &c0, &c1);
    kprintf("# screen: page %u of %u: FAILs %u-%u of %u listed, QR codes %u-%u of %u\n", page + 1, flay.pages,
            f1 > f0 ? f0 + 1 : 0, f1, flay.fails, c1 > c0 ? c0 + 1 : 0, c1, flay.codes.n);
}

void fbcon_final_pages(void)
{
    if (!drawn)
        return;
    page_marker(0);
    for (u32 page = 1; flay.pages > 1; page = (page + 1) % flay.pages) {
        udelay(SCREEN_FINAL_PAGE_SECONDS * 1000000ull);
        show_page(page);
        page_marker(page);
    }
}
