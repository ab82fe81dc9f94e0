/* lib/reset_record.c: suite reset's record survives encode/decode and rejects garbage, and the record store
 * finds it a CMOS slot clear of firmware's bytes and of the hang record. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "lib/hang_record.h"
#include "lib/reset_record.h"

/* The reset record's slot as the record store finds it (kernel/record_store.c): clear of the hang record. */
static int reset_slot(const struct cmos_window *w, const u8 c[RESET_CMOS_END - RESET_CMOS_FIRST], bool *found)
{
    return cmos_record_slot(w, c, reset_record_valid, hang_record_valid, found);
}

/* The CMOS bytes of one record. */
static u8 cmos[RESET_RECORD_BYTES];

static void test_roundtrip_and_garbage(void **state)
{
    (void)state;
    struct reset_record r = {.requested = 5, .state = RESET_STATE_ISSUED, .current = 2, .boots = 3,
                             .result = {1, 2, 3}, .mismatches = {0, 7, 255}}, back;
    reset_record_encode(&r, cmos);
    assert_true(reset_record_decode(cmos, &back));
    assert_memory_equal(&r, &back, sizeof(r));
    cmos[8] ^= 1; /* checksum */
    assert_false(reset_record_decode(cmos, &back));
    memset(cmos, 0, sizeof(cmos));
    assert_false(reset_record_decode(cmos, &back));
    memset(cmos, 0xFF, sizeof(cmos));
    assert_false(reset_record_decode(cmos, &back));
}

/* The record goes only into unused (zero) CMOS bytes, never over QEMU's and SeaBIOS's 0x5B..0x5F, and is found
 * again where it was written. */
static void cmos_slot(void **state)
{
    (void)state;
    u8 cmos[RESET_CMOS_END - RESET_CMOS_FIRST];
    bool found;
    struct cmos_window qemu;
    cmos_window_qemu(&qemu);
    memset(cmos, 0, sizeof(cmos));
    assert_int_equal(reset_slot(&qemu, cmos, &found), 0x40); /* QEMU: 0x40.. unused */
    assert_false(found);
    memset(cmos, 0x5A, 0x10);                              /* settings in 0x40..0x4F */
    assert_int_equal(reset_slot(&qemu, cmos, &found), 0x60); /* 0x4B..0x5A holds some, 0x50.. reaches 0x5B */
    memset(cmos, 0x5A, sizeof(cmos));                      /* every byte in use */
    assert_int_equal(reset_slot(&qemu, cmos, &found), -1);
    memset(cmos, 0, sizeof(cmos));
    cmos[0x5F - RESET_CMOS_FIRST] = 1;                     /* QEMU's CPU count: the run 0x50..0x5F is not taken */
    memset(cmos, 0x11, 0x10);
    assert_int_equal(reset_slot(&qemu, cmos, &found), 0x60);
    /* A record of this run is found where it was written, whatever zero runs precede it. */
    memset(cmos, 0, sizeof(cmos));
    struct reset_record r = {.requested = RESET_ALL, .state = RESET_STATE_ISSUED, .current = 1, .boots = 2};
    reset_record_encode(&r, &cmos[0x62 - RESET_CMOS_FIRST]);
    assert_int_equal(reset_slot(&qemu, cmos, &found), 0x62);
    assert_true(found);
    /* ... but not one written over 0x5B..0x5F: the first unused run is taken instead. */
    memset(cmos, 0, sizeof(cmos));
    reset_record_encode(&r, &cmos[0x50 - RESET_CMOS_FIRST]);
    assert_int_equal(reset_slot(&qemu, cmos, &found), 0x40);
    assert_false(found);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cmos_slot),
        cmocka_unit_test(test_roundtrip_and_garbage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
