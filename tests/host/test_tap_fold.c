/* lib/tap_fold.c: which threads' verdicts fold into one line, and what the folded line says. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "lib/tap_fold.h"

static bool same(const char *a, const char *b)
{
    return tap_fold_same_shape(a, (u32)strlen(a), b, (u32)strlen(b));
}

static struct tap_fold_item items[8];
static u32 scratch[24];
static char out[4096];

static u32 fold(u32 n, const u32 *cpus, const char *const *texts, u32 size)
{
    for (u32 k = 0; k < n; k++)
        items[k] = (struct tap_fold_item){cpus[k], texts[k], (u32)strlen(texts[k])};
    return tap_fold_render(items, n, scratch, out, size);
}

static void test_shape(void **state)
{
    (void)state;
    /* The name's CPU and the values of numbers are set aside... */
    assert_true(same(" - cpu0/apic/id\n  ---\n  \"APIC ID\": {expected: 0, observed: 0, tolerance: 0}\n  ...\n",
                     " - cpu12/apic/id\n  ---\n  \"APIC ID\": {expected: 12, observed: 12, tolerance: 0}\n  ...\n"));
    assert_true(same(" - cpu1/a/b # TODO came 2524 us late\n", " - cpu3/a/b # TODO came 31 us late\n"));
    /* ...nothing else: words, a CPU named in the text, keys, a number's kind, a sign, another check. */
    assert_false(same(" - cpu1/a/b # TODO came 25 us late\n", " - cpu3/a/b # TODO came 25 us early\n"));
    assert_false(same(" - cpu1/a/b # SKIP cpu4 stopped\n", " - cpu3/a/b # SKIP cpu5 stopped\n"));
    /* The thread's own name is its name. */
    assert_true(same(" - cpu1/a/b # SKIP cpu1 stopped\n", " - cpu3/a/b # SKIP cpu3 stopped\n"));
    /* An evidence entry may differ in its value; an expectation may not, beyond its numbers. */
    assert_true(same(" - cpu1/a/b\n  ---\n  \"seen\": \"1 2\"\n  ...\n", " - cpu3/a/b\n  ---\n  \"seen\": \"1 2 3\"\n  ...\n"));
    assert_false(same(" - cpu1/a/b\n  ---\n  \"n\": {expected: 1, observed: \"1 2\"}\n  ...\n",
                      " - cpu3/a/b\n  ---\n  \"n\": {expected: 1, observed: \"1 2 3\"}\n  ...\n"));
    assert_false(same(" - cpu1/a/b\n  ---\n  \"x\": 1\n  ...\n", " - cpu3/a/b\n  ---\n  \"y\": 1\n  ...\n"));
    assert_false(same(" - cpu1/a/b\n  ---\n  \"x\": {observed: 0x1}\n  ...\n", " - cpu3/a/b\n  ---\n  \"x\": {observed: 1}\n  ...\n"));
    /* A sign is part of a number; a '-' after a word is not. */
    assert_true(same(" - cpu1/a/b\n  ---\n  \"x\": {observed: -1}\n  ...\n", " - cpu3/a/b\n  ---\n  \"x\": {observed: 1}\n  ...\n"));
    assert_false(same(" - cpu1/a/b # a-1\n", " - cpu3/a/b # a1\n"));
    assert_false(same(" - cpu1/a/b\n", " - cpu1/a/c\n"));
    assert_false(same(" - cpu1/a/b\n", " - cpu1/a/b\n  ---\n  ...\n"));
    assert_false(same(" - smp/online\n", " - smp/online\n")); /* a global check is not folded */
    /* A word holding digits and a letter that is not a hex digit is a word ("x2apic"); with hex digits only it is
     * a number ("ffffa8c2", "1005a"). */
    assert_false(same(" - cpu1/a/b # x2apic\n", " - cpu3/a/b # x3apic\n"));
    assert_true(same(" - cpu1/a/b # ffffa8c2\n", " - cpu3/a/b # fffeaec7\n"));
}

