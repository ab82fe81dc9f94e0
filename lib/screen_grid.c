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
        if (n && n <= GRID_THREADS_MAX && n != g->nthreads && n > g->nthreads) {
            g->nthreads = n;
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
    if (!per_cpu) {
        mark(g, s, 0, v, first, last, relayout);
        return true;
    }
    for (u32 j = list; j < list_end;) { /* "0-3,5,7-9" */
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
    return *first != ~0u;
}

void screen_grid_layout(const struct screen_grid *g, u32 x, u32 y, u32 w, u32 h, u32 label_w,
                        struct grid_layout *out)
{
    u32 threads = MAX(g->nthreads, 1u), suites = MAX(g->nsuites, 1u);
    u32 avail = w > label_w ? w - label_w : 1;
    u32 per_cell = (threads + avail - 1) / avail; /* cells of at least one pixel */
    u32 cols = (threads + per_cell - 1) / per_cell;
    *out = (struct grid_layout){
        .x = x + label_w,
        .y = y,
        .cell_w = MIN(16u, MAX(1u, avail / cols)),
        .cell_h = MIN(16u, MAX(1u, h / suites)),
        .per_cell = per_cell,
        .cols = cols,
        .rows = suites,
    };
}

enum grid_verdict screen_grid_cell(const struct screen_grid *g, const struct grid_layout *l, u32 suite, u32 col)
{
    u8 worst = GRID_NONE;
    for (u32 t = col * l->per_cell; t < (col + 1) * l->per_cell && t < g->nthreads && t < GRID_THREADS_MAX; t++)
        worst = MAX(worst, g->v[suite][t]);
    return (enum grid_verdict)worst;
}
