/* lib/screen_grid.c: the live grid's cells from TAP lines, and its groups of agreeing threads and its layout from 1 to 8192 threads. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "lib/screen_grid.h"

static struct screen_grid g;

static bool line(const char *l, u32 *suite, u32 *first, u32 *last, bool *relayout)
{
    return screen_grid_line(&g, l, (u32)strlen(l), suite, first, last, relayout);
}

static void test_lines(void **state)
{
    (void)state;
    u32 s, a, b;
    bool re;
    screen_grid_init(&g);
    assert_true(line("# smp: 4 of 4 CPUs online (ACPI MADT)", &s, &a, &b, &re) && re);
    assert_int_equal(g.nthreads, 4);
    assert_true(line("ok 1 - boot/cmdline", &s, &a, &b, &re));
    assert_true(re && s == 0 && a == 0 && b == 0 && g.global[0] == GRID_PASS && g.v[0][0] == GRID_NONE);
    assert_true(line("ok 2 - cpu[0-2]/apic/id", &s, &a, &b, &re));
    assert_true(s == 1 && a == 0 && b == 2 && g.v[1][2] == GRID_PASS && g.v[1][3] == GRID_NONE);
    assert_true(line("not ok 3 - cpu3/apic/id", &s, &a, &b, &re) && !re);
    assert_true(a == 3 && b == 3 && g.v[1][3] == GRID_FAIL);
    assert_true(line("ok 4 - cpu[1,3]/apic/esr # SKIP no", &s, &a, &b, &re));
    assert_true(g.v[1][1] == GRID_SKIP && g.v[1][3] == GRID_FAIL); /* the worst stays */
    assert_true(line("not ok 5 - cpu[0]/apic/tpr # TODO deviation", &s, &a, &b, &re));
    assert_int_equal(g.v[1][0], GRID_TODO);
    assert_true(line("not ok 6 - boot/y", &s, &a, &b, &re) && !re && a == 0 && b == 0); /* no group moves */
    assert_true(g.global[0] == GRID_FAIL && g.ngroups == 4);
    assert_true(line("ok 6 - cpu9/smp/x", &s, &a, &b, &re) && re); /* a thread past the count grows it */
    assert_int_equal(g.nthreads, 10);
    assert_false(line("# suite apic: local APIC", &s, &a, &b, &re));
    assert_false(line("  \"x\": 1", &s, &a, &b, &re));
    assert_false(line("ok 7 - nonsense", &s, &a, &b, &re));
}

static struct grid_layout l;

/* A machine of n threads that ran two suites, every thread passing the first in one folded line. */
static void machine(u32 n)
{
    u32 s, a, b;
    bool re;
    char smp[64], ok[64];
    screen_grid_init(&g);
    snprintf(smp, sizeof(smp), "# smp: %u of %u CPUs online", n, n);
    assert_true(line(smp, &s, &a, &b, &re) && re);
    snprintf(ok, sizeof(ok), "ok 1 - cpu[0-%u]/boot/x", n - 1);
    assert_true(line(ok, &s, &a, &b, &re) && re);
    snprintf(ok, sizeof(ok), "ok 2 - cpu[0-%u]/apic/id", n - 1);
    assert_true(line(ok, &s, &a, &b, &re));
    assert_int_equal(g.ngroups, 1);
}

static void layout(void)
{
    screen_grid_layout(&g, 0, 48, 1024, 688, 128, &l);
}

static const char *label(u32 col)
{
    static char s[GRID_LABEL_MAX];
    screen_grid_label(&l, col, s);
    return s;
}

static void test_all_agree(void **state)
{
    (void)state;
    static const u32 counts[] = {1, 4, 64, 288, 8192};
    static const char *const labels[] = {"cpu0", "cpu[0-3]", "cpu[0-63]", "cpu[0-287]", "cpu[0-8191]"};
    for (u32 i = 0; i < 5; i++) {
        machine(counts[i]);
        layout();
        assert_int_equal(l.cols, 1); /* one column, as wide as its label allows */
        assert_int_equal(l.cell_w, GRID_CELL_W_MAX);
        assert_true(l.x == 128 && l.cell_h == 16 && l.rows == 2 && l.per_cell == 1);
        assert_true(l.label_rows == 1 && l.label_y == 48 && l.y == 64 && l.labelled == 1 && l.label_row[0] == 1);
        assert_string_equal(label(0), labels[i]);
        assert_int_equal(screen_grid_cell(&g, &l, 0, 0), GRID_PASS);
        assert_int_equal(screen_grid_column(&l, counts[i] - 1), 0);
        assert_int_equal(screen_grid_column(&l, counts[i]), 1);
    }
}

