/* lib/qr.c against libqrencode (Debian's libqrencode-dev, the library behind the `qrencode` command), module for
 * module: the same bytes in one 8-bit segment, the same version, level and mask give the same symbol.
 *
 * The mask is forced through QRcode_encodeMask(), which libqrencode exports but declares only in its internal
 * header (qrencode_inner.h), hence the declaration below; the `qrencode` command has no option for the mask.
 * With the mask left to each encoder, both choose by penalty score but libqrencode counts the 1:1:3:1:1 and
 * dark-proportion penalties its own way (its mask.c), so the choices may differ: there the test checks that ours
 * has the lowest score by qr_penalty() and is, module for module, libqrencode's symbol with that mask. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <qrencode.h>
#include <stdio.h>
#include <string.h>

#include "lib/qr.h"

extern QRcode *QRcode_encodeMask(QRinput *input, int mask);

static struct qr_code ours;
static u8 bytes[QR_CODEWORDS_MAX];

static void fill(u32 len, u32 seed)
{
    u32 x = seed * 2654435761u + 1;
    for (u32 i = 0; i < len; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        bytes[i] = (u8)(x >> 8);
    }
}

static const QRecLevel their_level[4] = {QR_ECLEVEL_L, QR_ECLEVEL_M, QR_ECLEVEL_Q, QR_ECLEVEL_H};

/* libqrencode's symbol for bytes[0..len); mask -1: its own choice. */
static QRcode *theirs(u32 len, u32 version, enum qr_ecc ecc, int mask)
{
    QRinput *in = QRinput_new2((int)version, their_level[ecc]);
    assert_non_null(in);
    assert_int_equal(QRinput_append(in, QR_MODE_8, (int)len, bytes), 0);
    QRcode *c = QRcode_encodeMask(in, mask);
    QRinput_free(in);
    assert_non_null(c);
    assert_int_equal(c->version, (int)version); /* it grows the version when the data does not fit */
    return c;
}

/* The mask libqrencode used, from its format information (bits 10..12 of the 15, ISO/IEC 18004 7.9), read
 * along row 8 left of the top-left finder's timing column as lib/qr.c writes it. */
static u32 their_mask(const QRcode *c)
{
    u32 f = 0;
    for (u32 i = 0; i < 15; i++) {
        u32 x, y;
        if (i < 6)
            x = 8, y = i;
        else if (i < 8)
            x = 8, y = i + 1;
        else if (i == 8)
            x = 7, y = 8;
        else
            x = 14 - i, y = 8;
        f |= (u32)(c->data[y * (u32)c->width + x] & 1) << i;
    }
    return (f ^ 0x5412) >> 10 & 7;
}

static u32 differences(const QRcode *c, char *where, size_t size)
{
    u32 n = 0;
    where[0] = 0;
    assert_int_equal(c->width, (int)ours.size);
    for (u32 y = 0; y < ours.size; y++)
        for (u32 x = 0; x < ours.size; x++)
            if ((bool)(c->data[y * ours.size + x] & 1) != qr_module(&ours, x, y)) {
                if (n++ < 8) {
                    size_t l = strlen(where);
                    snprintf(where + l, size - l, " (%u,%u)", x, y);
                }
            }
    return n;
}

static void same(u32 len, u32 version, enum qr_ecc ecc, int mask)
{
    assert_null(qr_encode(&ours, bytes, len, version, ecc, mask));
    QRcode *c = theirs(len, version, ecc, mask);
    char where[200];
    u32 n = differences(c, where, sizeof(where));
    if (n)
        fail_msg("version %u level %c mask %d, %u bytes: %u modules differ from libqrencode's, at (x,y)%s", version,
                 "LMQH"[ecc], mask, len, n, where);
    QRcode_free(c);
}

/* Every version and level full to capacity, each with one of the masks in turn. */
static void test_every_version_and_level(void **state)
{
    (void)state;
    for (u32 v = 1; v <= QR_VERSION_MAX; v++)
        for (u32 e = QR_ECC_L; e <= QR_ECC_H; e++) {
            u32 cap = qr_byte_capacity(v, (enum qr_ecc)e);
            fill(cap, v * 4 + e);
            same(cap, v, (enum qr_ecc)e, (int)((v + e) % 8));
        }
}

/* Versions 1, 10, 25 and 40 (the three count-field and version-information cases), every level and mask, with
 * lengths that leave no pad, one pad codeword, many, and a near-empty symbol. */
