/* lib/x2apic_ldr.c: the logical x2APIC ID of SDM Vol.3A 11.12.10.2, cluster x2APIC ID[19:4] in bits 31:16 and one
 * bit of 16 in bits 15:0, on the IDs at each field's edges. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "lib/x2apic_ldr.h"

static void test_logical_id(void **state)
{
    (void)state;
    assert_int_equal(x2apic_logical_id(0), 0x00000001);
    assert_int_equal(x2apic_logical_id(1), 0x00000002);
    assert_int_equal(x2apic_logical_id(0xF), 0x00008000);      /* the last of cluster 0 */
    assert_int_equal(x2apic_logical_id(0x10), 0x00010001);     /* the first of cluster 1 */
    assert_int_equal(x2apic_logical_id(0x23), 0x00020008);
    assert_int_equal(x2apic_logical_id(0xFFFFF), 0xFFFF8000);  /* x2APIC ID[19:4] all ones: cluster 0xFFFF */
    assert_int_equal(x2apic_logical_id(0x100000), 0x00000001); /* bits above 19 take no part */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_logical_id),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
