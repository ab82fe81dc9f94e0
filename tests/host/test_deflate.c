/* lib/deflate.c and lib/crc32.c against zlib (Debian zlib1g-dev): what deflate_zlib writes, zlib's uncompress()
 * reads back byte for byte; crc32_update and deflate_adler32 agree with zlib's crc32() and adler32(). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>
#include <zlib.h>

#include "lib/crc32.h"
#include "lib/deflate.h"

static struct deflate_state st;
static u8 in[300000], out[400000], back[300000];

static void round_trip(u32 len, u32 *packed)
{
    u32 n = deflate_zlib(&st, in, len, out, sizeof(out));
    assert_true(n > 0);
    uLongf got = sizeof(back);
    assert_int_equal(uncompress(back, &got, out, n), Z_OK);
    assert_int_equal(got, len);
    assert_memory_equal(back, in, len);
    if (packed)
        *packed = n;
}

/* A checklist-like text: TAP lines that repeat their words, numbers that change. */
static u32 tap_text(u32 lines)
{
    u32 len = 0;
    for (u32 i = 0; i < lines && len + 200 < sizeof(in); i++)
        len += (u32)snprintf((char *)in + len, sizeof(in) - len,
                             "ok %u - cpu%u/pmu_regs/gp_counter_%u # SKIP not on this PMU kind\n", i + 1, i % 64, i % 8);
    return len;
}

static void test_round_trips(void **state)
{
    (void)state;
    u32 packed;
    round_trip(0, NULL);
    in[0] = 'x';
    round_trip(1, NULL);
    memset(in, 'a', 1000); /* one long run: matches of 258 at distance 1 */
    round_trip(1000, &packed);
    assert_true(packed < 40);
    u32 len = tap_text(3000);
    round_trip(len, &packed);
    printf("# deflate: %u bytes of TAP lines in %u\n", len, packed);
    assert_true(packed * 8 < len);
    u32 x = 1;
    for (u32 i = 0; i < 200000; i++) { /* nothing to match, past the window */
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        in[i] = (u8)x;
    }
    round_trip(200000, NULL);
    for (u32 i = 0; i < 200000; i += 7) /* matches at every distance up to the window, and beyond it */
        memmove(in + i, in + (i * 31) % (i + 1), MIN(7u, 200000 - i));
    round_trip(200000, NULL);
    /* Byte k about 2^-k of the time: a Huffman tree deeper than 15 bits, which the code lengths must be cut to. */
    for (u32 i = 0; i < 200000; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        u32 k = 0;
        while (k < 30 && (x >> k & 1))
            k++;
        in[i] = (u8)(k * 7);
    }
    round_trip(200000, NULL);
}

/* Code lengths: limited to max_bits when the Huffman tree is deeper (Fibonacci weights make it as deep as it gets),
 * always a complete code, at least two symbols. */
static void test_code_lengths(void **state)
{
    (void)state;
    u32 freq[286] = {0};
    u8 lens[286];
    freq[0] = freq[1] = 1;
    for (u32 i = 2; i < 30; i++)
        freq[i] = freq[i - 1] + freq[i - 2];
    for (u32 max = 7; max <= 15; max += 8) {
        deflate_code_lengths(freq, 286, max, lens);
        u64 kraft = 0; /* sum of 2^(max - len) over the used symbols: 2^max when complete */
        u32 longest = 0;
        for (u32 i = 0; i < 286; i++) {
            assert_true((lens[i] != 0) == (i < 30));
            longest = MAX(longest, lens[i]);
            if (lens[i])
                kraft += 1ull << (max - lens[i]);
        }
        assert_true(longest <= max);
        assert_int_equal(kraft, 1ull << max);
    }
    u32 one[30] = {0};
    one[7] = 5;
    deflate_code_lengths(one, 30, 15, lens);
    assert_true(lens[7] == 1 && lens[0] == 1 && lens[1] == 0);
}

static void test_too_small(void **state)
{
    (void)state;
    u32 len = tap_text(100);
    u32 n = deflate_zlib(&st, in, len, out, sizeof(out));
    assert_int_equal(deflate_zlib(&st, in, len, out, n - 1), 0);
    assert_int_equal(deflate_zlib(&st, in, len, out, n), n);
}

static void test_checksums(void **state)
{
    (void)state;
    u32 len = tap_text(500);
    assert_int_equal(crc32_update(0, in, len), (u32)crc32(0, in, len));
    assert_int_equal(crc32_update(crc32_update(0, in, 100), in + 100, len - 100), (u32)crc32(0, in, len));
    assert_int_equal(deflate_adler32(in, len), (u32)adler32_z(1, in, len));
    assert_int_equal(crc32_update(0, (const u8 *)"123456789", 9), 0xcbf43926); /* the check value */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trips),
        cmocka_unit_test(test_code_lengths),
        cmocka_unit_test(test_too_small),
        cmocka_unit_test(test_checksums),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
