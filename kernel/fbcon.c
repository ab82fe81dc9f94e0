/* Framebuffer mirror (see fbcon.h). Below 4 GiB the framebuffer lies in the boot identity map (write-back pages:
 * the MTRRs decide, usually WC or UC); above 4 GiB (Above-4G decoding) it is mapped uncached-minus, which an
 * MTRR WC range makes WC (kernel/paging.c). Writes only, never read back. */
#include "kernel/fbcon.h"

#include <stdarg.h>
#include <string.h>

#include "lib/crc32.h"
#include "lib/deflate.h"
#include "lib/fbtext.h"
#include "lib/format.h"
#include "lib/qr.h"
#include "lib/result_code.h"
#include "lib/result_stream.h"
#include "lib/screen_final.h"
#include "lib/screen_grid.h"
#include "kernel/globals.h"
#include "kernel/paging.h"
#include "kernel/report.h"
#include "kernel/timing.h"
#include "kernel/x86.h"

static struct fbtext fbt;
static bool active;
static bool final_shown; /* the final screen stays as drawn: later console lines (the exit's) go to serial only */
static u32 final_fails, final_per_page; /* FAILs in all, and listed at once from row FAIL_ROW */
#define FAIL_ROW 4
#define PAGE_SECONDS 8
/* The final screen (screen=grid): the stream its QR codes carry, kept as it is written. */
static char carried[256 * 1024];
static struct result_stream rstream;
static struct deflate_state dstate;
static u8 packed[64 * 1024], code_bytes[QR_CODEWORDS_MAX];
static struct qr_code qr;
/* The live grid (screen=grid, once the command line is read): suites down, threads across (lib/screen_grid.h). */
static struct screen_grid grid;
static struct grid_layout glay;
static bool grid_shown;
static char gline[RESULT_LINE_MAX];
static u32 gline_len;
static u64 start_tsc;
#define GRID_TOP_ROWS 4 /* title, cpu, smp, a blank */
static const struct boot_fb *fb;
static const char *why_not = "the loader gave no multiboot2 framebuffer tag";

void fbcon_init(const struct boot_info *bi)
{
    if (!bi->has_fb)
        return;
    fb = &bi->fb;
    why_not = fbtext_unusable(fb);
    if (why_not)
        return;
    static char not_mapped[120];
    const char *why = paging_map_device(fb->addr, (u64)fb->pitch * fb->height);
    if (why) {
        k_snprintf(not_mapped, sizeof(not_mapped), "above 4 GiB and not mappable: %s", why);
        why_not = not_mapped;
        return;
    }
    fbtext_init(&fbt, fb, (u8 *)(uintptr_t)fb->addr);
    result_stream_init(&rstream, carried, sizeof(carried));
    screen_grid_init(&grid);
    start_tsc = rdtsc();
    active = true;
    fbtext_status(&fbt, "pmuboot: starting", FB_WHITE, FB_BLUE);
}

static const enum fbtext_color grid_colour[] = {
    [GRID_NONE] = FB_DARK, [GRID_PASS] = FB_GREEN, [GRID_TODO] = FB_BLUE, [GRID_SKIP] = FB_YELLOW, [GRID_FAIL] = FB_RED,
};

static void grid_cell(u32 suite, u32 col)
{
    u32 w = glay.cell_w > 3 ? glay.cell_w - 1 : glay.cell_w, h = glay.cell_h > 3 ? glay.cell_h - 2 : glay.cell_h;
    fbtext_fill(&fbt, glay.x + col * glay.cell_w, glay.y + suite * glay.cell_h, w, h,
                grid_colour[screen_grid_cell(&grid, &glay, suite, col)]);
}

static u32 text_row(u32 row, enum fbtext_color fg, enum fbtext_color bg, const char *fmt, ...) PRINTF_LIKE(4, 5);

/* Everything again: the thread or suite count changed, or the grid is first shown. */
static void grid_redraw(void)
{
    fbtext_clear(&fbt);
    u32 top = GRID_TOP_ROWS * 16;
    screen_grid_layout(&grid, 0, top, fbt.width, fbt.height - top - 16, (GRID_NAME_MAX + 1) * 8, &glay);
    text_row(0, FB_WHITE, FB_BLUE, " pmuboot: suites down, %u thread%s across%s; green pass, red FAIL, yellow SKIP, "
             "blue TODO (screen=log: the checklist)", grid.nthreads, grid.nthreads == 1 ? "" : "s",
             glay.per_cell > 1 ? ", several a cell" : "");
    u32 n;
    const char *c = screen_final_comment(rstream.buf, rstream.len, "cpu: ", &n);
    if (c)
        text_row(1, FB_GREY, FB_BLACK, " cpu: %.*s", (int)n, c);
    c = screen_final_comment(rstream.buf, rstream.len, "smp: ", &n);
    if (c)
        text_row(2, FB_GREY, FB_BLACK, " smp: %.*s", (int)n, c);
    for (u32 s = 0; s < grid.nsuites; s++) {
        if (glay.cell_h == 16)
            fbtext_text(&fbt, GRID_TOP_ROWS + s, 1, grid.suite[s], (u32)strlen(grid.suite[s]), FB_WHITE, FB_BLACK);
        for (u32 col = 0; col < glay.cols; col++)
            grid_cell(s, col);
    }
}