static void test_all_masks_chosen_versions(void **state)
{
    (void)state;
    static const u32 versions[] = {1, 10, 25, 40};
    for (u32 i = 0; i < ARRAY_SIZE(versions); i++)
        for (u32 e = QR_ECC_L; e <= QR_ECC_H; e++) {
            u32 v = versions[i], cap = qr_byte_capacity(v, (enum qr_ecc)e);
            const u32 lens[] = {cap, cap - 1, cap / 2, 1};
            for (u32 l = 0; l < ARRAY_SIZE(lens); l++)
                for (int m = 0; m < 8; m++) {
                    fill(lens[l], v + e + l + (u32)m);
                    same(lens[l], v, (enum qr_ecc)e, m);
                }
        }
}

/* The byte capacities of Table 7 at the corners. */
static void test_capacity(void **state)
{
    (void)state;
    assert_int_equal(qr_byte_capacity(1, QR_ECC_L), 17);
    assert_int_equal(qr_byte_capacity(1, QR_ECC_H), 7);
    assert_int_equal(qr_byte_capacity(10, QR_ECC_M), 213);
    assert_int_equal(qr_byte_capacity(25, QR_ECC_Q), 715);
    assert_int_equal(qr_byte_capacity(40, QR_ECC_L), 2953);
    assert_int_equal(qr_byte_capacity(40, QR_ECC_H), 1273);
    assert_int_equal(qr_byte_capacity(41, QR_ECC_L), 0);
    assert_int_equal(qr_fit_version(17, QR_ECC_L, 1), 1);
    assert_int_equal(qr_fit_version(18, QR_ECC_L, 1), 2);
    assert_int_equal(qr_fit_version(100, QR_ECC_M, 10), 10);
    assert_int_equal(qr_fit_version(2954, QR_ECC_L, 1), 0);
}

/* Mask left to the encoder: ours has the lowest score of the eight, and is libqrencode's symbol with the mask
 * ours chose; how often libqrencode's own choice agrees is printed. */
static void test_mask_choice(void **state)
{
    (void)state;
    u32 agree = 0, cases = 0;
    for (u32 v = 1; v <= QR_VERSION_MAX; v += 3)
        for (u32 e = QR_ECC_L; e <= QR_ECC_H; e++) {
            u32 len = qr_byte_capacity(v, (enum qr_ecc)e) * 2 / 3 + 1;
            fill(len, v * 7 + e);
            u32 score[8];
            for (int m = 0; m < 8; m++) {
                assert_null(qr_encode(&ours, bytes, len, v, (enum qr_ecc)e, m));
                score[m] = qr_penalty(&ours);
            }
            assert_null(qr_encode(&ours, bytes, len, v, (enum qr_ecc)e, QR_MASK_AUTO));
            for (u32 m = 0; m < 8; m++)
                assert_true(score[ours.mask] <= score[m] && (m >= ours.mask || score[ours.mask] < score[m]));
            same(len, v, (enum qr_ecc)e, (int)ours.mask);
            QRcode *c = theirs(len, v, (enum qr_ecc)e, -1);
            agree += their_mask(c) == ours.mask;
            cases++;
            QRcode_free(c);
        }
    printf("# mask choice: libqrencode chose the same mask in %u of %u symbols\n", agree, cases);
}

static void test_refusals(void **state)
{
    (void)state;
    assert_string_equal(qr_encode(&ours, bytes, 1, 0, QR_ECC_L, 0), "version outside 1..40");
    assert_string_equal(qr_encode(&ours, bytes, 1, 41, QR_ECC_L, 0), "version outside 1..40");
    assert_string_equal(qr_encode(&ours, bytes, 1, 1, (enum qr_ecc)4, 0), "error correction level not L, M, Q or H");
    assert_string_equal(qr_encode(&ours, bytes, 1, 1, QR_ECC_L, 8), "mask outside 0..7");
    assert_string_equal(qr_encode(&ours, bytes, 18, 1, QR_ECC_L, 0), "more data than the symbol holds");
    assert_null(qr_encode(&ours, bytes, 0, 1, QR_ECC_L, QR_MASK_AUTO));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_capacity),
        cmocka_unit_test(test_every_version_and_level),
        cmocka_unit_test(test_all_masks_chosen_versions),
        cmocka_unit_test(test_mask_choice),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
