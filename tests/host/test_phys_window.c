/* struct phys_window (lib/phys_window.c): bounds of ranges, copies and strings, including ranges that
 * would wrap around 2^64. Buffers are malloc'd at their exact size so ASan reports any read past them. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "lib/phys_window.h"

#define BASE 0x10000ull
#define U64_MAX UINT64_MAX

static u8 *exact_copy(const void *bytes, size_t len)
{
    u8 *p = malloc(len ? len : 1);
    assert_non_null(p);
    if (len)
        memcpy(p, bytes, len);
    return p;
}

static void test_range_edges(void **state)
{
    (void)state;
    const struct phys_window w = {BASE, 0x100, NULL, NULL};
    assert_true(phys_range_ok(&w, BASE, 0x100));          /* the whole window */
    assert_true(phys_range_ok(&w, BASE, 0));
    assert_true(phys_range_ok(&w, BASE + 0xff, 1));       /* last byte */
    assert_true(phys_range_ok(&w, BASE + 0x100, 0));      /* empty range at the very end */
    assert_true(phys_range_ok(&w, BASE + 0x80, 0x80));    /* ends exactly at the end */
    assert_false(phys_range_ok(&w, BASE + 0x80, 0x81));
    assert_false(phys_range_ok(&w, BASE - 1, 1));         /* below base */
    assert_false(phys_range_ok(&w, BASE - 1, 0));
    assert_false(phys_range_ok(&w, 0, 0x20000));          /* covers the window, but starts below it */
    assert_false(phys_range_ok(&w, BASE, 0x101));         /* len > size */
    assert_false(phys_range_ok(&w, BASE + 0x100, 1));     /* first byte past the end */
    assert_false(phys_range_ok(&w, BASE + 0x101, 0));
    assert_false(phys_range_ok(&w, BASE, U64_MAX));
    assert_false(phys_range_ok(&w, BASE + 1, U64_MAX));   /* addr + len wraps to BASE */
    assert_false(phys_range_ok(&w, BASE + 0x10, U64_MAX - 0xf)); /* wraps to exactly BASE */
    assert_false(phys_range_ok(&w, U64_MAX, 1));
    assert_false(phys_range_ok(&w, U64_MAX, 2));          /* addr + len wraps to 1 */
    assert_false(phys_range_ok(&w, U64_MAX - 0xf, 0x20));
}

static void test_range_window_at_top_of_address_space(void **state)
{
    (void)state;
    const struct phys_window top = {U64_MAX - 0xff, 0x100, NULL, NULL}; /* covers the last 256 addresses */
    assert_true(phys_range_ok(&top, U64_MAX, 1));
    assert_true(phys_range_ok(&top, U64_MAX - 0xff, 0x100));
    assert_false(phys_range_ok(&top, U64_MAX, 2));
    assert_false(phys_range_ok(&top, U64_MAX - 0xff, 0x101));
    assert_false(phys_range_ok(&top, 0, 1));
    assert_false(phys_range_ok(&top, 0, 0)); /* 0 - base would wrap to exactly size */

    const struct phys_window all = {0, U64_MAX, NULL, NULL}; /* every address but the last */
    assert_true(phys_range_ok(&all, 0, U64_MAX));
    assert_true(phys_range_ok(&all, U64_MAX - 1, 1));
    assert_false(phys_range_ok(&all, 1, U64_MAX));
    assert_false(phys_range_ok(&all, U64_MAX, 1));

    const struct phys_window empty = {BASE, 0, NULL, NULL};
    assert_true(phys_range_ok(&empty, BASE, 0));
    assert_false(phys_range_ok(&empty, BASE, 1));
    assert_false(phys_range_ok(&empty, BASE + 1, 0));
}

