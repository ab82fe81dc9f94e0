/* tests/skid/portable/skid_judge.c: where counting started (the value most trials agree on), each trial's distance,
 * the nearest-rank summary, and the verdict (a deviation counts when two trials show it; one alone is inconclusive;
 * too few valid trials are inconclusive, never PASS). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/skid/portable/skid_judge.h"

/* A trial whose counter overflowed on its period-th event, counting started `start` events before the stream, and the
 * PMI interrupted `distance` instructions after the overflowing one; freeze: the counter was not read. */
static struct skid_trial trial(u64 period, s64 start, s64 distance, bool freeze)
{
    s64 overflowing = (s64)period - 1 - start;
    return (struct skid_trial){.pmi = true, .in_stream = true, .interrupted = overflowing + distance, .period = period,
                               .counter_read = !freeze, .after_wrap = distance - 1};
}

static void test_start_is_the_majority(void **state)
{
    (void)state;
    struct skid_trial t[5] = {trial(24, 1, 1, false), trial(61, 1, 3, false), trial(98, 2, 1, false),
                              trial(135, 1, 1, false), trial(172, 1, 2, true)};
    struct skid_start s;
    skid_counting_start(t, 5, &s);
    assert_true(s.found);
    assert_int_equal(s.start, 1);
    assert_int_equal(s.agree, 3);
    assert_int_equal(s.trials, 4);
    s64 d;
    assert_true(skid_distance(&t[1], s.start, &d));
    assert_int_equal(d, 3);
    assert_false(skid_distance(&t[2], s.start, &d)); /* its own counter says counting started elsewhere */
    assert_true(skid_distance(&t[4], s.start, &d));  /* frozen: the majority's start is used */
    assert_int_equal(d, 2);
    /* Two against two: no majority. */
    struct skid_trial u[4] = {trial(24, 0, 1, false), trial(61, 0, 1, false), trial(98, 1, 1, false),
                              trial(135, 1, 1, false)};
    skid_counting_start(u, 4, &s);
    assert_false(s.found);
}

static void test_no_pmi_or_outside_has_no_distance(void **state)
{
    (void)state;
    struct skid_trial t = trial(50, 0, 1, false);
    s64 d;
    t.pmi = false;
    assert_false(skid_distance(&t, 0, &d));
    t = trial(50, 0, 1, false);
    t.in_stream = false;
    assert_false(skid_distance(&t, 0, &d));
}

static void test_summary_nearest_rank(void **state)
{
    (void)state;
    s64 d[10] = {5, 1, 1, 2, 1, 1, 3, 1, 1, 1};
    struct skid_summary s;
    skid_summarize(d, 10, 12, 0, &s);
    assert_int_equal(s.min, 1);
    assert_int_equal(s.median, 1);
    assert_int_equal(s.p99, 5);
    assert_int_equal(s.max, 5);
    assert_int_equal(s.early, 0);
    assert_int_equal(s.beyond, 0);
    skid_summarize(d, 10, 10, 2, &s);
    assert_int_equal(s.beyond, 2);
}

static void test_verdict_needs_repetition(void **state)
{
    (void)state;
    const char *why;
    s64 ok[4] = {1, 1, 2, 1}, one_early[4] = {1, 0, 1, 1}, two_early[4] = {0, 1, -1, 1}, far[4] = {9, 9, 1, 1};
    struct skid_summary s;
    skid_summarize(ok, 4, 4, 0, &s);
    assert_int_equal(skid_judge(&s, &why), SKID_PASS);
    skid_summarize(one_early, 4, 4, 0, &s);
    assert_int_equal(skid_judge(&s, &why), SKID_INCONCLUSIVE);
    skid_summarize(two_early, 4, 4, 0, &s);
    assert_int_equal(skid_judge(&s, &why), SKID_FAIL_EARLY);
    skid_summarize(far, 4, 4, 0, &s);
    assert_int_equal(skid_judge(&s, &why), SKID_PASS); /* no bound: a measurement */
    skid_summarize(far, 4, 4, 4, &s);
    assert_int_equal(skid_judge(&s, &why), SKID_FAIL_BOUND);
    skid_summarize(ok, 1, 4, 0, &s); /* one valid trial of four */
    assert_int_equal(skid_judge(&s, &why), SKID_INCONCLUSIVE);
    skid_summarize(ok, 0, 4, 0, &s);
    assert_int_equal(skid_judge(&s, &why), SKID_INCONCLUSIVE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_start_is_the_majority),
        cmocka_unit_test(test_no_pmi_or_outside_has_no_distance),
        cmocka_unit_test(test_summary_nearest_rank),
        cmocka_unit_test(test_verdict_needs_repetition),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
