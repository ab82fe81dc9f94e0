/* lib/result_stream.c (the lines the QR codes carry) and lib/result_code.c (the codes' bytes and their layout on
 * a screen). The whole way back, codes to report, is tests/report's and make check's (tools/result-codes, zbarimg,
 * tools/pmuboot-report --from-images). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>
#include <zlib.h>

#include "lib/crc32.h"
#include "lib/result_code.h"
#include "lib/result_stream.h"

static char buf[4096];
static struct result_stream rs;

static void feed(const char *s)
{
    for (; *s; s++)
        result_stream_putc(&rs, *s);
}

static void test_stream_lines(void **state)
{
    (void)state;
    result_stream_init(&rs, buf, sizeof(buf));
    feed("GRUB noise\nTAP version 13\r\n# pmuboot x\n"
         "ok 1 - boot/cmdline\n  ---\n  \"cmdline\": \"a\"\n  ...\n"
         "not ok 2 - cpu0/apic/id\n  ---\n  \"APIC ID\": {expected: 0, observed: 1, tolerance: 0}\n  ...\n"
         "not ok 3 - cpu0/apic/esr # TODO known deviation\n  ---\n  \"x\": 1\n  ...\n"
         "ok 4 - cpu[0-3]/pmu_enum/discover\n  ---\n  \"caps 0\": \"pmu: kind none\"\n  ...\n"
         "1..4\n3 passed, 1 failed, 0 skipped\n");
    rs.buf[rs.len] = 0;
    assert_string_equal(buf, "TAP version 13\n# pmuboot x\nok 1 - boot/cmdline\n"
                             "not ok 2 - cpu0/apic/id\n  ---\n"
                             "  \"APIC ID\": {expected: 0, observed: 1, tolerance: 0}\n  ...\n"
                             "not ok 3 - cpu0/apic/esr # TODO known deviation\n"
                             "ok 4 - cpu[0-3]/pmu_enum/discover\n  ---\n  \"caps 0\": \"pmu: kind none\"\n  ...\n"
                             "1..4\n3 passed, 1 failed, 0 skipped\n");
}

static void test_stream_full(void **state)
{
    (void)state;
    static char small[121]; /* 120 for the stream and a NUL */
    result_stream_init(&rs, small, 120);
    feed("TAP version 13\nok 1 - a/b\nok 2 - a/c\nok 3 - a/d\nok 4 - a/e\nok 5 - a/f\nok 6 - a/g\n");
    assert_true(rs.full);
    assert_true(rs.len <= 120);
    assert_non_null(strstr(small, "# result: the stream is cut here"));
}

static u8 packed[5000], code[2000], back[5000];

static void test_codes(void **state)
{
    (void)state;
    for (u32 i = 0; i < sizeof(packed); i++)
        packed[i] = (u8)(i * 7);
    u32 crc = 0x12345678, n = 3, at = 0;
    for (u32 k = 1; k <= n; k++) {
        u32 len = result_code_build(packed, 4999, crc, k, n, code, sizeof(code));
        assert_int_equal(len, (k == 1 ? 1667 : 1666) + RESULT_CODE_OVERHEAD);
        assert_memory_equal(code, "PMB\x01", 4);
        assert_int_equal(code[4], k);
        assert_int_equal(code[5], n);
        assert_int_equal((u32)code[6] << 24 | (u32)code[7] << 16 | (u32)code[8] << 8 | code[9], crc);
        u32 plen = (u32)code[10] << 8 | code[11];
        assert_int_equal(plen + RESULT_CODE_OVERHEAD, len);
        u32 sum = (u32)code[len - 4] << 24 | (u32)code[len - 3] << 16 | (u32)code[len - 2] << 8 | code[len - 1];
        assert_int_equal(sum, (u32)crc32(0, code, len - 4));
        memcpy(back + at, code + 12, plen);
        at += plen;
    }
    assert_int_equal(at, 4999);
    assert_memory_equal(back, packed, 4999);
    assert_int_equal(result_code_build(packed, 4999, crc, 0, 3, code, sizeof(code)), 0);
    assert_int_equal(result_code_build(packed, 4999, crc, 4, 3, code, sizeof(code)), 0);
    assert_int_equal(result_code_build(packed, 4999, crc, 1, 1, code, sizeof(code)), 0); /* does not fit out */
}

static void test_layout(void **state)
{
    (void)state;
    struct result_layout l;
    /* A small result: one code, as large as the area lets it be. */
    assert_null(result_code_layout(100, 600, 400, 2, 16, &l));
    assert_int_equal(l.n, 1);
    assert_int_equal(l.ecc, QR_ECC_M);
    assert_int_equal(l.scale, 400 / (17 + 4 * l.version + 8));
    /* A few KB on a 1024x768 screen: every code inside the area, modules of 2 pixels at least. */
    assert_null(result_code_layout(4800, 1024, 560, 2, 16, &l));
    u32 side = 17 + 4 * l.version + 8;
    assert_true(l.cols * side * l.scale <= 1024 && l.rows * side * l.scale <= 560 && l.scale >= 2);
    assert_true(l.cols * l.rows >= l.n && qr_byte_capacity(l.version, l.ecc) >= (4800 + l.n - 1) / l.n + 16);
    /* Too much for the area. */
    assert_string_equal(result_code_layout(100000, 1024, 560, 2, 16, &l),
                        "the result does not fit the screen as QR codes");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stream_lines),
        cmocka_unit_test(test_stream_full),
        cmocka_unit_test(test_codes),
        cmocka_unit_test(test_layout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
