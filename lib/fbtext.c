/* Framebuffer text (see fbtext.h). */
#include "lib/fbtext.h"

#include <string.h>

#include "lib/font8x16.h"
#include "lib/pt_map.h"

const char *fbtext_unusable(const struct boot_fb *fb)
{
    if (fb->type != BOOT_FB_RGB)
        return fb->type == BOOT_FB_EGA_TEXT ? "EGA text mode, not a pixel framebuffer" : "indexed colours, not RGB";
    if (fb->bpp != 15 && fb->bpp != 16 && fb->bpp != 24 && fb->bpp != 32)
        return "bits per pixel not 15, 16, 24 or 32";
    const u8 pos[3] = {fb->red_pos, fb->green_pos, fb->blue_pos}, size[3] = {fb->red_size, fb->green_size,
                                                                             fb->blue_size};
    for (u32 i = 0; i < 3; i++)
        if (!size[i] || size[i] > 8 || pos[i] + size[i] > fb->bpp)
            return "colour field outside the pixel";
    u32 bytespp = (fb->bpp + 7u) / 8;
    if (fb->width / FONT_W < 40 || fb->height / FONT_H < 4)
        return "smaller than 40x4 characters";
    if ((u64)fb->pitch < (u64)fb->width * bytespp)
        return "pitch shorter than a line of pixels";
    if (fb->addr == 0)
        return "at address 0";
    /* Above 4 GiB the kernel maps it (kernel/paging.c), within what an identity map reaches. */
    const char *far = pt_map_refusal(fb->addr, (u64)fb->pitch * fb->height, 64);
    if (far)
        return far;
    return NULL;
}

static u32 pack(const struct boot_fb *fb, u8 r, u8 g, u8 b)
{
    return (u32)(r >> (8 - fb->red_size)) << fb->red_pos | (u32)(g >> (8 - fb->green_size)) << fb->green_pos |
           (u32)(b >> (8 - fb->blue_size)) << fb->blue_pos;
}

static void put_pixel(const struct fbtext *t, u8 *p, u32 v)
{
    switch (t->bytespp) {
    case 4:
        *(volatile u32 *)(void *)p = v;
        break;
    case 3:
        p[0] = (u8)v;
        p[1] = (u8)(v >> 8);
        p[2] = (u8)(v >> 16);
        break;
    default:
        *(volatile u16 *)(void *)p = (u16)v;
        break;
    }
}

/* Character c at text cell (row, col); the status line's background is bg. */
static void draw(const struct fbtext *t, u32 row, u32 col, u8 c, u32 fg, u32 bg)
{
    const u8 *glyph = c >= FONT_FIRST && c < FONT_FIRST + FONT_GLYPHS ? font8x16[c - FONT_FIRST] : font8x16[0];
    u8 *line = t->px + (u64)row * FONT_H * t->pitch + (u64)col * FONT_W * t->bytespp;
    for (u32 y = 0; y < FONT_H; y++, line += t->pitch)
        for (u32 x = 0; x < FONT_W; x++)
            put_pixel(t, line + x * t->bytespp, glyph[y] & (0x80u >> x) ? fg : bg);
}

static void clear_rows(struct fbtext *t, u32 first, u32 count)
{
    for (u32 y = first * FONT_H; y < (first + count) * FONT_H && y < t->height; y++)
        for (u32 x = 0; x < t->width; x++)
            put_pixel(t, t->px + (u64)y * t->pitch + (u64)x * t->bytespp, t->pixel[FB_BLACK]);
}

void fbtext_init(struct fbtext *t, const struct boot_fb *fb, u8 *pixels)
{
    memset(t, 0, sizeof(*t));
    t->px = pixels;
    t->pitch = fb->pitch;
    t->bytespp = (fb->bpp + 7u) / 8;
    t->width = fb->width;
    t->height = fb->height;
    t->cols = MIN(fb->width / FONT_W, (u32)FBTEXT_MAX_COLS);
    t->rows = MIN(fb->height / FONT_H, (u32)FBTEXT_MAX_ROWS);
    t->log_rows = t->rows - 1;
    static const u8 rgb[FB_COLORS][3] = {
        [FB_GREY] = {0xb0, 0xb0, 0xb0}, [FB_WHITE] = {0xff, 0xff, 0xff}, [FB_GREEN] = {0x40, 0xe0, 0x40},
        [FB_RED] = {0xff, 0x50, 0x50},  [FB_YELLOW] = {0xf0, 0xd0, 0x40}, [FB_BLACK] = {0, 0, 0},
        [FB_BLUE] = {0x20, 0x40, 0xa0}, [FB_DARK] = {0x38, 0x38, 0x38},
    };
    for (u32 i = 0; i < FB_COLORS; i++)
        t->pixel[i] = pack(fb, rgb[i][0], rgb[i][1], rgb[i][2]);
    clear_rows(t, 0, (fb->height + FONT_H - 1) / FONT_H);
}

