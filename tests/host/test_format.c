/* k_snprintf / k_vsnprintf / strbuf (lib/format.c) against the host C library.
 * The reference is the host's snprintf (C11 7.21.6.1): for every format the kernel claims to support
 * (format.h), output bytes and return value must match glibc's. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "lib/format.h"

static char kbuf[256], hbuf[256];
static int mismatches;

/* Compare both outputs byte for byte including the terminating NUL (so "%c" of '\0' is covered). */
static void compare(int line, const char *fmt, int kn, int hn)
{
    if (kn == hn && hn >= 0 && (size_t)hn < sizeof(hbuf) && memcmp(kbuf, hbuf, (size_t)hn + 1) == 0)
        return;
    print_error("line %d: format \"%s\": k_snprintf gave %d \"%s\", host snprintf gave %d \"%s\"\n", line, fmt,
                kn, kbuf, hn, hbuf);
    mismatches++;
}

#define SAME(fmt, ...)                                                                                     \
    do {                                                                                                   \
        memset(kbuf, 0x5a, sizeof(kbuf));                                                                  \
        memset(hbuf, 0x5a, sizeof(hbuf));                                                                  \
        int kn_ = k_snprintf(kbuf, sizeof(kbuf), fmt, ##__VA_ARGS__);                                      \
        int hn_ = snprintf(hbuf, sizeof(hbuf), fmt, ##__VA_ARGS__);                                        \
        compare(__LINE__, fmt, kn_, hn_);                                                                  \
    } while (0)

static void expect_no_mismatch(void)
{
    int n = mismatches;
    mismatches = 0;
    if (n)
        fail_msg("%d format(s) differ from the host snprintf", n);
}

static void test_signed_decimal(void **state)
{
    (void)state;
    SAME("%d", 0);
    SAME("%d", 1);
    SAME("%d", -1);
    SAME("%d", 42);
    SAME("%i", -42);
    SAME("%d", INT_MAX);
    SAME("%d", INT_MIN);
    SAME("%i", INT_MIN);
    SAME("[%5d]", 42);
    SAME("[%5d]", -42);
    SAME("[%-5d]", 42);
    SAME("[%-5d]", -42);
    SAME("[%05d]", 42);
    SAME("[%05d]", -42);
    SAME("[%2d]", 12345);
    SAME("[%.3d]", 7);
    SAME("[%.3d]", -7);
    SAME("[%8.3d]", -7);
    SAME("[%-8.3d]", -7);
    SAME("[%.0d]", 0);   /* zero with precision 0 prints no digits */
    SAME("[%5.0d]", 0);
    SAME("[%.0d]", 1);
    SAME("[%.d]", 0);
    SAME("[%012d]", INT_MIN);
    expect_no_mismatch();
}

static void test_unsigned_hex_octal(void **state)
{
    (void)state;
    SAME("%u", 0u);
    SAME("%u", 3000000000u);
    SAME("%u", UINT_MAX);
    SAME("%x", 0u);
    SAME("%x", 0xdeadbeefu);
    SAME("%X", 0xdeadbeefu);
    SAME("%o", 0u);
    SAME("%o", 8u);
    SAME("%o", UINT_MAX);
    SAME("[%10u]", 123u);
    SAME("[%-10u]", 123u);
    SAME("[%010u]", 123u);
    SAME("[%.8x]", 0x1fu);
    SAME("[%8.4X]", 0xabu);
    SAME("[%.0x]", 0u);
    SAME("[%.0o]", 0u);
    SAME("[%.0u]", 0u);
    SAME("%#x", 0u); /* '#' adds no prefix to zero */
    SAME("%#x", 255u);
    SAME("%#X", 255u);
    SAME("[%#010x]", 0x1fu);
    SAME("[%#-10x]", 0x1fu);
    SAME("[%#10X]", 0x1fu);
    SAME("[%#.8x]", 0x1fu);
    SAME("[%#.0x]", 0u);
    SAME("%#o", 0u);
    SAME("%#o", 8u);
    SAME("[%#6o]", 8u);
    SAME("[%#06o]", 8u);
    /* '#' with o: "precision is increased, if and only if necessary, to force the first digit to be zero" */
    SAME("[%#.3o]", 8u);
    SAME("[%#.2o]", 8u);
    SAME("[%#.5o]", 8u);
    SAME("[%#.0o]", 0u);
    SAME("[%#5.0o]", 0u);
    SAME("[%#.3o]", 0u);
    SAME("[%#.1o]", 0u);
    SAME("[%#.1o]", 7u);
    SAME("[%#.4o]", 0777u);
    expect_no_mismatch();
}

static void test_char_string_pointer(void **state)
{
    (void)state;
    SAME("%c", 'A');
    SAME("[%3c]", 'A');
    SAME("[%-3c]", 'A');
    SAME("a%cb", 0); /* NUL character: counted, and written */
    SAME("%s", "hello");
    SAME("%s", "");
    SAME("[%10s]", "hello");
    SAME("[%-10s]", "hello");
    SAME("[%.3s]", "hello");
    SAME("[%.0s]", "hello");
    SAME("[%10.3s]", "hello");
    SAME("[%-10.3s]", "hello");
    SAME("[%.10s]", "hi");
    char unterminated[3] = {'a', 'b', 'c'}; /* precision bounds the read: no NUL needed (C11 7.21.6.1p8) */
    SAME("[%.3s]", unterminated);
    const char *volatile null_str = NULL; /* volatile: keep the compiler from folding the call */
    SAME("%s", null_str);
    SAME("[%10s]", null_str);
    SAME("[%-10s]", null_str);
    int x;
    void *p = &x;
    SAME("%p", p);
    SAME("[%24p]", p);
    SAME("[%-24p]", p);
    SAME("%p", (void *)(uintptr_t)0x1000);
    SAME("%p", (void *)UINTPTR_MAX);
    SAME("100%%");
    SAME("%%d %d", 5);
    SAME("a=%d b=%s c=%#x d=%c", -3, "str", 48879u, 'z');
    expect_no_mismatch();
}

static void test_length_modifiers(void **state)
{
    (void)state;
    SAME("%hhd", 200);     /* converted to signed char: -56 */
    SAME("%hhd", -1);
    SAME("%hhu", 0x1ff);   /* unsigned char: 255 */
    SAME("%hhx", 0x1234);
    SAME("%hd", 40000);    /* short: -25536 */
    SAME("%hu", 0x12345);
    SAME("%hx", 0x12345);
    SAME("%hi", SHRT_MIN);
    SAME("%ld", LONG_MIN);
    SAME("%ld", LONG_MAX);
    SAME("%lu", ULONG_MAX);
    SAME("%lx", 0x123456789abcdefUL);
    SAME("%lld", LLONG_MIN);
    SAME("%lld", LLONG_MAX);
    SAME("%lli", -1LL);
    SAME("%llu", ULLONG_MAX);
    SAME("%llx", ULLONG_MAX);
    SAME("%llX", 0xfedcba9876543210ULL);
    SAME("%llo", ULLONG_MAX);
    SAME("%#llo", ULLONG_MAX);
    SAME("[%#24llx]", 0x123456789ULL);
    SAME("[%-25lld]", LLONG_MIN);
    SAME("[%025lld]", LLONG_MIN);
    SAME("%zu", SIZE_MAX);
    SAME("%zx", (size_t)0xabcdef);
    SAME("%zd", (ssize_t)-5);
    SAME("%zu", sizeof(struct strbuf));
    expect_no_mismatch();
}

static void test_star_width_precision(void **state)
{
    (void)state;
    SAME("[%*d]", 5, 42);
    SAME("[%*d]", -5, 42); /* negative width: '-' flag plus width */
    SAME("[%*d]", 0, 42);
    SAME("[%.*d]", 3, 7);
    SAME("[%.*d]", -1, 7); /* negative precision: as if omitted */
    SAME("[%.*d]", 0, 0);
    SAME("[%0*d]", 6, -42);
    SAME("[%*.*s]", 8, 3, "abcdef");
    SAME("[%-*s]", 6, "ab");
    SAME("[%*s]", -6, "ab");
    SAME("[%.*s]", -1, "abcdef");
    SAME("[%*c]", 4, 'q');
    SAME("[%#*x]", 10, 0xffu);
    SAME("[%*.*llx]", 20, 12, 0xabcULL);
    expect_no_mismatch();
}

/* Flag combinations the C standard defines but gcc's -Wformat flags as redundant. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
static void test_conflicting_flags(void **state)
{
    (void)state;
    SAME("[%-05d]", 42); /* '-' overrides '0' */
    SAME("[%0-5d]", -42);
    SAME("[%-#08x]", 0x1fu);
    SAME("[%--5d]", 3);
    SAME("[%005d]", 3);
    SAME("[%#-08o]", 8u);
    SAME("[%08.3d]", 7); /* '0' is ignored when a precision is given (C11 7.21.6.1p6) */
    SAME("[%08.3d]", -7);
    SAME("[%#012.4x]", 0xabu);
    expect_no_mismatch();
}
#pragma GCC diagnostic pop

/* Every buffer size from 0 to past the full length: same bytes, same (untruncated) return value. */
static void test_truncation_matches_host(void **state)
{
    (void)state;
    for (size_t size = 0; size <= 60; size++) {
        char *k = malloc(size ? size : 1), *h = malloc(size ? size : 1); /* exact size: ASan sees overruns */
        assert_non_null(k);
        assert_non_null(h);
        memset(k, 0x5a, size ? size : 1);
        memset(h, 0x5a, size ? size : 1);
        int kn = k_snprintf(k, size, "%-6s|%5d|%#010x|%c|%.3s|%llu", "ab", -17, 0xbeefu, 'Z', "hello",
                            18446744073709551615ULL);
        int hn = snprintf(h, size, "%-6s|%5d|%#010x|%c|%.3s|%llu", "ab", -17, 0xbeefu, 'Z', "hello",
                          18446744073709551615ULL);
        assert_int_equal(kn, hn);
        if (size) {
            assert_memory_equal(k, h, size);
            assert_int_equal(k[strnlen(k, size)], '\0'); /* always terminated */
            assert_true(strnlen(k, size) == MIN((size_t)kn, size - 1));
        } else {
            assert_int_equal((unsigned char)k[0], 0x5a); /* size 0 writes nothing */
        }
        free(k);
        free(h);
    }
}

static void test_truncation_basics(void **state)
{
    (void)state;
    char buf[8];
    memset(buf, 'x', sizeof(buf));
    assert_int_equal(k_snprintf(buf, 5, "%s", "hello world"), 11); /* full length, not what fit */
    assert_string_equal(buf, "hell");
    assert_int_equal(buf[5], 'x'); /* nothing written past size */

    memset(buf, 'x', sizeof(buf));
    assert_int_equal(k_snprintf(buf, 1, "%d", 12345), 5);
    assert_int_equal(buf[0], '\0');
    assert_int_equal(buf[1], 'x');

    memset(buf, 'x', sizeof(buf));
    assert_int_equal(k_snprintf(buf, 0, "%d", 12345), 5);
    assert_int_equal(buf[0], 'x');
    assert_int_equal(k_snprintf(NULL, 0, "%s%s", "abc", "def"), 6); /* C11: size 0 allows a null buffer */

    assert_int_equal(k_snprintf(buf, sizeof(buf), "%s", ""), 0);
    assert_string_equal(buf, "");
    assert_int_equal(k_snprintf(buf, sizeof(buf), "1234567"), 7); /* exactly fits with its NUL */
    assert_string_equal(buf, "1234567");
    assert_int_equal(k_snprintf(buf, sizeof(buf), "12345678"), 8);
    assert_string_equal(buf, "1234567");
}

static int wrap_vsnprintf(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = k_vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return n;
}

static void test_vsnprintf(void **state)
{
    (void)state;
    char buf[32];
    assert_int_equal(wrap_vsnprintf(buf, sizeof(buf), "%s-%d-%llx", "v", -9, 0x10ULL), 7);
    assert_string_equal(buf, "v--9-10");
}

static void test_strbuf_appends(void **state)
{
    (void)state;
    char buf[32];
    struct strbuf sb;
    sb_init(&sb, buf, sizeof(buf));
    assert_string_equal(buf, "");
    assert_int_equal(sb.len, 0);
    assert_false(sb.truncated);
    sb_printf(&sb, "a=%d", 1);
    sb_printf(&sb, " b=%s", "two");
    sb_printf(&sb, "%s", "");
    sb_printf(&sb, " c=%#x", 3u);
    assert_string_equal(buf, "a=1 b=two c=0x3");
    assert_int_equal(sb.len, strlen("a=1 b=two c=0x3"));
    assert_false(sb.truncated);
}

static void test_strbuf_exact_fill_then_truncate(void **state)
{
    (void)state;
    char *buf = malloc(8); /* exact size: ASan sees overruns */
    assert_non_null(buf);
    struct strbuf sb;
    sb_init(&sb, buf, 8);
    sb_printf(&sb, "%s", "1234");
    sb_printf(&sb, "%s", "567"); /* 7 characters + NUL: fills it exactly */
    assert_false(sb.truncated);
    assert_string_equal(buf, "1234567");
    assert_int_equal(sb.len, 7);
    sb_printf(&sb, "%s", ""); /* nothing to add: still fine */
    assert_false(sb.truncated);
    sb_printf(&sb, "%c", '8');
    assert_true(sb.truncated);
    assert_int_equal(sb.len, 7);
    assert_int_equal(strlen(buf), 7);
    assert_string_equal(buf + strlen(buf) - 3, "...");
    assert_string_equal(buf, "1234...");
    sb_printf(&sb, "%s", "more"); /* ignored once truncated */
    assert_string_equal(buf, "1234...");
    assert_int_equal(sb.len, 7);
    free(buf);
}

static void test_strbuf_truncation_marks(void **state)
{
    (void)state;
    char *buf = malloc(16);
    assert_non_null(buf);
    struct strbuf sb;
    sb_init(&sb, buf, 16);
    sb_printf(&sb, "value %d and %s", 123456, "a long tail that cannot fit");
    assert_true(sb.truncated);
    assert_int_equal(strlen(buf), 15);
    assert_int_equal(sb.len, 15);
    assert_memory_equal(buf, "value 123456", 12);
    assert_string_equal(buf + 12, "...");
    free(buf);

    /* Too small for "...": still bounded and terminated. */
    char *tiny = malloc(3);
    assert_non_null(tiny);
    sb_init(&sb, tiny, 3);
    sb_printf(&sb, "%s", "abcdef");
    assert_true(sb.truncated);
    assert_int_equal(strnlen(tiny, 3), 2);
    assert_int_equal(sb.len, 2);
    free(tiny);

    /* Size 4: room for "..." only. */
    char *four = malloc(4);
    assert_non_null(four);
    sb_init(&sb, four, 4);
    sb_printf(&sb, "%s", "abcd");
    assert_true(sb.truncated);
    assert_string_equal(four, "...");
    free(four);

    /* Size 0: nothing is written, never. */
    sb_init(&sb, NULL, 0);
    sb_printf(&sb, "%s", "x");
    assert_int_equal(sb.len, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_signed_decimal),
        cmocka_unit_test(test_unsigned_hex_octal),
        cmocka_unit_test(test_char_string_pointer),
        cmocka_unit_test(test_length_modifiers),
        cmocka_unit_test(test_star_width_precision),
        cmocka_unit_test(test_conflicting_flags),
        cmocka_unit_test(test_truncation_matches_host),
        cmocka_unit_test(test_truncation_basics),
        cmocka_unit_test(test_vsnprintf),
        cmocka_unit_test(test_strbuf_appends),
        cmocka_unit_test(test_strbuf_exact_fill_then_truncate),
        cmocka_unit_test(test_strbuf_truncation_marks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
