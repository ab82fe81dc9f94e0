/* The live status grid (see screen_grid.h). */
#include "lib/screen_grid.h"

#include <string.h>

#include "lib/span.h"

void screen_grid_init(struct screen_grid *g)
{
    memset(g, 0, sizeof(*g));
}

static u32 number(const char *s, u32 len, u32 *i)
{
    u32 v = 0;
    while (*i < len && s[*i] >= '0' && s[*i] <= '9' && v < 100000000)
        v = v * 10 + (u32)(s[(*i)++] - '0');
    return v;
}

static u32 suite_row(struct screen_grid *g, const char *name, u32 n, bool *relayout)
{
    n = MIN(n, (u32)GRID_NAME_MAX);
    for (u32 i = 0; i < g->nsuites; i++)
        if (strlen(g->suite[i]) == n && memcmp(g->suite[i], name, n) == 0)
            return i;
    if (g->nsuites == GRID_SUITES_MAX)
        return GRID_SUITES_MAX - 1; /* the last row takes the rest */
    memcpy(g->suite[g->nsuites], name, n);
    g->suite[g->nsuites][n] = 0;
    *relayout = true;
    return g->nsuites++;
}

static bool agree(const struct screen_grid *g, u32 a, u32 b)
{
    for (u32 s = 0; s < g->nsuites; s++)
        if (g->v[s][a] != g->v[s][b])
            return false;
    return true;
}

/* Where groups start among threads [a, b] (each compared with the one before); true when one changed. */
static bool regroup(struct screen_grid *g, u32 a, u32 b)
{
    bool changed = false;
    for (u32 t = MAX(a, 1u); t <= b && t < g->nthreads; t++) {
        bool start = !agree(g, t - 1, t);
        if (start != g->starts[t]) {
            g->starts[t] = start;
            g->ngroups = start ? g->ngroups + 1 : g->ngroups - 1;
            changed = true;
        }
    }
    return changed;
}

static void regroup_all(struct screen_grid *g)
{
    g->ngroups = g->nthreads ? 1 : 0;
    for (u32 t = 1; t < g->nthreads; t++) {
        g->starts[t] = !agree(g, t - 1, t);
        g->ngroups += g->starts[t];
    }
}

static void mark(struct screen_grid *g, u32 s, u32 cpu, u8 v, u32 *first, u32 *last, bool *relayout)
{
    if (cpu >= GRID_THREADS_MAX)
        return;
    if (cpu >= g->nthreads) {
        g->nthreads = cpu + 1;
        *relayout = true;
    }
    if (v > g->v[s][cpu])
        g->v[s][cpu] = v;
    *first = MIN(*first, cpu);
    *last = MAX(*last, cpu);
}

bool screen_grid_line(struct screen_grid *g, const char *l, u32 len, u32 *suite, u32 *first, u32 *last,
                      bool *relayout)
{
    *relayout = false;
    if (span_starts(l, len, "# smp: ")) { /* "# smp: N of M CPUs online" */
        u32 i = 7, n = number(l, len, &i);
        if (n && n <= GRID_THREADS_MAX && n > g->nthreads) {
            g->nthreads = n;
            regroup_all(g);
            *relayout = true;
        }
        return *relayout;
    }
    bool ok = span_starts(l, len, "ok "), notok = span_starts(l, len, "not ok ");
    if (!ok && !notok)
        return false;
    u32 i = ok ? 3 : 7;
    number(l, len, &i);
    if (!span_starts(l + i, len - i, " - "))
        return false;
    i += 3;
    u8 v = span_contains(l, len, " # TODO") ? GRID_TODO : notok ? GRID_FAIL : span_contains(l, len, " # SKIP") ? GRID_SKIP
                                                                                                  : GRID_PASS;
    *first = ~0u;
    *last = 0;
    u32 list = 0, list_end = 0;
    bool per_cpu = false;
    if (span_starts(l + i, len - i, "cpu[")) {
        list = i + 4;
        list_end = list;
        while (list_end < len && l[list_end] != ']')
            list_end++;
        i = list_end + 2; /* past "]/" */
        per_cpu = true;
    } else if (span_starts(l + i, len - i, "cpu") && i + 3 < len && l[i + 3] >= '0' && l[i + 3] <= '9') {
        list = i + 3;
        list_end = list;
        while (list_end < len && l[list_end] != '/')
            list_end++;
        i = list_end + 1;
        per_cpu = true;
    }
    if (i >= len)
        return false;
    u32 name_end = i;
    while (name_end < len && l[name_end] != '/' && l[name_end] != ' ')
        name_end++;
    if (name_end == len || l[name_end] != '/')
        return false; /* not suite/check */
    u32 s = suite_row(g, l + i, name_end - i, relayout);
    *suite = s;
    if (!per_cpu) { /* on the first column, but not part of any thread's verdicts: it groups no thread apart */
        g->global[s] = MAX(g->global[s], v);
        if (!g->nthreads) {
            g->nthreads = 1;
            *relayout = true;
        }
        *first = *last = 0;
    }
    for (u32 j = list; per_cpu && j < list_end;) { /* "0-3,5,7-9" */
        u32 a = number(l, list_end, &j), b = a;
        if (j < list_end && l[j] == '-') {
            j++;
            b = number(l, list_end, &j);
        }
        for (u32 c = a; c <= b && c < GRID_THREADS_MAX; c++)
            mark(g, s, c, v, first, last, relayout);
        if (j < list_end && l[j] == ',')
            j++;
        else if (j < list_end)
            break; /* not a list: leave the rest */
    }
    if (*first == ~0u)
        return false;
    if (!per_cpu && !*relayout)
        return true;
    if (*relayout) /* a new thread or suite: every thread compared again */
        regroup_all(g);
    else if (regroup(g, *first, *last + 1))
        *relayout = true;
    return true;
}