static void test_ranges(void **state)
{
    (void)state;
    const u32 cpus[] = {0, 1, 2, 3, 5};
    const char *const t[] = {
        " - cpu0/apic/id\n  ---\n  \"APIC ID\": {expected: 0, observed: 0, tolerance: 0}\n  \"SVR\": \"0x1ff\"\n  ...\n",
        " - cpu1/apic/id\n  ---\n  \"APIC ID\": {expected: 1, observed: 1, tolerance: 0}\n  \"SVR\": \"0x1ff\"\n  ...\n",
        " - cpu2/apic/id\n  ---\n  \"APIC ID\": {expected: 2, observed: 2, tolerance: 0}\n  \"SVR\": \"0x1ff\"\n  ...\n",
        " - cpu3/apic/id\n  ---\n  \"APIC ID\": {expected: 3, observed: 3, tolerance: 0}\n  \"SVR\": \"0x1ff\"\n  ...\n",
        " - cpu5/apic/id\n  ---\n  \"APIC ID\": {expected: 10, observed: 10, tolerance: 0}\n  \"SVR\": \"0x1ff\"\n  ...\n",
    };
    u32 n = fold(5, cpus, t, sizeof(out));
    assert_string_equal(out, " - cpu[0-3,5]/apic/id\n  ---\n  \"APIC ID\": {expected: 0 (cpu0) .. 10 (cpu5), observed: 0 "
                             "(cpu0) .. 10 (cpu5), tolerance: 0}\n  \"SVR\": \"0x1ff\"\n  ...\n");
    assert_int_equal(n, strlen(out));
    /* One thread: its text as it is. */
    fold(1, cpus + 4, t + 4, sizeof(out));
    assert_string_equal(out, t[4]);
    /* The smallest and largest values name the first thread holding them; hex keeps its spelling. */
    const u32 c2[] = {4, 7, 9};
    const char *const h[] = {" - cpu4/x/y # TODO late 0x20 by 7\n", " - cpu7/x/y # TODO late 0x10 by 7\n",
                             " - cpu9/x/y # TODO late 0x10 by 7\n"};
    fold(3, c2, h, sizeof(out));
    assert_string_equal(out, " - cpu[4,7,9]/x/y # TODO late 0x10 (cpu7) .. 0x20 (cpu4) by 7\n");
    /* Negative numbers sort below the positive ones. */
    const char *const neg[] = {" - cpu4/x/y # off by 79\n", " - cpu7/x/y # off by -397\n", " - cpu9/x/y # off by -2\n"};
    fold(3, c2, neg, sizeof(out));
    assert_string_equal(out, " - cpu[4,7,9]/x/y # off by -397 (cpu7) .. 79 (cpu4)\n");
}

static void test_many_differences_are_counted(void **state)
{
    (void)state;
    const u32 cpus[] = {0, 1};
    const char *const t[] = {
        " - cpu0/apic/ipi\n  ---\n  \"deliveries by APIC ID\": \"1:1 2:1 3:1\"\n  \"targets\": {expected: 3, observed: 3}\n  ...\n",
        " - cpu1/apic/ipi\n  ---\n  \"deliveries by APIC ID\": \"0:2 2:2 4:1\"\n  \"targets\": {expected: 3, observed: 3}\n  ...\n",
    };
    fold(2, cpus, t, sizeof(out));
    assert_string_equal(out, " - cpu[0-1]/apic/ipi\n  ---\n  \"deliveries by APIC ID\": \"4 numbers differ between the "
                             "threads (fold=off prints each thread's)\"\n  \"targets\": {expected: 3, observed: 3}\n  ...\n");
}

