/* lib/bsp_watch_plan.c: which idle APs watch the boot CPU's check, when the boot CPU may start its own checks while
 * APs run theirs, what a watcher does at each tick (wait, stop the check with one NMI, say the NMI went unanswered
 * once, stop ticking), how its tick's count adapts to an unknown APIC timer frequency, and a check's time limit. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "lib/bsp_watch_plan.h"

static bool idle_from_table(u32 cpu, void *ctx)
{
    return ((const bool *)ctx)[cpu];
}

static void test_pick_lowest_idle(void **state)
{
    (void)state;
    u32 out[BSP_WATCHERS_MAX] = {0};
    /* cpu0 (the boot CPU) is never picked, even when "idle"; the busy cpu1 is passed over. */
    bool idle[6] = {true, false, true, false, true, true};
    assert_int_equal(bsp_watch_pick(6, idle_from_table, idle, out, BSP_WATCHERS_MAX), 2);
    assert_int_equal(out[0], 2);
    assert_int_equal(out[1], 4);
    /* only as many as asked */
    assert_int_equal(bsp_watch_pick(6, idle_from_table, idle, out, 1), 1);
    assert_int_equal(out[0], 2);
    /* one idle AP: one watcher */
    bool one[4] = {false, false, false, true};
    assert_int_equal(bsp_watch_pick(4, idle_from_table, one, out, BSP_WATCHERS_MAX), 1);
    assert_int_equal(out[0], 3);
    /* one CPU, or every AP busy or lost: none */
    bool none[3] = {true, false, false};
    assert_int_equal(bsp_watch_pick(1, idle_from_table, none, out, BSP_WATCHERS_MAX), 0);
    assert_int_equal(bsp_watch_pick(3, idle_from_table, none, out, BSP_WATCHERS_MAX), 0);
}

static void test_may_start(void **state)
{
    (void)state;
    assert_true(bsp_watch_may_start(1, 0));  /* global checks, run=serial, CPUS_OTHERS: every AP idle */
    assert_true(bsp_watch_may_start(3, 7));  /* run_cpus= left APs unstarted: one of them watches */
    assert_false(bsp_watch_may_start(0, 3)); /* every AP runs its checks: wait for the first to finish */
    assert_true(bsp_watch_may_start(0, 0));  /* one CPU, or every AP lost: unwatched, never waiting forever */
}

#define LIMIT 1000
#define ANSWER 100

static struct bsp_watch_view view(u32 seq)
{
    return (struct bsp_watch_view){.seq = seq, .since = 5000, .limit = LIMIT, .answer = ANSWER};
}

static void test_steps(void **state)
{
    (void)state;
    struct bsp_watch_view v = view(0);
    assert_int_equal(bsp_watch_step(&v, 99999), BSP_WATCH_IDLE); /* the boot CPU is between checks */
    v = view(7);
    assert_int_equal(bsp_watch_step(&v, 5000), BSP_WATCH_WAIT);
    assert_int_equal(bsp_watch_step(&v, 5000 + LIMIT), BSP_WATCH_WAIT); /* at the limit: not past it */
    assert_int_equal(bsp_watch_step(&v, 5000 + LIMIT + 1), BSP_WATCH_STOP);
    assert_int_equal(bsp_watch_step(&v, 4000), BSP_WATCH_WAIT); /* this CPU's TSC behind the boot CPU's */
    /* an earlier check's NMI does not count for this one */
    v.stopped_seq = 6;
    assert_int_equal(bsp_watch_step(&v, 5000 + LIMIT + 1), BSP_WATCH_STOP);
    /* stopped by this watcher: wait for the answer, then say it is missing, once */
    v.stopped_seq = 7;
    v.stopped_by_me = true;
    v.nmi_at = 6100;
    assert_int_equal(bsp_watch_step(&v, 6100 + ANSWER), BSP_WATCH_WAIT);
    assert_int_equal(bsp_watch_step(&v, 6100 + ANSWER + 1), BSP_WATCH_UNANSWERED);
    v.said_seq = 7;
    assert_int_equal(bsp_watch_step(&v, 6100 + ANSWER + 1), BSP_WATCH_IDLE);
    /* said for an earlier check only */
    v.said_seq = 6;
    assert_int_equal(bsp_watch_step(&v, 6100 + ANSWER + 1), BSP_WATCH_UNANSWERED);
    /* stopped by the other watcher: exactly one NMI, and this one has nothing more to do */
    v = view(7);
    v.stopped_seq = 7;
    assert_int_equal(bsp_watch_step(&v, 5000 + LIMIT + 1), BSP_WATCH_IDLE);
    /* the next check of the boot CPU is watched afresh */
    v.seq = 8;
    assert_int_equal(bsp_watch_step(&v, 5000 + LIMIT + 1), BSP_WATCH_STOP);
}

static void test_tick_count(void **state)
{
    (void)state;
    u32 c = BSP_WATCH_FIRST_COUNT;
    /* A 1 GHz timer and a 2 GHz TSC: 2^20 ticks took 2^21 TSC ticks; a 20 ms tick is 40e6 TSC ticks. */
    u64 target = 40000000;
    c = bsp_watch_tick_count(c, (u64)c * 2, target); /* wants 19x: within the 32-fold step */
    assert_true(c >= 19000000 && c <= 20000000);
    /* settled: stays */
    u32 again = bsp_watch_tick_count(c, (u64)c * 2, target);
    assert_true(again >= c - c / 100 && again <= c + c / 100);
    /* a 25 MHz crystal: 2^20 ticks took 42 ms = 84e6 TSC ticks: the tick shrinks, at most by half */
    c = bsp_watch_tick_count(BSP_WATCH_FIRST_COUNT, 84000000, target);
    assert_int_equal(c, BSP_WATCH_FIRST_COUNT / 2); /* 0.48x wanted: halved */
    c = bsp_watch_tick_count(1u << 20, 1u << 21, 1u << 20);  /* exactly half */
    assert_int_equal(c, 1u << 19);
    /* a wake-up a second late (descheduled vCPU) does not make a storm of ticks: half at most */
    c = bsp_watch_tick_count(20000000, 2000000000ull, target);
    assert_int_equal(c, 10000000);
    /* a wake-up at once (elapsed 0 or tiny): grows 32-fold, capped */
    assert_int_equal(bsp_watch_tick_count(1u << 20, 0, target), 1u << 25);
    assert_int_equal(bsp_watch_tick_count(1u << 29, 1, target), 1u << 30);
    /* floor */
    assert_int_equal(bsp_watch_tick_count(0, 1000, 1), 1u << 12);
}

static void test_limit(void **state)
{
    (void)state;
    assert_int_equal(check_limit_ms(20000, 0), 20000);     /* no limit of its own */
    assert_int_equal(check_limit_ms(20000, 60000), 60000); /* a longer one of its own */
    assert_int_equal(check_limit_ms(90000, 60000), 90000); /* check_timeout_ms= longer still */
    assert_int_equal(check_limit_ms(500, 60000), 60000);   /* a short self-test limit does not cut it */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pick_lowest_idle),
        cmocka_unit_test(test_may_start),
        cmocka_unit_test(test_steps),
        cmocka_unit_test(test_tick_count),
        cmocka_unit_test(test_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