static u32 digits(u32 v, char *out)
{
    char d[10];
    u32 n = 0, len = 0;
    do
        d[n++] = (char)('0' + v % 10);
    while ((v /= 10));
    while (n)
        out[len++] = d[--n];
    return len;
}

u32 screen_grid_label(const struct grid_layout *l, u32 col, char *out)
{
    u32 a = l->first[col], b = l->first[col + 1] - 1, n = 3;
    memcpy(out, "cpu", 3);
    if (a == b) {
        n += digits(a, out + n);
    } else {
        out[n++] = '[';
        n += digits(a, out + n);
        out[n++] = '-';
        n += digits(b, out + n);
        out[n++] = ']';
    }
    out[n] = 0;
    return n;
}

void screen_grid_layout(const struct screen_grid *g, u32 x, u32 y, u32 w, u32 h, u32 label_w,
                        struct grid_layout *out)
{
    u32 threads = MAX(g->nthreads, 1u), suites = MAX(g->nsuites, 1u), groups = MAX(g->ngroups, 1u);
    u32 avail = w > label_w ? w - label_w : 1, most = MIN(avail, (u32)GRID_COLS_MAX);
    u32 per_cell = (groups + most - 1) / most; /* columns of at least one pixel */
    u32 cols = (groups + per_cell - 1) / per_cell;
    out->x = x + label_w;
    out->per_cell = per_cell;
    out->cols = cols;
    out->rows = suites;
    out->cell_w = MIN((u32)GRID_CELL_W_MAX, MAX(1u, avail / cols));
    /* Column c starts at group c * per_cell. */
    u32 col = 0, group = 0;
    for (u32 t = 0; t < threads && col < cols; t++) {
        if (t > 0 && (t >= GRID_THREADS_MAX || !g->starts[t]))
            continue;
        if (group++ % per_cell == 0)
            out->first[col++] = (u16)t;
    }
    out->first[cols] = (u16)threads;
    /* Labels: each on the first row where it clears the label before it, else none. */
    u32 free_at[GRID_LABEL_ROWS] = {0};
    char label[GRID_LABEL_MAX];
    out->label_rows = 1;
    out->labelled = 0;
    for (u32 c = 0; c < cols; c++) {
        u32 at = (out->x + c * out->cell_w) / 8, len = screen_grid_label(out, c, label);
        out->label_row[c] = 0;
        for (u32 r = 0; r < GRID_LABEL_ROWS; r++)
            if (at >= free_at[r] && (at + len) * 8 <= x + w) {
                free_at[r] = at + len + 1;
                out->label_row[c] = (u8)(r + 1);
                out->label_rows = MAX(out->label_rows, r + 1);
                out->labelled++;
                break;
            }
    }
    out->label_y = y;
    out->y = y + out->label_rows * 16;
    u32 left = h > out->label_rows * 16 ? h - out->label_rows * 16 : 1;
    out->cell_h = MIN(16u, MAX(1u, left / suites));
}

u32 screen_grid_column(const struct grid_layout *l, u32 thread)
{
    u32 lo = 0, hi = l->cols; /* the last column whose first thread is <= thread */
    if (thread >= l->first[l->cols])
        return l->cols;
    while (hi - lo > 1) {
        u32 mid = (lo + hi) / 2;
        if (l->first[mid] <= thread)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

enum grid_verdict screen_grid_cell(const struct screen_grid *g, const struct grid_layout *l, u32 suite, u32 col)
{
    u8 worst = col == 0 ? g->global[suite] : GRID_NONE;
    for (u32 t = l->first[col]; t < l->first[col + 1] && t < g->nthreads && t < GRID_THREADS_MAX; t++)
        worst = MAX(worst, g->v[suite][t]);
    return (enum grid_verdict)worst;
}
