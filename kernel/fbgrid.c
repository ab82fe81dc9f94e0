/* The live grid on the screen (screen=grid, docs/screen.md): suites down, threads across in groups that agree, each
 * cell the worst verdict so far (lib/screen_grid.c decides, this draws), the CPU and threads above it, each
 * column's thread range above its cells. */
#include "kernel/fbcon_views.h"

#include <string.h>

#include "lib/screen_final.h"
#include "lib/screen_grid.h"
#include "kernel/portable/kernel_options.h"
#include "kernel/console.h"

static struct screen_grid grid;
static struct grid_layout glay;
static bool shown;
#define GRID_TOP_ROWS 3 /* title, cpu, smp; the column labels below them */

static const enum fbtext_color grid_colour[] = {
    [GRID_NONE] = FB_DARK, [GRID_PASS] = FB_GREEN, [GRID_TODO] = FB_BLUE, [GRID_SKIP] = FB_YELLOW, [GRID_FAIL] = FB_RED,
};

static void grid_cell(u32 suite, u32 col)
{
    u32 w = glay.cell_w > 3 ? glay.cell_w - 1 : glay.cell_w, h = glay.cell_h > 3 ? glay.cell_h - 2 : glay.cell_h;
    fbtext_fill(&fbcon_fbt, glay.x + col * glay.cell_w, glay.y + suite * glay.cell_h, w, h,
                grid_colour[screen_grid_cell(&grid, &glay, suite, col)]);
}

/* The pixels right of the suite names the grid and its labels may cover: what a redraw clears. */
static u32 grid_right(void)
{
    return MIN(fbcon_fbt.width, glay.x + glay.cols * glay.cell_w + GRID_LABEL_MAX * 8);
}

/* The grid again: the thread or suite count or the groups changed, or it is first shown. Only the area the old and
 * new grid cover is drawn again (an unfolded run changes its groups on most lines), the rows above it only when the
 * thread count changed. */
static void grid_redraw(void)
{
    static u32 header_threads = ~0u;
    u32 top = GRID_TOP_ROWS * 16, old_bottom = glay.y + glay.rows * glay.cell_h, old_right = grid_right();
    screen_grid_layout(&grid, 0, top, fbcon_fbt.width, fbcon_fbt.height - top - 16, (GRID_NAME_MAX + 1) * 8, &glay);
    u32 bottom = MIN(MAX(old_bottom, glay.y + glay.rows * glay.cell_h), fbcon_fbt.height - 16);
    u32 right = MAX(old_right, grid_right());
    if (header_threads != grid.nthreads) {
        header_threads = grid.nthreads;
        fbcon_text_row(0, FB_WHITE, FB_BLUE,
                       " pmuboot: suites down, %u thread%s across, those that agree in one column; green pass, red "
                       "FAIL, yellow SKIP, blue TODO",
                       grid.nthreads, grid.nthreads == 1 ? "" : "s");
        u32 n;
        const char *c = screen_final_comment(fbcon_stream.buf, fbcon_stream.len, "cpu: ", &n);
        if (c)
            fbcon_text_row(1, FB_GREY, FB_BLACK, " cpu: %.*s", (int)n, c);
        c = screen_final_comment(fbcon_stream.buf, fbcon_stream.len, "smp: ", &n);
        if (c)
            fbcon_text_row(2, FB_GREY, FB_BLACK, " smp: %.*s", (int)n, c);
    }
    /* Band by band, each cleared and drawn at once: a screen read mid-redraw (a camera, a screendump) sees at most
     * one band in between. */
    char label[GRID_LABEL_MAX];
    for (u32 y = top; y < bottom; y += 16) {
        fbtext_fill(&fbcon_fbt, 0, y, right, MIN(16u, bottom - y), FB_BLACK);
        for (u32 col = 0; col < glay.cols; col++)
            if (glay.label_row[col] && glay.label_y + (glay.label_row[col] - 1) * 16 == y)
                fbtext_text(&fbcon_fbt, y / 16, (glay.x + col * glay.cell_w) / 8, label,
                            screen_grid_label(&glay, col, label), FB_WHITE, FB_BLACK);
        for (u32 s = 0; s < grid.nsuites; s++) {
            u32 sy = glay.y + s * glay.cell_h;
            if (sy + glay.cell_h <= y || sy >= y + 16) /* rows of cells lower than a band may straddle two */
                continue;
            if (glay.cell_h == 16)
                fbtext_text(&fbcon_fbt, sy / 16, 1, grid.suite[s], (u32)strlen(grid.suite[s]), FB_WHITE, FB_BLACK);
            for (u32 col = 0; col < glay.cols; col++)
                grid_cell(s, col);
        }
    }
}

void fbgrid_line(const char *l, u32 len)
{
    u32 suite, first, last;
    bool relayout;
    if (!screen_grid_line(&grid, l, len, &suite, &first, &last, &relayout))
        return;
    if (!shown)
        return;
    if (relayout) {
        grid_redraw();
        return;
    }
    for (u32 col = screen_grid_column(&glay, first); col <= screen_grid_column(&glay, last) && col < glay.cols; col++)
        grid_cell(suite, col);
}

/* screen=grid: from the command line on, the grid takes the screen; the lines so far are in it already. */
void fbgrid_start(void)
{
    if (kernel_options()->screen_log || shown)
        return;
    shown = true;
    fbtext_clear(&fbcon_fbt); /* the log mirrored so far */
    grid_redraw();
}

bool fbgrid_shown(void)
{
    return shown;
}

void fbgrid_report(void)
{
    if (shown)
        console_comment("framebuffer: grid of %u suite%s by %u thread%s in %u group%s of threads that agree (%u "
                        "column%s, %u labelled); the final screen comes next: the totals, the FAILs and the result in "
                        "QR codes (%u bytes of the stream carried%s)",
                        grid.nsuites, grid.nsuites == 1 ? "" : "s", grid.nthreads, grid.nthreads == 1 ? "" : "s",
                        grid.ngroups, grid.ngroups == 1 ? "" : "s", glay.cols, glay.cols == 1 ? "" : "s",
                        glay.labelled, fbcon_stream.len,
                        fbcon_stream.full ? ", cut: buffer full" : "");
}
