/* Host tests for lib/fbtext.c (the framebuffer mirror): which framebuffers it refuses, that characters land
 * as the font's pixels in the right colour, that YAML stays off the screen, that the log area scrolls while
 * the status row stays, all in a heap buffer of the framebuffer's exact size (ASan catches a stray write). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "lib/fbtext.h"
#include "lib/font8x16.h"

static struct boot_fb fb_rgb32(u32 w, u32 h)
{
    return (struct boot_fb){.addr = 0xfd000000, .pitch = w * 4, .width = w, .height = h, .bpp = 32,
                            .type = BOOT_FB_RGB, .red_pos = 16, .red_size = 8, .green_pos = 8, .green_size = 8,
                            .blue_pos = 0, .blue_size = 8};
}

static u32 px(const u8 *buf, const struct boot_fb *fb, u32 x, u32 y)
{
    u32 v;
    memcpy(&v, buf + (size_t)y * fb->pitch + x * 4, 4);
    return v;
}

/* The cell (row, col) holds character c: each pixel is fg where the glyph has a bit, else black. */
static void expect_char(const u8 *buf, const struct boot_fb *fb, u32 row, u32 col, char c, u32 fg)
{
    const u8 *g = font8x16[c - FONT_FIRST];
    for (u32 y = 0; y < FONT_H; y++)
        for (u32 x = 0; x < FONT_W; x++) {
            u32 want = (g[y] & (0x80u >> x)) ? fg : 0, got = px(buf, fb, col * 8 + x, row * 16 + y);
            if (want != got)
                fail_msg("'%c' at row %u col %u: pixel (%u,%u) 0x%x, want 0x%x", c, row, col, x, y, got, want);
        }
}

static void test_unusable(void **state)
{
    (void)state;
    struct boot_fb fb = fb_rgb32(1024, 768);
    assert_null(fbtext_unusable(&fb));
    struct boot_fb b = fb;
    b.type = BOOT_FB_EGA_TEXT;
    assert_non_null(strstr(fbtext_unusable(&b), "EGA"));
    b = fb, b.type = BOOT_FB_INDEXED;
    assert_non_null(strstr(fbtext_unusable(&b), "indexed"));
    b = fb, b.bpp = 8;
    assert_non_null(fbtext_unusable(&b));
    b = fb, b.red_pos = 28;
    assert_non_null(strstr(fbtext_unusable(&b), "colour"));
    b = fb, b.pitch = 1024;
    assert_non_null(strstr(fbtext_unusable(&b), "pitch"));
    b = fb, b.width = 300;
    assert_non_null(strstr(fbtext_unusable(&b), "40x4"));
    b = fb, b.addr = 0x4000000000ull; /* Above-4G decoding: the kernel maps it (kernel/paging.c) */
    assert_null(fbtext_unusable(&b));
    b = fb, b.addr = 0xfff00000; /* straddles 4 GiB: the part above is mapped too */
    assert_null(fbtext_unusable(&b));
    b = fb, b.addr = 0;
    assert_non_null(strstr(fbtext_unusable(&b), "address 0"));
    b = fb, b.addr = (1ull << 47) - 0x100000; /* runs past what an identity map reaches */
    assert_non_null(strstr(fbtext_unusable(&b), "2^47"));
    b = fb, b.addr = ~0ull - 0xfff;
    assert_non_null(strstr(fbtext_unusable(&b), "wrapping"));
}

static void put(struct fbtext *t, const char *s)
{
    while (*s)
        fbtext_putc(t, *s++);
}

static void test_lines_colours_status_scroll(void **state)
{
    (void)state;
    struct boot_fb fb = fb_rgb32(640, 96); /* 80x6 text: 5 log rows, 1 status row */
    u8 *buf = malloc((size_t)fb.pitch * fb.height);
    struct fbtext *t = malloc(sizeof(*t));
    assert_non_null(buf);
    assert_non_null(t);
    memset(buf, 0x77, (size_t)fb.pitch * fb.height);
    fbtext_init(t, &fb, buf);
    assert_int_equal(t->cols, 80);
    assert_int_equal(t->rows, 6);
    assert_int_equal(px(buf, &fb, 639, 95), 0); /* cleared */

    put(t, "ok 1 - a\r\n  ---\n  \"x\": 1\n  ...\nnot ok 2 - b\n");
    assert_int_equal(t->lines_shown, 2);
    assert_int_equal(t->lines_hidden, 3);
    expect_char(buf, &fb, 0, 0, 'o', t->pixel[FB_GREEN]);
    expect_char(buf, &fb, 0, 7, 'a', t->pixel[FB_GREEN]);
    expect_char(buf, &fb, 1, 0, 'n', t->pixel[FB_RED]);
    assert_int_equal(t->pixel[FB_RED], 0xff5050);

    fbtext_status(t, "pmuboot running", FB_WHITE, FB_BLUE);
    assert_int_equal(px(buf, &fb, 639, 95), t->pixel[FB_BLUE]); /* the status row's background */

    /* Five more lines: the log area (5 rows) jump-scrolls; the status row is untouched. */
    put(t, "# c\nok 3 - d # SKIP e\nok 4\nok 5\nok 6\n");
    assert_int_equal(t->scrolls, 1);
    /* Kept: "ok 3 ..." (yellow: SKIP) and "ok 4" at rows 0-1, then "ok 5" and "ok 6". */
    expect_char(buf, &fb, 0, 3, '3', t->pixel[FB_YELLOW]);
    expect_char(buf, &fb, 1, 3, '4', t->pixel[FB_GREEN]);
    expect_char(buf, &fb, 3, 3, '6', t->pixel[FB_GREEN]);
    assert_int_equal(px(buf, &fb, 0, 4 * 16 + 8), 0); /* row 4 blank again */
    assert_int_equal(px(buf, &fb, 639, 95), t->pixel[FB_BLUE]);

    /* A line longer than the screen wraps; non-ASCII becomes '?'. */
    char long_line[200];
    memset(long_line, 'x', sizeof(long_line));
    long_line[0] = '\x01';
    long_line[199] = '\0';
    put(t, long_line);
    fbtext_putc(t, '\n');
    assert_int_equal(t->lines_shown, 8);
    free(t);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unusable),
        cmocka_unit_test(test_lines_colours_status_scroll),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