static void test_read(void **state)
{
    (void)state;
    static const u8 bytes[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    u8 *mem = exact_copy(bytes, sizeof(bytes));
    const struct phys_window w = {BASE, sizeof(bytes), mem, NULL};
    u8 out[8];

    memset(out, 0xee, sizeof(out));
    assert_true(phys_read(&w, BASE, out, 8));
    assert_memory_equal(out, bytes, 8);

    memset(out, 0xee, sizeof(out));
    assert_true(phys_read(&w, BASE + 5, out, 3));
    assert_memory_equal(out, bytes + 5, 3);
    assert_int_equal(out[3], 0xee);

    assert_true(phys_read(&w, BASE + 8, out, 0));

    static const u8 untouched[8] = {0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee};
    memset(out, 0xee, sizeof(out));
    assert_false(phys_read(&w, BASE + 5, out, 4)); /* one byte too many: dst untouched */
    assert_false(phys_read(&w, BASE - 1, out, 2));
    assert_false(phys_read(&w, BASE + 1, out, U64_MAX));
    assert_false(phys_read(&w, U64_MAX, out, 2));
    assert_memory_equal(out, untouched, 8);
    free(mem);
}

static void test_read_str_ok(void **state)
{
    (void)state;
    static const char bytes[] = "abc\0hello\0"; /* 11 bytes, two strings */
    u8 *mem = exact_copy(bytes, sizeof(bytes));
    const struct phys_window w = {BASE, sizeof(bytes), mem, NULL};
    char dst[16];

    memset(dst, 'x', sizeof(dst));
    assert_int_equal(phys_read_str(&w, BASE, dst, sizeof(dst)), PHYS_STR_OK);
    assert_string_equal(dst, "abc");
    assert_int_equal(phys_read_str(&w, BASE + 4, dst, sizeof(dst)), PHYS_STR_OK);
    assert_string_equal(dst, "hello");
    assert_int_equal(phys_read_str(&w, BASE + 3, dst, sizeof(dst)), PHYS_STR_OK); /* empty string */
    assert_string_equal(dst, "");
    assert_int_equal(phys_read_str(&w, BASE + 10, dst, sizeof(dst)), PHYS_STR_OK); /* NUL in the last byte */
    assert_string_equal(dst, "");

    /* Exactly fits: 5 characters and NUL in a 6-byte destination. */
    memset(dst, 'x', sizeof(dst));
    assert_int_equal(phys_read_str(&w, BASE + 4, dst, 6), PHYS_STR_OK);
    assert_string_equal(dst, "hello");
    assert_int_equal(dst[6], 'x');

    assert_int_equal(phys_read_str(&w, BASE + 3, dst, 1), PHYS_STR_OK); /* "" fits in one byte */
    assert_string_equal(dst, "");
    free(mem);
}

static void test_read_str_too_long(void **state)
{
    (void)state;
    static const char bytes[] = "hello";
    u8 *mem = exact_copy(bytes, sizeof(bytes));
    const struct phys_window w = {BASE, sizeof(bytes), mem, NULL};
    char dst[8];

    memset(dst, 'x', sizeof(dst));
    assert_int_equal(phys_read_str(&w, BASE, dst, 5), PHYS_STR_TOO_LONG); /* needs 6 */
    assert_string_equal(dst, "hell");
    assert_int_equal(dst[5], 'x'); /* nothing past dst_size */

    assert_int_equal(phys_read_str(&w, BASE, dst, 1), PHYS_STR_TOO_LONG);
    assert_string_equal(dst, "");

    memset(dst, 'x', sizeof(dst));
    assert_int_equal(phys_read_str(&w, BASE, dst, 0), PHYS_STR_TOO_LONG); /* no room at all: nothing written */
    assert_int_equal(dst[0], 'x');
    free(mem);
}

static void test_read_str_outside(void **state)
{
    (void)state;
    static const char bytes[] = {'a', 'b', 'c', 'd'}; /* no NUL anywhere */
    u8 *mem = exact_copy(bytes, sizeof(bytes));
    const struct phys_window w = {BASE, sizeof(bytes), mem, NULL};
    char dst[16];

    memset(dst, 'x', sizeof(dst));
    assert_int_equal(phys_read_str(&w, BASE, dst, sizeof(dst)), PHYS_STR_OUTSIDE); /* runs off the end */
    assert_string_equal(dst, "abcd");                                                 /* prefix, terminated */
    assert_int_equal(phys_read_str(&w, BASE + 3, dst, sizeof(dst)), PHYS_STR_OUTSIDE);
    assert_string_equal(dst, "d");

    /* Destination exactly as long as the unterminated string: the window ends where the NUL would be. */
    assert_int_equal(phys_read_str(&w, BASE, dst, 5), PHYS_STR_OUTSIDE);
    assert_string_equal(dst, "abcd");

    assert_int_equal(phys_read_str(&w, BASE + 4, dst, sizeof(dst)), PHYS_STR_OUTSIDE); /* starts at the end */
    assert_string_equal(dst, "");
    assert_int_equal(phys_read_str(&w, BASE - 1, dst, sizeof(dst)), PHYS_STR_OUTSIDE); /* starts below */
    assert_string_equal(dst, "");
    assert_int_equal(phys_read_str(&w, U64_MAX, dst, sizeof(dst)), PHYS_STR_OUTSIDE);
    assert_string_equal(dst, "");
    free(mem);
}

static void test_read_str_wraps_at_top(void **state)
{
    (void)state;
    static const char bytes[] = {'t', 'o', 'p', '!'}; /* the last 4 bytes of the address space, no NUL */
    u8 *mem = exact_copy(bytes, sizeof(bytes));
    const struct phys_window w = {U64_MAX - 3, sizeof(bytes), mem, NULL};
    char dst[16];
    assert_int_equal(phys_read_str(&w, U64_MAX - 3, dst, sizeof(dst)), PHYS_STR_OUTSIDE);
    assert_string_equal(dst, "top!");
    assert_int_equal(phys_read_str(&w, U64_MAX, dst, sizeof(dst)), PHYS_STR_OUTSIDE);
    assert_string_equal(dst, "!");
    free(mem);

    /* A window at address 0 with the string's start at the top of memory must not wrap into it. */
    static const char low[] = "low";
    u8 *lowmem = exact_copy(low, sizeof(low));
    const struct phys_window w0 = {0, sizeof(low), lowmem, NULL};
    assert_int_equal(phys_read_str(&w0, U64_MAX, dst, sizeof(dst)), PHYS_STR_OUTSIDE);
    assert_string_equal(dst, "");
    assert_int_equal(phys_read_str(&w0, 0, dst, sizeof(dst)), PHYS_STR_OK);
    assert_string_equal(dst, "low");
    free(lowmem);
}

/* The reach hook (kernel/paging.c maps above 4 GiB through it): asked for exactly the bytes read; a refusal
 * fails the read and leaves dst untouched, as a range outside the window does. */
static u64 reach_from, reach_asked_addr, reach_asked_len;
static bool reach_only_below(u64 addr, u64 len)
{
    reach_asked_addr = addr;
    reach_asked_len = len;
    return addr + len <= reach_from;
}

static void test_reach_hook(void **state)
{
    (void)state;
    static const u8 bytes[] = {1, 2, 3, 4, 5, 6, 7, 8};
    u8 *mem = exact_copy(bytes, sizeof(bytes));
    const struct phys_window w = {BASE, sizeof(bytes), mem, reach_only_below};
    reach_from = BASE + 4;
    u8 dst[8];
    memset(dst, 0xEE, sizeof(dst));
    assert_true(phys_read(&w, BASE, dst, 4));
    assert_int_equal(reach_asked_addr, BASE);
    assert_int_equal(reach_asked_len, 4);
    assert_memory_equal(dst, bytes, 4);
    memset(dst, 0xEE, sizeof(dst));
    assert_false(phys_read(&w, BASE + 2, dst, 4)); /* its last two bytes cannot be reached */
    for (u32 i = 0; i < sizeof(dst); i++)
        assert_int_equal(dst[i], 0xEE);
    reach_asked_len = 0;
    assert_false(phys_read(&w, BASE + 6, dst, 4)); /* outside the window: the hook is not even asked */
    assert_int_equal(reach_asked_len, 0);

    char str[16];
    assert_int_equal(phys_read_str(&w, BASE, str, sizeof(str)), PHYS_STR_OUTSIDE); /* stops where reach ends */
    assert_int_equal(strlen(str), 4);
    free(mem);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_range_edges),
        cmocka_unit_test(test_range_window_at_top_of_address_space),
        cmocka_unit_test(test_read),
        cmocka_unit_test(test_read_str_ok),
        cmocka_unit_test(test_read_str_too_long),
        cmocka_unit_test(test_read_str_outside),
        cmocka_unit_test(test_read_str_wraps_at_top),
        cmocka_unit_test(test_reach_hook),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