/* TAP lines by their meaning: failures red, skips yellow, passes green, comments grey. */
static enum fbtext_color color_of(const char *s)
{
    if (!strncmp(s, "not ok", 6))
        return strstr(s, "# TODO") ? FB_YELLOW : FB_RED;
    if (!strncmp(s, "ok", 2))
        return strstr(s, "# SKIP") ? FB_YELLOW : FB_GREEN;
    if (!strncmp(s, "Bail out!", 9))
        return FB_RED;
    return s[0] == '#' ? FB_GREY : FB_WHITE;
}

/* Bring the screen in line with cells[] for rows [first, first+count). */
static void refresh(struct fbtext *t, u32 first, u32 count)
{
    for (u32 r = first; r < first + count; r++)
        for (u32 c = 0; c < t->cols; c++) {
            u8 ch = t->cells[r][c], co = t->colors[r][c];
            if (ch == t->shown[r][c] && (co == t->shown_colors[r][c] || ch == 0 || ch == ' '))
                continue;
            draw(t, r, c, ch ? ch : ' ', t->pixel[co], t->pixel[FB_BLACK]);
            t->shown[r][c] = ch;
            t->shown_colors[r][c] = co;
        }
}

/* Jump-scroll: drop the upper half, so a full redraw happens once per half screen of lines. */
static void scroll(struct fbtext *t)
{
    u32 keep = t->log_rows / 2, drop = t->log_rows - keep;
    memmove(t->cells, t->cells[drop], sizeof(t->cells[0]) * keep);
    memmove(t->colors, t->colors[drop], sizeof(t->colors[0]) * keep);
    memset(t->cells[keep], 0, sizeof(t->cells[0]) * drop);
    t->row = keep;
    t->scrolls++;
    refresh(t, 0, t->log_rows);
}

static void show_line(struct fbtext *t, const char *s, u32 len)
{
    enum fbtext_color co = color_of(s);
    u32 start = t->row;
    for (u32 done = 0; done < len || done == 0;) { /* long lines wrap */
        if (t->row == t->log_rows) {
            scroll(t);
            start = t->row;
        }
        u32 n = MIN(len - done, t->cols);
        memset(t->cells[t->row], 0, t->cols);
        memcpy(t->cells[t->row], s + done, n);
        memset(t->colors[t->row], co, t->cols);
        t->row++;
        done += n;
        if (!n)
            break;
    }
    refresh(t, start, t->row - start);
}

void fbtext_putc(struct fbtext *t, char c)
{
    if (c == '\r')
        return;
    if (c != '\n') {
        if (t->line_len < sizeof(t->line) - 1)
            t->line[t->line_len++] = (c >= 0x20 && c < 0x7F) ? c : '?';
        return;
    }
    t->line[t->line_len] = '\0';
    /* YAML diagnostics (indented) stay on the serial port: the screen keeps to the checklist. */
    if (t->line_len == 0 || (t->line[0] == ' ' && t->line[1] == ' '))
        t->lines_hidden++;
    else {
        show_line(t, t->line, t->line_len);
        t->lines_shown++;
    }
    t->line_len = 0;
}

void fbtext_status(struct fbtext *t, const char *text, enum fbtext_color fg, enum fbtext_color bg)
{
    u32 r = t->rows - 1, n = (u32)strlen(text);
    for (u32 c = 0; c < t->cols; c++)
        draw(t, r, c, c < n ? (u8)text[c] : ' ', t->pixel[fg], t->pixel[bg]);
}

void fbtext_fill(struct fbtext *t, u32 x, u32 y, u32 w, u32 h, enum fbtext_color c)
{
    for (u32 py = y; py < y + h && py < t->height; py++)
        for (u32 px = x; px < x + w && px < t->width; px++)
            put_pixel(t, t->px + (u64)py * t->pitch + (u64)px * t->bytespp, t->pixel[c]);
}

void fbtext_text(struct fbtext *t, u32 row, u32 col, const char *s, u32 len, enum fbtext_color fg,
                 enum fbtext_color bg)
{
    for (u32 i = 0; i < len && col + i < t->cols && row < t->rows; i++) {
        u8 ch = (u8)s[i];
        draw(t, row, col + i, ch >= 0x20 && ch < 0x7f ? ch : '?', t->pixel[fg], t->pixel[bg]);
        if (row < FBTEXT_MAX_ROWS)
            t->shown[row][col + i] = 0xff; /* not a log character: the log redraws the cell */
    }
}

void fbtext_clear(struct fbtext *t)
{
    clear_rows(t, 0, (t->height + FONT_H - 1) / FONT_H);
    memset(t->cells, 0, sizeof(t->cells));
    memset(t->shown, 0, sizeof(t->shown));
    t->row = 0;
}
