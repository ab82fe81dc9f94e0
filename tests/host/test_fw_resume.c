/* fw_resume_decide (lib/fw_resume.c): may the boot CPU INIT itself? Synthetic images of the low 1 MiB and
 * of the 16 bytes at the reset vector: SeaBIOS as QEMU's firmware (allowed), SeaBIOS as a coreboot payload
 * (refused), unknown firmware (refused), and the edges of the coreboot table header. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "lib/fw_resume.h"

#define LOW_SIZE 0x100000u

struct image {
    u8 *low; /* physical 0 - 0xFFFFF */
    u8 top[FW_RESET_VECTOR_LEN];
    struct phys_window low_w, top_w;
};

/* QEMU's bios-256k.bin (SeaBIOS 1.16.2) ends with these 16 bytes: jmp far F000:E05B, "06/23/99", model FC. */
static const u8 SEABIOS_VECTOR[16] = {0xEA, 0x5B, 0xE0, 0x00, 0xF0, '0', '6', '/', '2', '3', '/', '9', '9', 0, 0xFC, 0};
/* coreboot's bootblock: E9 and a 16-bit displacement (src/cpu/x86/16bit/reset16.inc), then padding. */
static const u8 COREBOOT_VECTOR[16] = {0xE9, 0x3D, 0xF0, 0xFF, 0xFF};

static struct image *image_new(const u8 vector[16])
{
    struct image *im = calloc(1, sizeof(*im));
    assert_non_null(im);
    im->low = calloc(1, LOW_SIZE);
    assert_non_null(im->low);
    memcpy(im->top, vector, sizeof(im->top));
    im->low_w = (struct phys_window){0, LOW_SIZE, im->low, NULL};
    im->top_w = (struct phys_window){FW_RESET_VECTOR, sizeof(im->top), im->top, NULL};
    return im;
}

static void image_free(struct image *im)
{
    free(im->low);
    free(im);
}

static void put_seabios(struct image *im, u32 at)
{
    static const char banner[] = "SeaBIOS (version 1.16.2-debian-1.16.2-1)";
    memcpy(im->low + at, banner, sizeof(banner));
}

static void put32(u8 *p, u32 v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (u8)(v >> (8 * i));
}

/* As coreboot's lb_table_init/lb_table_fini write a forwarding table: a 24-byte lb_header, one LB_TAG_FORWARD
 * record (tag 0x11, size 16, the CBMEM address), header_checksum = compute_ip_checksum over the header. */
static void put_lb_forward(struct image *im, u32 at, bool good_checksum)
{
    u8 *h = im->low + at;
    memcpy(h, "LBIO", 4);
    put32(h + 4, 24);     /* header_bytes */
    put32(h + 12, 16);    /* table_bytes */
    put32(h + 20, 1);     /* table_entries */
    put32(h + 24, 0x11);  /* lb_forward: tag */
    put32(h + 28, 16);    /* size */
    put32(h + 32, 0x7FF9E000); /* forward (low half; high half 0) */
    u32 sum = 0;
    for (u32 i = 0; i < 24; i++) {
        sum += (i & 1) ? (u32)h[i] << 8 : h[i];
        if (sum > 0xFFFF)
            sum = (sum + (sum >> 16)) & 0xFFFF;
    }
    put32(h + 8, (u16)~sum ^ (good_checksum ? 0 : 1));
}

static void decide(struct image *im, struct fw_resume *r)
{
    fw_resume_decide(r, &im->low_w, &im->top_w);
    assert_true(strlen(r->evidence) > 0);
    assert_true(strlen(r->evidence) < sizeof(r->evidence) - 1); /* never cut */
}

static void test_plain_seabios_allowed(void **state)
{
    (void)state;
    struct image *im = image_new(SEABIOS_VECTOR);
    put_seabios(im, 0xF5E20);
    struct fw_resume r;
    decide(im, &r);
    assert_true(r.allowed);
    assert_true(r.seabios);
    assert_int_equal(r.seabios_at, 0xF5E20);
    assert_false(r.coreboot);
    assert_non_null(strstr(r.evidence, "0xf5e20"));
    assert_non_null(strstr(r.evidence, "jmp far F000:E05B"));
    image_free(im);
}

static void test_coreboot_seabios_refused(void **state)
{
    (void)state;
    struct image *im = image_new(COREBOOT_VECTOR);
    put_seabios(im, 0xF5E20);
    put_lb_forward(im, 0x500, true); /* src/arch/x86/tables.c FORWARDING_TABLE_ADDR */
    struct fw_resume r;
    decide(im, &r);
    assert_false(r.allowed);
    assert_true(r.seabios);
    assert_true(r.coreboot);
    assert_true(r.coreboot_valid);
    assert_int_equal(r.coreboot_at, 0x500);
    assert_non_null(strstr(r.evidence, "\"LBIO\" at 0x500 (valid lb_header)"));
    assert_non_null(strstr(r.evidence, "E9 3D F0 FF FF (jmp near"));
    assert_non_null(strstr(r.evidence, "SeaBIOS is only its payload"));
    image_free(im);
}

/* The table header alone decides: even a reset vector that looked like SeaBIOS's does not outvote it. */
static void test_coreboot_header_wins_over_vector(void **state)
{
    (void)state;
    struct image *im = image_new(SEABIOS_VECTOR);
    put_seabios(im, 0xF5E20);
    put_lb_forward(im, 0xF0800, true); /* the F segment: the second place payloads look */
    struct fw_resume r;
    decide(im, &r);
    assert_false(r.allowed);
    assert_true(r.coreboot_valid);
    assert_int_equal(r.coreboot_at, 0xF0800);
    image_free(im);
}

