/* apic/timer_calc.c: the DCR encoding (SDM Vol.3A 11.5.4, Figure 11-10) and the overflow-free mul/div the
 * APIC timer checks use to turn ticks into time. References: the SDM table, and the host's unsigned
 * __int128 arithmetic for mul_div_u64. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "apic/timer_calc.h"

/* Figure 11-10, row by row: DCR bits 3,1,0 -> divisor. */
static void dcr_table(void **state)
{
    (void)state;
    static const struct {
        u32 dcr, divisor;
    } rows[] = {
        {0x0, 2}, {0x1, 4}, {0x2, 8}, {0x3, 16}, {0x8, 32}, {0x9, 64}, {0xA, 128}, {0xB, 1},
    };
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        assert_int_equal(apic_dcr_divisor(rows[i].dcr), rows[i].divisor);
        u32 dcr = 0xFF;
        assert_true(apic_dcr_for_divisor(rows[i].divisor, &dcr));
        assert_int_equal(dcr, rows[i].dcr);
    }
    /* Bit 2 is reserved: it does not change the divisor. */
    assert_int_equal(apic_dcr_divisor(0x4 | 0x3), 16);
}

static void dcr_rejects_other_divisors(void **state)
{
    (void)state;
    static const u32 bad[] = {0, 3, 5, 6, 12, 256, 1024, 0xFFFFFFFFu};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        u32 dcr = 0x77;
        assert_false(apic_dcr_for_divisor(bad[i], &dcr));
        assert_int_equal(dcr, 0x77);
    }
}

static void mul_div_matches_int128(void **state)
{
    (void)state;
    static const u64 vals[] = {0, 1, 2, 3, 7, 1000, 1000000, 1193182, 999999937ull, 0xFFFFFFFFull,
                               0x100000000ull, 3000000000ull, 0x123456789ABCDEFull, 0x7FFFFFFFFFFFFFFFull,
                               0xFFFFFFFFFFFFFFFFull};
    size_t n = sizeof(vals) / sizeof(vals[0]);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            for (size_t k = 1; k < n; k++) {
                unsigned __int128 want = (unsigned __int128)vals[i] * vals[j] / vals[k];
                bool ok = false;
                u64 got = mul_div_u64(vals[i], vals[j], vals[k], &ok);
                if (want >> 64) {
                    assert_false(ok);
                    assert_true(got == UINT64_MAX);
                } else {
                    assert_true(ok);
                    assert_true(got == (u64)want);
                }
            }
}

static void mul_div_by_zero(void **state)
{
    (void)state;
    bool ok = true;
    assert_true(mul_div_u64(5, 6, 0, &ok) == UINT64_MAX);
    assert_false(ok);
    assert_true(mul_div_u64(5, 6, 0, NULL) == UINT64_MAX); /* ok may be omitted */
}

static void median(void **state)
{
    (void)state;
    u64 one[] = {42};
    assert_true(median_u64(one, 1) == 42);
    u64 three[] = {30, 10, 20};
    assert_true(median_u64(three, 3) == 20);
    u64 four[] = {4, 1, 3, 2}; /* lower middle: a measured value, not an average */
    assert_true(median_u64(four, 4) == 2);
    u64 outlier[] = {1000, 1001, 999, 5000000, 1002};
    assert_true(median_u64(outlier, 5) == 1001);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(dcr_table),           cmocka_unit_test(dcr_rejects_other_divisors),
        cmocka_unit_test(mul_div_matches_int128), cmocka_unit_test(mul_div_by_zero),
        cmocka_unit_test(median),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
