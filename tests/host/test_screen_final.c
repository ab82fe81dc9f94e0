/* lib/screen_final.c: the failures and header lines the final screen lists, from the carried stream. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "lib/screen_final.h"

static const char stream[] =
    "TAP version 13\n# pmuboot x\n# cpu: GenuineIntel family 0x6\n"
    "ok 1 - boot/cmdline\n"
    "not ok 2 - cpu[0-3]/apic/id\n  ---\n  \"APIC ID\": {expected: 0, observed: 1, tolerance: 0}\n  ...\n"
    "not ok 3 - cpu0/apic/esr # TODO known deviation\n"
    "not ok 4 - smp/online\n"
    "not ok 6 - boot/cmdline\n  ---\n  \"cmdline\": \"x\"\n  \"parse\": {expected: \"ok\", observed: \"no\"}\n  ...\n"
    "not ok 7 - cpu0/timeout/time_limit\n  ---\n  \"ran\": 1\n  \"failure\": \"hung\"\n  ...\n"
    "ok 5 - cpu1/a/b # SKIP no\n"
    "Bail out! out of memory\n";

static void test_fails(void **state)
{
    (void)state;
    u32 pos = 0, len = (u32)strlen(stream);
    struct screen_fail f;
    assert_true(screen_final_next_fail(stream, len, &pos, &f));
    assert_int_equal(f.number, 2);
    assert_int_equal(f.name_len, strlen("cpu[0-3]/apic/id"));
    assert_memory_equal(f.name, "cpu[0-3]/apic/id", f.name_len);
    assert_int_equal(f.evidence_len, strlen("\"APIC ID\": {expected: 0, observed: 1, tolerance: 0}"));
    assert_memory_equal(f.evidence, "\"APIC ID\"", 9);
    assert_true(screen_final_next_fail(stream, len, &pos, &f)); /* the TODO is not a failure */
    assert_int_equal(f.number, 4);
    assert_memory_equal(f.name, "smp/online", f.name_len);
    assert_int_equal(f.evidence_len, 0);
    assert_true(screen_final_next_fail(stream, len, &pos, &f)); /* the expectation, not the first line */
    assert_int_equal(f.number, 6);
    assert_int_equal(f.evidence_len, strlen("\"parse\": {expected: \"ok\", observed: \"no\"}"));
    assert_memory_equal(f.evidence, "\"parse\"", 7);
    assert_true(screen_final_next_fail(stream, len, &pos, &f)); /* no expectation: the failure entry */
    assert_int_equal(f.number, 7);
    assert_memory_equal(f.evidence, "\"failure\": \"hung\"", f.evidence_len);
    assert_true(screen_final_next_fail(stream, len, &pos, &f));
    assert_int_equal(f.number, 0);
    assert_memory_equal(f.name, "out of memory", f.name_len);
    assert_false(screen_final_next_fail(stream, len, &pos, &f));
}

static void test_comment(void **state)
{
    (void)state;
    u32 n;
    const char *c = screen_final_comment(stream, (u32)strlen(stream), "cpu: ", &n);
    assert_non_null(c);
    assert_int_equal(n, strlen("GenuineIntel family 0x6"));
    assert_memory_equal(c, "GenuineIntel", 12);
    assert_null(screen_final_comment(stream, (u32)strlen(stream), "brand: ", &n));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fails),
        cmocka_unit_test(test_comment),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
