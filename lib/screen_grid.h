/* The live status grid of a run on a framebuffer (screen=grid, docs/screen.md): suites down, threads across, each
 * cell the worst verdict seen so far for that suite on that thread (FAIL over SKIP over TODO over pass), filled in
 * from the TAP lines as they are written, folded lines (cpu[LIST]/suite/check) on every thread they list.
 * Threads are grouped as the folded TAP lines group them: a run of consecutive threads whose verdicts agree on every
 * suite so far is one column, labelled with its range ("cpu[8-63]"), so a thread that differs stands alone between
 * its neighbours' groups whatever the thread count (1 to 8192). More groups than pixels: neighbouring groups share a
 * column, which shows their worst. Portable: the kernel draws what the layout and the cells say. */
#pragma once
#include "lib/types.h"

#define GRID_SUITES_MAX 32
#define GRID_THREADS_MAX 8192
#define GRID_NAME_MAX 15
#define GRID_COLS_MAX 1024
#define GRID_CELL_W_MAX 128 /* a column's width at most: its label "cpu[4096-8191]" fits */
#define GRID_LABEL_ROWS 3   /* text rows the column labels are staggered over, at most */
#define GRID_LABEL_MAX 16   /* "cpu[4096-8191]" and its NUL */

enum grid_verdict { GRID_NONE, GRID_PASS, GRID_TODO, GRID_SKIP, GRID_FAIL };

struct screen_grid {
    u32 nsuites, nthreads; /* threads: from "# smp: N of M CPUs online", or the highest thread seen + 1 */
    u32 ngroups;           /* runs of consecutive threads that agree on every suite */
    char suite[GRID_SUITES_MAX][GRID_NAME_MAX + 1];
    u8 v[GRID_SUITES_MAX][GRID_THREADS_MAX]; /* enum grid_verdict of each thread's checks */
    u8 global[GRID_SUITES_MAX];              /* of the checks that run once: shown on the first column */
    bool starts[GRID_THREADS_MAX];           /* thread t > 0 differs from t - 1 on some suite: a new group */
};

struct grid_layout {
    u32 x, y;           /* the first cell's top left pixel; suite names are left of x, labels above y */
    u32 cell_w, cell_h; /* pixels */
    u32 per_cell;       /* groups a column shows (1: every group its own column) */
    u32 cols, rows;     /* columns across, suites down */
    u32 label_y;        /* the first label row's top pixel: label rows at label_y, + 16, ... up to y */
    u32 label_rows;     /* text rows of labels (1 to GRID_LABEL_ROWS) */
    u32 labelled;       /* columns with a label (the others had no room) */
    u16 first[GRID_COLS_MAX + 1]; /* column c shows threads first[c] to first[c + 1] - 1 */
    u8 label_row[GRID_COLS_MAX];  /* column c's label on label row label_row[c] - 1; 0: none */
};

void screen_grid_init(struct screen_grid *g);
/* One console line (without its newline). Returns true when the grid changed: *suite is the row, threads
 * [*first, *last] the columns; *relayout when the thread or suite count or the groups changed (everything moves). */
bool screen_grid_line(struct screen_grid *g, const char *l, u32 len, u32 *suite, u32 *first, u32 *last,
                      bool *relayout);
/* Columns for the grid in a w x h pixel area at (x, y), the suite names in label_w pixels left of it, the column
 * labels in the text rows at the top of the area (y a multiple of 16). */
void screen_grid_layout(const struct screen_grid *g, u32 x, u32 y, u32 w, u32 h, u32 label_w,
                        struct grid_layout *out);
/* The verdict a cell shows: the worst of its threads (and of the suite's checks that run once, on the first). */
enum grid_verdict screen_grid_cell(const struct screen_grid *g, const struct grid_layout *l, u32 suite, u32 col);
/* The column a thread is in (l->cols when past the grid). */
u32 screen_grid_column(const struct grid_layout *l, u32 thread);
/* Column c's label, "cpu5" or "cpu[8-63]", into out (GRID_LABEL_MAX bytes); returns its length. */
u32 screen_grid_label(const struct grid_layout *l, u32 col, char *out);
