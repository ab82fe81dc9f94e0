/* lib/screen_grid.c: the live grid's cells from TAP lines, and its layout from 4 to 8192 threads. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

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
    assert_true(re && s == 0 && a == 0 && b == 0 && g.v[0][0] == GRID_PASS);
    assert_true(line("ok 2 - cpu[0-2]/apic/id", &s, &a, &b, &re));
    assert_true(s == 1 && a == 0 && b == 2 && g.v[1][2] == GRID_PASS && g.v[1][3] == GRID_NONE);
    assert_true(line("not ok 3 - cpu3/apic/id", &s, &a, &b, &re) && !re);
    assert_true(a == 3 && b == 3 && g.v[1][3] == GRID_FAIL);
    assert_true(line("ok 4 - cpu[1,3]/apic/esr # SKIP no", &s, &a, &b, &re));
    assert_true(g.v[1][1] == GRID_SKIP && g.v[1][3] == GRID_FAIL); /* the worst stays */
    assert_true(line("not ok 5 - cpu[0]/apic/tpr # TODO deviation", &s, &a, &b, &re));
    assert_int_equal(g.v[1][0], GRID_TODO);
    assert_true(line("ok 6 - cpu9/smp/x", &s, &a, &b, &re) && re); /* a thread past the count grows it */
    assert_int_equal(g.nthreads, 10);
    assert_false(line("# suite apic: local APIC", &s, &a, &b, &re));
    assert_false(line("  \"x\": 1", &s, &a, &b, &re));
    assert_false(line("ok 7 - nonsense", &s, &a, &b, &re));
}

static void test_layout(void **state)
{
    (void)state;
    struct grid_layout l;
    screen_grid_init(&g);
    g.nsuites = 12;
    g.nthreads = 4; /* few threads: large cells */
    screen_grid_layout(&g, 0, 64, 1024, 600, 128, &l);
    assert_true(l.cell_w == 16 && l.per_cell == 1 && l.cols == 4 && l.x == 128 && l.cell_h == 16);
    g.nthreads = 64;
    screen_grid_layout(&g, 0, 64, 1024, 600, 128, &l);
    assert_true(l.cell_w == 14 && l.per_cell == 1 && l.cols == 64);
    g.nthreads = 8192; /* more threads than pixels: threads share cells */
    screen_grid_layout(&g, 0, 64, 1024, 600, 128, &l);
    assert_true(l.per_cell == 10 && l.cols == 820 && l.cell_w == 1 && l.cols * l.cell_w <= 896);
    g.v[3][8191] = GRID_FAIL;
    g.v[3][8190] = GRID_SKIP;
    assert_int_equal(screen_grid_cell(&g, &l, 3, 819), GRID_FAIL);
    assert_int_equal(screen_grid_cell(&g, &l, 3, 818), GRID_NONE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lines),
        cmocka_unit_test(test_layout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
