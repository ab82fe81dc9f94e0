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

/* Every FAIL and every code is on some page, and a page shows no more than it has room for. */
static void every_one_shown(const struct final_layout *l, u32 len)
{
    static bool fail_seen[1000], code_seen[RESULT_CODE_MAX];
    memset(fail_seen, 0, sizeof(fail_seen));
    memset(code_seen, 0, sizeof(code_seen));
    for (u32 p = 0; p < l->pages; p++) {
        u32 f0, f1, c0, c1;
        screen_final_page(l, p, &f0, &f1, &c0, &c1);
        assert_true(f1 - f0 <= l->fails_per_page && c1 - c0 <= l->codes.per_page);
        for (u32 f = f0; f < f1; f++)
            fail_seen[f] = true;
        for (u32 c = c0; c < c1; c++)
            code_seen[c] = true;
    }
    for (u32 f = 0; f < l->fails && l->fails_per_page; f++)
        assert_true(fail_seen[f]);
    for (u32 c = 0; c < l->codes.n; c++)
        assert_true(code_seen[c]);
    if (l->no_codes)
        return;
    u32 side = (17 + 4 * l->codes.version + 2 * RESULT_CODE_QUIET) * l->codes.scale;
    assert_true(l->codes.cols * side <= 1024 && (l->caption_row + 1) * 16 + l->codes.rows * side <= 768);
    assert_true(l->codes.cols * l->codes.rows >= l->codes.per_page && l->codes.scale >= 2);
    assert_true(qr_byte_capacity(l->codes.version, l->codes.ecc) >=
                (len + l->codes.n - 1) / l->codes.n + RESULT_CODE_OVERHEAD);
}

static void test_layout(void **state)
{
    (void)state;
    struct final_layout l;
    /* A passing run: no FAILs, the codes on one page. */
    screen_final_layout(0, 4100, 1024, 768, &l);
    assert_true(!l.no_codes && l.pages == 1 && l.fails_per_page == 0 && l.caption_row == 4 && l.codes.pages == 1);
    every_one_shown(&l, 4100);
    /* 36 FAILs and one page of codes: 20 FAILs a page and the count line, two pages. */
    screen_final_layout(36, 4800, 1024, 768, &l);
    assert_true(!l.no_codes && l.fails_per_page == 20 && l.fail_pages == 2 && l.codes.pages == 1 && l.pages == 2);
    assert_int_equal(l.caption_row, 4 + 20 + 1);
    every_one_shown(&l, 4800);
    u32 f0, f1, c0, c1;
    screen_final_page(&l, 1, &f0, &f1, &c0, &c1);
    assert_true(f0 == 20 && f1 == 36 && c0 == 0 && c1 == l.codes.n); /* the codes stay on every page */
    /* Four FAILs fit whole: no count line. */
    screen_final_layout(4, 4800, 1024, 768, &l);
    assert_true(l.fails_per_page == 4 && l.fail_pages == 1 && l.caption_row == 8 && l.pages == 1);
    /* A result larger than a screen of codes: the codes paged too, every code on a page, "k-m of n". */
    static const u32 sizes[] = {16000, 20000, 60000};
    static const u32 fails[] = {0, 3, 36, 128};
    for (u32 i = 0; i < 3; i++)
        for (u32 j = 0; j < 4; j++) {
            screen_final_layout(fails[j], sizes[i], 1024, 768, &l);
            assert_null(l.no_codes);
            assert_true(l.codes.pages > 1 && l.codes.per_page < l.codes.n);
            assert_int_equal(l.pages, MAX(l.fail_pages, l.codes.pages));
            every_one_shown(&l, sizes[i]);
            assert_int_equal(l.fails_per_page, MIN(fails[j], 20u)); /* 4 a page would only make more pages */
            struct result_layout one;
            assert_non_null(result_code_layout(sizes[i], 1024, 768 - (l.caption_row + 1) * 16, 2, RESULT_CODE_MAX,
                                               &one)); /* paged only when one page will not do */
        }
    /* Pages of codes and of FAILs at once: each page shows its share of both, round and round. */
    screen_final_layout(128, 20000, 1024, 768, &l);
    assert_true(l.fail_pages > 1 && l.codes.pages > 1);
    screen_final_page(&l, l.pages - 1, &f0, &f1, &c0, &c1);
    assert_true(f1 > f0 && c1 > c0);
    /* No codes: the result did not pack, or the screen is too small even for one code a page. */
    screen_final_layout(100, 0, 1024, 768, &l);
    assert_string_equal(l.no_codes, "the result does not compress into its buffer");
    assert_true(l.fails_per_page == 41 && l.fail_pages == 3 && l.pages == 3 && l.codes.n == 0);
    assert_int_equal(l.caption_row, 4 + 41 + 1);
    screen_final_layout(100, 5000, 320, 160, &l); /* 64 pixels below the count line: version 1, 1 byte a code */
    assert_string_equal(l.no_codes, "the result does not fit the screen as QR codes");
    assert_true(l.fails_per_page == 3 && l.fail_pages == 34 && l.pages == 34);
    every_one_shown(&l, 5000);
    /* 36 FAILs and 8 KB: 20 FAILs and the codes in two pages beat 4 FAILs a page beside one page of codes (9). */
    screen_final_layout(36, 8000, 1024, 768, &l);
    assert_true(l.fails_per_page == 20 && l.codes.pages == 2 && l.pages == 2);
    every_one_shown(&l, 8000);
}

static void test_paged_codes(void **state)
{
    (void)state;
    struct result_layout l;
    /* One page when it fits: the same as result_code_layout. */
    assert_null(result_code_paged_layout(4800, 1024, 560, 2, &l));
    assert_true(l.pages == 1 && l.per_page == l.n);
    /* 20 KB in 1024x560: pages of large codes, the fewest pages. */
    assert_null(result_code_paged_layout(20000, 1024, 560, 2, &l));
    u32 side = (17 + 4 * l.version + 2 * RESULT_CODE_QUIET) * l.scale;
    assert_true(l.pages > 1 && l.pages == (l.n + l.per_page - 1) / l.per_page && l.per_page <= l.cols * l.rows);
    assert_true(l.cols * side <= 1024 && l.rows * side <= 560);
    assert_true(qr_byte_capacity(l.version, l.ecc) >= (20000 + l.n - 1) / l.n + RESULT_CODE_OVERHEAD);
    assert_int_equal(l.pages, 2); /* 8 codes a page, version 25 at 2 pixels a module */
    /* A 100-pixel square holds one code of version 6 at most (98 pixels at 2 a module, with its quiet zone): 20 KB
     * in 170 of them, a page each; 60 KB would take more than 255 codes. */
    assert_null(result_code_paged_layout(20000, 100, 100, 2, &l));
    assert_true(l.version == 6 && l.ecc == QR_ECC_L && l.per_page == 1 && l.n == 170 && l.pages == 170);
    assert_string_equal(result_code_paged_layout(60000, 100, 100, 2, &l),
                        "the result does not fit the screen as QR codes, not even a page at a time");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fails),
        cmocka_unit_test(test_comment),
        cmocka_unit_test(test_layout),
        cmocka_unit_test(test_paged_codes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
