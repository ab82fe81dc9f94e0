/* tap-fold: fold a pmuboot stream printed with fold=off the way the kernel folds it (lib/tap_fold.c, the same
 * code), so a folded and an unfolded stream of one run can be compared (tools/check.sh: their per-thread
 * reports must agree).
 *
 *   tap-fold LOG > FOLDED
 *
 * Within each suite the kernel prints a per-CPU check's verdicts together, the agreeing threads as one line;
 * fold=off prints cpu0's checks in table order, then cpu1's. Here each run of per-CPU test points of one suite
 * is regrouped check by check (in the order cpu0 printed them), the comments inside it go before it, the test
 * points are renumbered, and the plan and the summary line are recounted. Exit status 0, or 2 for an unreadable
 * log or one without a TAP stream. */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/tap_fold.h"

struct point {
    bool not_ok;
    bool global; /* a global check: printed as it is */
    char suite[64], check[96];
    u32 cpu;
    char *text; /* " - name...\n" and the YAML block */
    u32 len;
};

static struct point *pts;
static u32 npts, cap_pts;
static char **comments; /* the comments inside the current run of per-CPU points */
static u32 ncomments, cap_comments;
static u32 number, passed, failed, skipped;

static void *grow(void *p, u32 *cap, size_t elem)
{
    *cap = *cap ? *cap * 2 : 64;
    p = realloc(p, *cap * elem);
    if (!p) {
        fprintf(stderr, "tap-fold: out of memory\n");
        exit(2);
    }
    return p;
}

static void count(bool not_ok, const char *text)
{
    const char *nl = strchr(text, '\n');
    size_t n = nl ? (size_t)(nl - text) : strlen(text);
    bool todo = memmem(text, n, " # TODO ", 8) != NULL, skip = memmem(text, n, " # SKIP ", 8) != NULL;
    if (not_ok && !todo)
        failed++;
    else if (skip)
        skipped++;
    else
        passed++;
}

static void emit(bool not_ok, const char *text)
{
    printf("%s %u%s", not_ok ? "not ok" : "ok", ++number, text);
    count(not_ok, text);
}

static void emit_folded(void *not_ok, const char *text, u32 len)
{
    (void)len;
    emit(*(const bool *)not_ok, text);
}

/* Print the run of per-CPU points held: its comments, then check by check the groups of agreeing threads. */
static void flush(void)
{
    for (u32 i = 0; i < ncomments; i++) {
        fputs(comments[i], stdout);
        free(comments[i]);
    }
    ncomments = 0;
    bool *done = calloc(npts + 1, sizeof(bool));
    u32 *group = calloc(npts + 1, sizeof(u32)); /* a point's group among its check's (TAP_FOLD_GROUPS: none) */
    struct tap_fold_item *items = calloc(npts + 1, sizeof(*items));
    u32 *scratch = calloc(3 * (npts + 1), sizeof(u32));
    static char out[TAP_FOLD_OUT_MAX];
    for (u32 i = 0; i < npts; i++) {
        if (done[i])
            continue;
        if (pts[i].global) {
            emit(pts[i].not_ok, pts[i].text);
            done[i] = true;
            continue;
        }
        /* Check pts[i].check, as the kernel groups it (harness/cpu_report.c fold_assign): each thread joins the
         * first group its verdict folds with, or starts one while fewer than TAP_FOLD_GROUPS exist. */
        u32 first[TAP_FOLD_GROUPS], groups = 0;
        for (u32 k = i; k < npts; k++) {
            if (done[k] || strcmp(pts[k].check, pts[i].check))
                continue;
            u32 g = 0;
            while (g < groups && !(pts[first[g]].not_ok == pts[k].not_ok &&
                                   tap_fold_same_shape(pts[first[g]].text, pts[first[g]].len, pts[k].text, pts[k].len)))
                g++;
            if (g == groups && groups < TAP_FOLD_GROUPS)
                first[groups++] = k;
            group[k] = g < groups ? g : TAP_FOLD_GROUPS;
        }
        /* Printed in thread order: a group where its first thread stands, a thread in no group alone. */
        for (u32 k = i; k < npts; k++) {
            if (done[k] || strcmp(pts[k].check, pts[i].check))
                continue;
            u32 g = group[k];
            if (g == TAP_FOLD_GROUPS) {
                emit(pts[k].not_ok, pts[k].text);
                done[k] = true;
                continue;
            }
            u32 n = 0;
            for (u32 m = k; m < npts; m++)
                if (!done[m] && !strcmp(pts[m].check, pts[i].check) && group[m] == g) {
                    items[n++] = (struct tap_fold_item){pts[m].cpu, pts[m].text, pts[m].len};
                    done[m] = true;
                }
            tap_fold_emit_group(items, n, scratch, out, emit_folded, &pts[k].not_ok);
        }
    }
    for (u32 i = 0; i < npts; i++)
        free(pts[i].text);
    npts = 0;
    free(done);
    free(group);
    free(items);
    free(scratch);
}