/* A folded block that outgrows the buffer ends at a whole line, with the truncation entry and the block's end. */
static void test_own_name_and_evidence(void **state)
{
    (void)state;
    const u32 cpus[] = {2, 3};
    const char *const t[] = {
        " - cpu2/h/catch\n  ---\n  exception: {vector: 0, cpu: 2, check: \"cpu2/h/catch\"}\n  \"seen\": \"a\"\n  ...\n",
        " - cpu3/h/catch\n  ---\n  exception: {vector: 0, cpu: 3, check: \"cpu3/h/catch\"}\n  \"seen\": \"a b\"\n  ...\n",
    };
    fold(2, cpus, t, sizeof(out));
    assert_string_equal(out, " - cpu[2-3]/h/catch\n  ---\n  exception: {vector: 0, cpu: 2 (cpu2) .. 3 (cpu3), check: "
                             "\"cpu[2-3]/h/catch\"}\n  \"seen\": \"differs between the threads (fold=off prints each "
                             "thread's)\"\n  ...\n");
}

/* Found in review: values at and above 2^63 compare whole; a decimal fraction is one number with its sign; an
 * evidence key that differs (in a number) does not fold; a text ending inside a key is read no further. */
static void test_values_whole(void **state)
{
    (void)state;
    const u32 cpus[] = {0, 1};
    const char *const big[] = {" - cpu0/s/c\n  ---\n  \"st\": {observed: 0x8000000000000001}\n  ...\n",
                               " - cpu1/s/c\n  ---\n  \"st\": {observed: 0x8000000000000002}\n  ...\n"};
    fold(2, cpus, big, sizeof(out));
    assert_non_null(strstr(out, "0x8000000000000001 (cpu0) .. 0x8000000000000002 (cpu1)"));
    const char *const dec[] = {" - cpu0/s/c # ratio 18446744073709551615\n", " - cpu1/s/c # ratio 9223372036854775808\n"};
    fold(2, cpus, dec, sizeof(out));
    assert_string_equal(out, " - cpu[0-1]/s/c # ratio 9223372036854775808 (cpu1) .. 18446744073709551615 (cpu0)\n");
    const char *const frac[] = {" - cpu0/s/c # ratio 1.000 and -0.500\n", " - cpu1/s/c # ratio 0.999 and 0.250\n"};
    fold(2, cpus, frac, sizeof(out));
    assert_string_equal(out, " - cpu[0-1]/s/c # ratio 0.999 (cpu1) .. 1.000 (cpu0) and -0.500 (cpu0) .. 0.250 (cpu1)\n");
    const char *const neg0[] = {" - cpu0/s/c # at -0\n", " - cpu1/s/c # at 0\n"};
    fold(2, cpus, neg0, sizeof(out));
    assert_string_equal(out, " - cpu[0-1]/s/c # at -0 (cpu0) .. 0 (cpu1)\n");
    assert_false(same(" - cpu0/s/c\n  ---\n  \"counter 0\": \"idle\"\n  ...\n",
                      " - cpu1/s/c\n  ---\n  \"counter 1\": \"busy now\"\n  ...\n"));
    const char *a = " - cpu0/s/c\n  \"k\": ", *b = " - cpu1/s/c\n  \"k\": ";
    assert_false(tap_fold_same_shape(a, (u32)strlen(a), b, (u32)strlen(b) - 1));
    tap_fold_same_shape(a, (u32)strlen(a), b, (u32)strlen(b));
}

/* A name line that cannot fit folded: render gives 0, and the caller prints each thread's own text. */
static void test_name_too_long(void **state)
{
    (void)state;
    static char a[3000], b[3000];
    strcpy(a, " - cpu0/s/c # TODO");
    strcpy(b, " - cpu1/s/c # TODO");
    for (int i = 0; i < 200; i++) {
        strcat(a, " 1");
        strcat(b, " 2");
    }
    strcat(a, "\n");
    strcat(b, "\n");
    const u32 cpus[] = {0, 1};
    const char *const t[] = {a, b};
    assert_true(same(a, b));
    assert_int_equal(fold(2, cpus, t, 1024), 0);
}

