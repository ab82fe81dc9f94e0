/* suite machine's CMOS reading: a byte that changed during the run is a finding unless the ledger holds it; the RTC's
 * own bytes (0x00..0x0D) move by themselves and are never one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "tests/machine/portable/cmos_diff.h"

static void test_untracked_changes(void **state)
{
    (void)state;
    u8 boot[CMOS_BANK_BYTES], now[CMOS_BANK_BYTES], out[4];
    bool noted[CMOS_BANK_BYTES] = {0};
    memset(boot, 0, sizeof(boot));
    memcpy(now, boot, sizeof(now));
    assert_int_equal(cmos_untracked_changes(boot, now, noted, out, 4), 0);
    now[0x00] = 0x59; /* seconds ticked, status C read: not a change of pmuboot's */
    now[0x0c] = 0x80;
    assert_int_equal(cmos_untracked_changes(boot, now, noted, out, 4), 0);
    now[0x0f] = 0x0a; /* the shutdown byte, left changed and not noted */
    now[0x70] = 1;
    assert_int_equal(cmos_untracked_changes(boot, now, noted, out, 4), 2);
    assert_int_equal(out[0], 0x0f);
    assert_int_equal(out[1], 0x70);
    noted[0x70] = true; /* in the ledger: machine/restored judges it against the value found instead */
    assert_int_equal(cmos_untracked_changes(boot, now, noted, out, 4), 1);
    for (u32 i = 0x20; i < 0x30; i++)
        now[i] = 0xee;
    assert_int_equal(cmos_untracked_changes(boot, now, noted, out, 4), 17); /* counted beyond what out holds */
    assert_int_equal(out[3], 0x22);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_untracked_changes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
