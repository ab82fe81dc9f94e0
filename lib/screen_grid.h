/* The live status grid of a run on a framebuffer (screen=grid, docs/screen.md): suites down, threads across, each
 * cell the worst verdict seen so far for that suite on that thread (FAIL over SKIP over TODO over pass), filled in
 * from the TAP lines as they are written, folded lines (cpu[LIST]/suite/check) on every thread they list. Cells
 * shrink with the thread count; past one pixel a cell, neighbouring threads share a cell, which shows their worst.
 * Portable: the kernel draws what the layout and the cells say. */
#pragma once
#include "lib/types.h"

#define GRID_SUITES_MAX 32
#define GRID_THREADS_MAX 8192
#define GRID_NAME_MAX 15

enum grid_verdict { GRID_NONE, GRID_PASS, GRID_TODO, GRID_SKIP, GRID_FAIL };

struct screen_grid {
    u32 nsuites, nthreads; /* threads: from "# smp: N of M CPUs online", or the highest thread seen + 1 */
    char suite[GRID_SUITES_MAX][GRID_NAME_MAX + 1];
    u8 v[GRID_SUITES_MAX][GRID_THREADS_MAX]; /* enum grid_verdict; a global check counts on thread 0's column */
};

struct grid_layout {
    u32 x, y;            /* the first cell's top left pixel; suite names are left of x */
    u32 cell_w, cell_h;  /* pixels */
    u32 per_cell;        /* threads a cell shows */
    u32 cols, rows;      /* cells across, suites down */
};

void screen_grid_init(struct screen_grid *g);
/* One console line (without its newline). Returns true when the grid changed: *suite is the row, threads
 * [*first, *last] the columns; *relayout when the thread or suite count changed (everything moves). */
bool screen_grid_line(struct screen_grid *g, const char *l, u32 len, u32 *suite, u32 *first, u32 *last,
                      bool *relayout);
/* Cells for the grid in a w x h pixel area at (x, y), the suite names in label_w pixels left of it. */
void screen_grid_layout(const struct screen_grid *g, u32 x, u32 y, u32 w, u32 h, u32 label_w,
                        struct grid_layout *out);
/* The verdict a cell shows: the worst of its threads. */
enum grid_verdict screen_grid_cell(const struct screen_grid *g, const struct grid_layout *l, u32 suite, u32 col);