/* A SKIP that fold=off printed short, "... # SKIP HEAD: as cpuJ" (lib/verdict_repeat.h), gets cpuJ's whole line
 * again under its own name, as the kernel's folding sees it. */
static void expand_repeat(struct point *p)
{
    const char *as = strstr(p->text, ": as cpu");
    unsigned ref_cpu;
    char nl;
    if (!as || !strstr(p->text, " # SKIP ") || sscanf(as, ": as cpu%u%c", &ref_cpu, &nl) != 2 || nl != '\n' ||
        as[strlen(as) - 1] != '\n' || strchr(as, '\n') != as + strlen(as) - 1)
        return;
    for (u32 i = 0; i < npts; i++) {
        struct point *r = &pts[i];
        if (r->global || r->cpu != ref_cpu || strcmp(r->check, p->check) || strcmp(r->suite, p->suite))
            continue;
        const char *rest = r->text + 3 + strcspn(r->text + 3, " \n");
        char *text = malloc(strlen(rest) + strlen(p->suite) + strlen(p->check) + 32);
        int n = sprintf(text, " - cpu%u/%s/%s%s", p->cpu, p->suite, p->check, rest);
        free(p->text);
        p->text = text;
        p->len = (u32)n;
        return;
    }
}

/* "cpuN/suite/check" at the start of name: fills the point's cpu, suite and check. */
static bool per_cpu_name(const char *name, struct point *p)
{
    unsigned cpu;
    int used = 0;
    if (sscanf(name, "cpu%u/%63[^/ \n]/%95[^ \n]%n", &cpu, p->suite, p->check, &used) != 3 || !used)
        return false;
    p->cpu = cpu;
    return true;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: tap-fold LOG\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    bool in_tap = false;
    struct point *cur = NULL; /* the point whose YAML block may follow */
    char cur_suite[64] = "";
    while ((n = getline(&line, &cap, f)) > 0) {
        while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = '\0';
        if (!in_tap) {
            puts(line);
            in_tap = !strcmp(line, "TAP version 13");
            continue;
        }
        if (!strncmp(line, "  ", 2) && cur) { /* a YAML line of the last point */
            cur->text = realloc(cur->text, cur->len + (size_t)n + 2);
            memcpy(cur->text + cur->len, line, (size_t)n);
            cur->len += (u32)n;
            cur->text[cur->len++] = '\n';
            cur->text[cur->len] = '\0';
            continue;
        }
        bool not_ok = !strncmp(line, "not ok ", 7);
        char *rest = not_ok ? line + 7 : !strncmp(line, "ok ", 3) ? line + 3 : NULL;
        if (rest) {
            rest += strspn(rest, "0123456789");
            struct point p = {0};
            p.not_ok = not_ok;
            bool per_cpu = !strncmp(rest, " - ", 3) && per_cpu_name(rest + 3, &p);
            if (!per_cpu || strcmp(p.suite, cur_suite)) {
                flush();
                snprintf(cur_suite, sizeof(cur_suite), "%s", per_cpu ? p.suite : "");
            }
            if (npts == cap_pts)
                pts = grow(pts, &cap_pts, sizeof(*pts));
            p.len = (u32)strlen(rest) + 1;
            p.text = malloc(p.len + 1);
            memcpy(p.text, rest, p.len - 1);
            p.text[p.len - 1] = '\n';
            p.text[p.len] = '\0';
            p.global = !per_cpu; /* a global check: printed as it is, its block below it */
            if (per_cpu)
                expand_repeat(&p);
            else
                cur_suite[0] = '\0';
            pts[npts] = p;
            cur = &pts[npts++];
            continue;
        }
        cur = NULL;
        /* A comment inside a run goes before the run's points, except the suite's closing and opening lines. */
        if (line[0] == '#' && npts && cur_suite[0] && strncmp(line, "# progress: suite ", 18) &&
            strncmp(line, "# suite ", 8)) {
            if (ncomments == cap_comments)
                comments = grow(comments, &cap_comments, sizeof(*comments));
            comments[ncomments] = malloc((size_t)n + 2);
            sprintf(comments[ncomments++], "%s\n", line);
            continue;
        }
        flush();
        cur_suite[0] = '\0';
        if (!strncmp(line, "1..", 3))
            printf("1..%u\n", number);
        else if (strstr(line, " passed, ") && strstr(line, " skipped") && line[0] >= '0' && line[0] <= '9')
            printf("%u passed, %u failed, %u skipped\n", passed, failed, skipped);
        else
            puts(line);
    }
    flush();
    free(line);
    fclose(f);
    if (!in_tap) {
        fprintf(stderr, "tap-fold: %s: no 'TAP version 13' line\n", argv[1]);
        return 2;
    }
    return 0;
}