/* A line every thread wrote alike is printed as it is, even where it names the first thread ("as on cpu0"). */
static void test_identical_lines_as_they_are(void **state)
{
    (void)state;
    const u32 cpus[] = {0, 1};
    const char *const t[] = {" - cpu0/s/c\n  ---\n  \"reference\": \"cpu0 (not hybrid)\"\n  \"n\": {observed: 1}\n  ...\n",
                             " - cpu1/s/c\n  ---\n  \"reference\": \"cpu0 (not hybrid)\"\n  \"n\": {observed: 2}\n  ...\n"};
    fold(2, cpus, t, sizeof(out));
    assert_string_equal(out, " - cpu[0-1]/s/c\n  ---\n  \"reference\": \"cpu0 (not hybrid)\"\n  \"n\": {observed: 1 (cpu0) "
                             ".. 2 (cpu1)}\n  ...\n");
}

static void test_truncation_keeps_yaml(void **state)
{
    (void)state;
    static char a[4096], b[4096];
    strcpy(a, " - cpu0/x/y\n  ---\n");
    strcpy(b, " - cpu1/x/y\n  ---\n");
    for (int i = 0; i < 40; i++) {
        strcat(a, "  \"a fairly long key for the line\": {expected: 1, observed: 1}\n");
        strcat(b, "  \"a fairly long key for the line\": {expected: 1, observed: 2}\n");
    }
    strcat(a, "  ...\n");
    strcat(b, "  ...\n");
    const u32 cpus[] = {0, 1};
    const char *const t[] = {a, b};
    u32 n = fold(2, cpus, t, 600);
    assert_true(n < 600);
    assert_int_equal(n, strlen(out));
    assert_non_null(strstr(out, "\"diagnostics truncated\""));
    assert_memory_equal(out + n - 6, "  ...\n", 6);
    assert_non_null(strstr(out, "observed: 1 (cpu0) .. 2 (cpu1)}\n  \"a fairly"));
    assert_int_equal(fold(2, cpus, t, 100), 0); /* too small to say anything */
}

static void test_cpu_list(void **state)
{
    (void)state;
    char list[32];
    struct tap_fold_item it[6] = {{0, "", 0}, {1, "", 0}, {2, "", 0}, {4, "", 0}, {6, "", 0}, {7, "", 0}};
    tap_fold_cpu_list(it, 6, list, sizeof(list));
    assert_string_equal(list, "0-2,4,6-7");
}

/* A list longer than TAP_FOLD_LIST_MAX is split between lines at a whole run: no name is cut. */
static void test_long_lists_split(void **state)
{
    (void)state;
    static struct tap_fold_item it[600];
    for (u32 k = 0; k < 600; k++)
        it[k] = (struct tap_fold_item){2 * k, "", 0}; /* every other CPU: "0,2,4,..." */
    u32 n = tap_fold_fit(it, 600);
    char list[TAP_FOLD_LIST_MAX + 32];
    assert_true(n > 10 && n < 600);
    assert_true(tap_fold_cpu_list(it, n, list, sizeof(list)) <= TAP_FOLD_LIST_MAX);
    assert_true(tap_fold_cpu_list(it, n + 1, list, sizeof(list)) > TAP_FOLD_LIST_MAX);
    for (u32 k = 0; k < 600; k++)
        it[k].cpu = k; /* one run fits however long */
    assert_int_equal(tap_fold_fit(it, 600), 600);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shape),
        cmocka_unit_test(test_ranges),
        cmocka_unit_test(test_many_differences_are_counted),
        cmocka_unit_test(test_own_name_and_evidence),
        cmocka_unit_test(test_identical_lines_as_they_are),
        cmocka_unit_test(test_values_whole),
        cmocka_unit_test(test_name_too_long),
        cmocka_unit_test(test_truncation_keeps_yaml),
        cmocka_unit_test(test_cpu_list),
        cmocka_unit_test(test_long_lists_split),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