static void test_few_differ(void **state)
{
    (void)state;
    static const u32 counts[] = {4, 64, 288, 8192};
    u32 s, a, b;
    bool re;
    for (u32 i = 0; i < 4; i++) {
        u32 n = counts[i];
        machine(n);
        char fail[64];
        snprintf(fail, sizeof(fail), "not ok 3 - cpu%u/apic/timer", n / 2 - 1); /* one thread in the middle */
        assert_true(line(fail, &s, &a, &b, &re) && re && a == n / 2 - 1 && b == n / 2 - 1);
        assert_int_equal(g.ngroups, 3);
        snprintf(fail, sizeof(fail), "ok 4 - cpu%u/boot/y # SKIP no", n - 1); /* and the last */
        assert_true(line(fail, &s, &a, &b, &re) && re);
        assert_int_equal(g.ngroups, 4);
        layout();
        assert_int_equal(l.cols, 4);
        assert_int_equal(l.cell_w, GRID_CELL_W_MAX);
        char want[32];
        snprintf(want, sizeof(want), "cpu[0-%u]", n / 2 - 2);
        assert_string_equal(label(0), n > 4 ? want : "cpu0");
        snprintf(want, sizeof(want), "cpu%u", n / 2 - 1);
        assert_string_equal(label(1), want);
        snprintf(want, sizeof(want), "cpu[%u-%u]", n / 2, n - 2);
        assert_string_equal(label(2), n > 4 ? want : "cpu2");
        snprintf(want, sizeof(want), "cpu%u", n - 1);
        assert_string_equal(label(3), want);
        assert_int_equal(screen_grid_cell(&g, &l, 1, 1), GRID_FAIL);
        assert_int_equal(screen_grid_cell(&g, &l, 1, 2), GRID_PASS);
        assert_int_equal(screen_grid_cell(&g, &l, 0, 3), GRID_SKIP);
        assert_true(line("not ok 9 - boot/once", &s, &a, &b, &re) && !re); /* a check that runs once: column 0 */
        assert_int_equal(screen_grid_cell(&g, &l, 0, 0), GRID_FAIL);
        assert_int_equal(screen_grid_cell(&g, &l, 0, 2), GRID_PASS);
        assert_int_equal(screen_grid_column(&l, n / 2 - 1), 1);
        assert_int_equal(l.labelled, 4); /* 128-pixel columns: every label on the first row */
        assert_int_equal(l.label_rows, 1);
        /* The thread passes later in the same suite: it still differs (its row is the worst so far). */
        snprintf(fail, sizeof(fail), "ok 5 - cpu[0-%u]/apic/x", n - 1);
        assert_true(line(fail, &s, &a, &b, &re) && !re);
        assert_int_equal(g.ngroups, 4);
    }
}

static void test_groups_merge(void **state)
{
    (void)state;
    u32 s, a, b;
    bool re;
    machine(64);
    /* Unfolded lines, thread by thread: the first splits a group off, the last joins them again. */
    assert_true(line("ok 3 - cpu0/pmi/x", &s, &a, &b, &re) && re);
    assert_int_equal(g.ngroups, 2);
    char ok[64];
    for (u32 t = 1; t < 63; t++) {
        snprintf(ok, sizeof(ok), "ok %u - cpu%u/pmi/x", 3 + t, t);
        assert_true(line(ok, &s, &a, &b, &re) && re); /* the pass group grows, the other shrinks: labels move */
        assert_int_equal(g.ngroups, 2);
    }
    assert_true(line("ok 99 - cpu63/pmi/x", &s, &a, &b, &re) && re);
    assert_int_equal(g.ngroups, 1);
}

static void test_many_groups(void **state)
{
    (void)state;
    u32 s, a, b;
    bool re;
    machine(64);
    char fail[64];
    for (u32 t = 0; t < 64; t += 2) { /* every other thread fails: 64 groups of one */
        snprintf(fail, sizeof(fail), "not ok %u - cpu%u/apic/y", 10 + t, t);
        assert_true(line(fail, &s, &a, &b, &re));
    }
    assert_int_equal(g.ngroups, 64);
    layout();
    assert_true(l.cols == 64 && l.cell_w == 14 && l.per_cell == 1);
    assert_int_equal(screen_grid_cell(&g, &l, 1, 10), GRID_FAIL);
    assert_int_equal(screen_grid_cell(&g, &l, 1, 11), GRID_PASS);
    /* Labels of 4 to 5 characters over 14-pixel columns: staggered over the three rows, some left out. */
    assert_int_equal(l.label_rows, GRID_LABEL_ROWS);
    assert_true(l.labelled > 32 && l.labelled < 64);
    assert_true(l.label_row[0] == 1 && l.label_row[1] == 2 && l.label_row[2] == 3);
    assert_int_equal(l.y, 48 + 3 * 16);
    /* 8192 threads all different: more groups than pixels, neighbours share a column and show their worst. */
    screen_grid_init(&g);
    assert_true(line("# smp: 8192 of 8192 CPUs online", &s, &a, &b, &re));
    for (u32 t = 0; t < 8192; t++)
        g.v[0][t] = t % 2 ? GRID_PASS : GRID_SKIP;
    g.v[0][8191] = GRID_FAIL;
    g.nsuites = 1;
    assert_true(line("ok 1 - cpu0/x/y", &s, &a, &b, &re)); /* a suite row exists: every thread compared */
    assert_int_equal(g.ngroups, 8192);
    layout();
    assert_true(l.per_cell == 10 && l.cols == 820 && l.cell_w == 1 && l.cols * l.cell_w <= 896);
    assert_true(l.first[819] == 8190 && l.first[820] == 8192);
    assert_int_equal(screen_grid_cell(&g, &l, 0, 819), GRID_FAIL);
    assert_int_equal(screen_grid_cell(&g, &l, 0, 818), GRID_SKIP);
    assert_int_equal(screen_grid_column(&l, 8191), 819);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lines),
        cmocka_unit_test(test_all_agree),
        cmocka_unit_test(test_few_differ),
        cmocka_unit_test(test_groups_merge),
        cmocka_unit_test(test_many_groups),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