/* A signature whose header does not verify is still taken as coreboot: a wrong refusal costs a SKIP, a wrong
 * INIT a reboot. The evidence says it did not verify. */
static void test_coreboot_bad_checksum_still_refused(void **state)
{
    (void)state;
    struct image *im = image_new(SEABIOS_VECTOR);
    put_seabios(im, 0xF5E20);
    put_lb_forward(im, 0x500, false);
    struct fw_resume r;
    decide(im, &r);
    assert_false(r.allowed);
    assert_true(r.coreboot);
    assert_false(r.coreboot_valid);
    assert_non_null(strstr(r.evidence, "header does not verify"));
    image_free(im);
}

/* The longest evidence (header that does not verify, coreboot's vector, SeaBIOS found) still fits whole. */
static void test_longest_evidence_fits(void **state)
{
    (void)state;
    struct image *im = image_new(COREBOOT_VECTOR);
    put_seabios(im, 0xFFF00);
    put_lb_forward(im, 0xFFFC0, false); /* the F segment's last 64 bytes: addresses as long as they get */
    struct fw_resume r;
    decide(im, &r); /* asserts the evidence is not cut */
    assert_false(r.allowed);
    assert_non_null(strstr(r.evidence, "SeaBIOS is only its payload"));
    image_free(im);
}

/* Payloads scan 16-byte boundaries only; "LBIO" elsewhere is not coreboot's header. */
static void test_unaligned_signature_ignored(void **state)
{
    (void)state;
    struct image *im = image_new(SEABIOS_VECTOR);
    put_seabios(im, 0xF5E20);
    memcpy(im->low + 0x508, "LBIO", 4);
    struct fw_resume r;
    decide(im, &r);
    assert_false(r.coreboot);
    assert_true(r.allowed);
    image_free(im);
}

/* Unknown firmware (OVMF, a vendor BIOS, coreboot with another payload): refused, as before this decision
 * existed. */
static void test_neither_refused(void **state)
{
    (void)state;
    static const u8 ovmf_vector[16] = {0x90, 0x90, 0xE9, 0x4D, 0xFF}; /* nop; nop; jmp near */
    struct image *im = image_new(ovmf_vector);
    struct fw_resume r;
    decide(im, &r);
    assert_false(r.allowed);
    assert_false(r.seabios);
    assert_false(r.coreboot);
    assert_non_null(strstr(r.evidence, "no 'SeaBIOS' in 0xE0000-0xFFFFF"));
    assert_non_null(strstr(r.evidence, "90 90 E9 4D FF"));
    image_free(im);
}

/* SeaBIOS in the F segment but another reset vector, and no header found (say, the forwarder was lost):
 * the code INIT would run is not SeaBIOS's, so no. */
static void test_seabios_string_foreign_vector_refused(void **state)
{
    (void)state;
    struct image *im = image_new(COREBOOT_VECTOR);
    put_seabios(im, 0xF5E20);
    struct fw_resume r;
    decide(im, &r);
    assert_false(r.allowed);
    assert_true(r.seabios);
    assert_non_null(strstr(r.evidence, "not SeaBIOS's jmp far into F000"));
    image_free(im);
}

/* A far jump, but not into segment F000. */
static void test_far_jump_elsewhere_refused(void **state)
{
    (void)state;
    static const u8 vec[16] = {0xEA, 0x5B, 0xE0, 0x00, 0xE0};
    struct image *im = image_new(vec);
    put_seabios(im, 0xF5E20);
    struct fw_resume r;
    decide(im, &r);
    assert_false(r.allowed);
    image_free(im);
}

/* Windows that do not cover what is looked for: nothing is found, nothing is read past them, refused. */
static void test_unreadable_refused(void **state)
{
    (void)state;
    struct image *im = image_new(SEABIOS_VECTOR);
    put_seabios(im, 0xF5E20);
    struct phys_window no_top = {0, 0, im->top, NULL};
    struct fw_resume r;
    fw_resume_decide(&r, &im->low_w, &no_top);
    assert_false(r.allowed);
    assert_false(r.vector_read);
    assert_non_null(strstr(r.evidence, "unreadable"));
    struct phys_window short_low = {0, 0xE0000, im->low, NULL}; /* E and F segments outside */
    fw_resume_decide(&r, &short_low, &im->top_w);
    assert_false(r.allowed);
    assert_false(r.seabios);
    image_free(im);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_seabios_allowed),
        cmocka_unit_test(test_coreboot_seabios_refused),
        cmocka_unit_test(test_coreboot_header_wins_over_vector),
        cmocka_unit_test(test_coreboot_bad_checksum_still_refused),
        cmocka_unit_test(test_longest_evidence_fits),
        cmocka_unit_test(test_unaligned_signature_ignored),
        cmocka_unit_test(test_neither_refused),
        cmocka_unit_test(test_seabios_string_foreign_vector_refused),
        cmocka_unit_test(test_far_jump_elsewhere_refused),
        cmocka_unit_test(test_unreadable_refused),
    };
    return cmocka_run_group_tests_name("fw_resume", tests, NULL, NULL);
}