static void grid_line(const char *l, u32 len)
{
    u32 suite, first, last;
    bool relayout;
    if (!screen_grid_line(&grid, l, len, &suite, &first, &last, &relayout))
        return;
    if (!grid_shown)
        return;
    if (relayout) {
        grid_redraw();
        return;
    }
    for (u32 col = first / glay.per_cell; col <= last / glay.per_cell && col < glay.cols; col++)
        grid_cell(suite, col);
}

void fbcon_putc(char c)
{
    if (!active || final_shown)
        return;
    result_stream_putc(&rstream, c);
    if (c == '\n') {
        grid_line(gline, gline_len);
        gline_len = 0;
    } else if (c != '\r' && gline_len < sizeof(gline))
        gline[gline_len++] = c;
    if (!grid_shown)
        fbtext_putc(&fbt, c);
}

/* screen=grid: from the command line on, the grid takes the screen; the lines so far are in it already. */
static void grid_start(void)
{
    if (g_options.screen_log || grid_shown)
        return;
    grid_shown = true;
    grid_redraw();
}

/* One code with its quiet zone, light modules white and dark black, at pixel (x, y). */
static void draw_code(u32 x, u32 y, u32 scale)
{
    u32 side = (qr.size + 2 * RESULT_CODE_QUIET) * scale;
    fbtext_fill(&fbt, x, y, side, side, FB_WHITE);
    for (u32 my = 0; my < qr.size; my++)
        for (u32 mx = 0; mx < qr.size; mx++)
            if (qr_module(&qr, mx, my))
                fbtext_fill(&fbt, x + (mx + RESULT_CODE_QUIET) * scale, y + (my + RESULT_CODE_QUIET) * scale, scale,
                            scale, FB_BLACK);
}

static u32 text_row(u32 row, enum fbtext_color fg, enum fbtext_color bg, const char *fmt, ...)
{
    char s[FBTEXT_MAX_COLS + 1];
    va_list ap;
    va_start(ap, fmt);
    k_vsnprintf(s, sizeof(s), fmt, ap);
    va_end(ap);
    u32 n = (u32)strlen(s);
    fbtext_text(&fbt, row, 0, s, n, fg, bg);
    if (bg != FB_BLACK) /* a bar: the whole row */
        for (u32 c = n; c < fbt.cols; c++)
            fbtext_text(&fbt, row, c, " ", 1, fg, bg);
    return row + 1;
}

/* FAILs first.. of the carried stream from row FAIL_ROW, as many as a page holds, and a line for the others. */
static u32 list_fails(u32 first)
{
    u32 pos = 0, row = FAIL_ROW, i = 0;
    struct screen_fail f;
    while (i < first + final_per_page && screen_final_next_fail(rstream.buf, rstream.len, &pos, &f))
        if (i++ >= first)
            row = text_row(row, FB_RED, FB_BLACK, " FAIL %u %.*s: %.*s", f.number, (int)f.name_len, f.name,
                           (int)f.evidence_len, f.evidence);
    if (final_per_page < final_fails) {
        u32 pages = (final_fails + final_per_page - 1) / final_per_page;
        row = text_row(FAIL_ROW + final_per_page, FB_RED, FB_BLACK,
                       " FAILs %u-%u of %u, page %u of %u (every %u s with exit=halt); all in the QR codes",
                       first + 1, MIN(first + final_per_page, final_fails), final_fails, first / final_per_page + 1,
                       pages, PAGE_SECONDS);
    }
    return row;
}

/* The final screen: the verdict and totals, the machine, every FAIL (as many as leave the codes room), and the
 * carried stream as QR codes below (docs/screen.md). */
static void final_screen(u32 passed, u32 failed, u32 skipped)
{
    const char *s = rstream.buf;
    u32 len = rstream.len, nfails = 0, pos = 0;
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
        why = rows * 16 < fbt.height
                  ? result_code_layout(plen, fbt.width, fbt.height - rows * 16, 2, RESULT_CODE_MAX, &lay)
                  : "no room below the text";
        if (!why || !shown)
            break;
        why = NULL;
        shown = shown > 4 ? 4 : 0; /* fewer FAILs listed leave the codes more room */
    }
    if (why) /* no codes: the screen is the FAILs' */
        shown = MIN(nfails, fbt.rows > 7 ? fbt.rows - 7 : 0);
    final_shown = true;
    fbtext_clear(&fbt);
    u32 row = text_row(0, FB_BLACK, failed ? FB_RED : FB_GREEN, " pmuboot %s: %u passed, %u failed, %u skipped - run complete",
                       failed ? "FAILED" : "PASSED", passed, failed, skipped);
    u32 n;
    const char *c = screen_final_comment(s, len, "cpu: ", &n);
    row = text_row(row, FB_WHITE, FB_BLACK, " cpu: %.*s", c ? (int)n : 7, c ? c : "unknown");
    c = screen_final_comment(s, len, "smp: ", &n);
    row = text_row(row, FB_WHITE, FB_BLACK, " smp: %.*s", c ? (int)n : 7, c ? c : "unknown");
    row++;
    final_fails = nfails;
    final_per_page = shown;
    row = list_fails(0);
    if (why) {
        text_row(row, FB_YELLOW, FB_BLACK, " No QR codes: %s (%u bytes packed); the serial log has the result", why, plen);
        return;
    }
    row = text_row(row, FB_WHITE, FB_BLUE, " The whole result: %u QR code%s (%s), version %u-%c: "
                   "tools/pmuboot-report --from-images PHOTO...", lay.n, lay.n > 1 ? "s" : "",
                   lay.n > 1 ? "1 to n left to right, top down" : "1 of 1", lay.version, "LMQH"[lay.ecc]);
    u32 side = (17 + 4 * lay.version + 2 * RESULT_CODE_QUIET) * lay.scale;
    u32 x0 = (fbt.width - lay.cols * side) / 2, y0 = row * 16;
    for (u32 k = 1; k <= lay.n; k++) {
        u32 blen = result_code_build(packed, plen, crc, k, lay.n, code_bytes, sizeof(code_bytes));
        if (!blen || qr_encode(&qr, code_bytes, blen, lay.version, lay.ecc, QR_MASK_AUTO))
            return; /* cannot happen: the layout fitted each part */
        draw_code(x0 + (k - 1) % lay.cols * side, y0 + (k - 1) / lay.cols * side, lay.scale);
    }
}

void fbcon_progress(u32 passed, u32 failed, u32 skipped, const char *last, u32 len, bool done)
{
    if (!active)
        return;
    u32 name = 0;
    while (name < len && last[name] && last[name] != ' ' && last[name] != '\n')
        name++;
    char s[FBTEXT_MAX_COLS + 1];
    if (done && !g_options.screen_log) {
        final_screen(passed, failed, skipped);
        return;
    }
    if (done)
        k_snprintf(s, sizeof(s), "pmuboot %s: %u passed, %u failed, %u skipped - run complete",
                   failed ? "FAILED" : "PASSED", passed, failed, skipped);
    else
        k_snprintf(s, sizeof(s), "pmuboot running %llu s: %u passed, %u failed, %u skipped so far | %.*s",
                   (unsigned long long)(tsc_to_us(rdtsc() - start_tsc) / 1000000), passed, failed, skipped, (int)name,
                   last);
    fbtext_status(&fbt, s, done ? FB_BLACK : FB_WHITE, done ? (failed ? FB_RED : FB_GREEN) : FB_BLUE);
}

void fbcon_report(void)
{
    if (!fb) {
        report_comment("framebuffer: none (%s)", why_not);
        return;
    }
    if (!active) {
        report_comment("framebuffer: %ux%u %u bpp type %u at 0x%llx: not mirrored (%s)", fb->width, fb->height,
                       fb->bpp, fb->type, (unsigned long long)fb->addr, why_not);
        return;
    }
    report_comment("framebuffer: %ux%u %u bpp RGB at 0x%llx pitch %u: checklist mirrored (%ux%u text, 8x16 font, "
                   "status line at the bottom)%s",
                   fb->width, fb->height, fb->bpp, (unsigned long long)fb->addr, fb->pitch, fbt.cols, fbt.rows,
                   g_options.screen_log ? "" : "; screen=grid: from here the live grid, at the end the totals, the "
                                               "FAILs and the result as QR codes");
    grid_start();
}

void fbcon_report_end(void)
{
    if (!active)
        return;
    report_comment("framebuffer: %u lines mirrored, %u YAML/blank lines left to the serial log, %u scrolls%s",
                   fbt.lines_shown, fbt.lines_hidden, fbt.scrolls,
                   grid_shown ? " (before the grid took the screen)" : "");
    if (grid_shown)
        report_comment("framebuffer: grid of %u suites by %u threads (%u a cell); the final screen comes next: the "
                       "totals, the FAILs and the result in QR codes (%u bytes of the stream carried%s)",
                       grid.nsuites, grid.nthreads, glay.per_cell, rstream.len, rstream.full ? ", cut: buffer full" : "");
}

void fbcon_final_pages(void)
{
    if (!final_shown || !final_per_page || final_per_page >= final_fails)
        return;
    for (u32 first = final_per_page;; first = first + final_per_page < final_fails ? first + final_per_page : 0) {
        udelay(PAGE_SECONDS * 1000000ull);
        fbtext_fill(&fbt, 0, FAIL_ROW * 16, fbt.width, (final_per_page + 1) * 16, FB_BLACK);
        list_fails(first);
    }
}
