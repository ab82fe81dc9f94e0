/* Text on a linear RGB framebuffer (the multiboot2 framebuffer tag): the checklist mirrored for a machine
 * with only a monitor or a BMC's remote screen. An 8x16 font (lib/font8x16.h); TAP lines and comments are
 * shown, YAML blocks are not (the serial log has them); the log area jump-scrolls by half a screen, and the
 * last row is a status line that always shows the counts so far and, at the end, the summary. Portable: the
 * caller hands it where the pixels can be written (the kernel: the identity-mapped framebuffer). */
#pragma once
#include "lib/bootinfo.h"
#include "lib/types.h"

#define FBTEXT_MAX_COLS 240 /* 1920 pixels; wider screens use the left part */
#define FBTEXT_MAX_ROWS 135 /* 2160 pixels */

enum fbtext_color { FB_GREY, FB_WHITE, FB_GREEN, FB_RED, FB_YELLOW, FB_BLACK, FB_BLUE, FB_DARK, FB_COLORS };

struct fbtext {
    u8 *px;
    u32 pitch, bytespp, width, height;
    u32 cols, rows, log_rows; /* log_rows = rows - 1: the last row is the status line */
    u32 pixel[FB_COLORS];
    u32 row;      /* log row the next line goes to */
    u32 line_len; /* characters of the line being received */
    char line[FBTEXT_MAX_COLS * 4 + 1]; /* longer lines are cut (the serial log has them whole) */
    u8 cells[FBTEXT_MAX_ROWS][FBTEXT_MAX_COLS];  /* character of each log cell (0 = blank) */
    u8 colors[FBTEXT_MAX_ROWS][FBTEXT_MAX_COLS]; /* enum fbtext_color */
    u8 shown[FBTEXT_MAX_ROWS][FBTEXT_MAX_COLS];  /* character on screen, to redraw only what changed */
    u8 shown_colors[FBTEXT_MAX_ROWS][FBTEXT_MAX_COLS];
    u32 lines_shown, lines_hidden; /* lines mirrored, YAML/blank lines left out */
    u32 scrolls;
};

/* NULL when fb can carry text (RGB, 15..32 bits per pixel, masks that fit, pitch >= width, at least 40x4
 * characters, not at 0 and below 2^47: pt_map_refusal without the CPU's MAXPHYADDR, which the kernel applies
 * when it maps one above 4 GiB), else why not. */
const char *fbtext_unusable(const struct boot_fb *fb);
/* Set up the grid and clear the screen; fb must have passed fbtext_unusable. */
void fbtext_init(struct fbtext *t, const struct boot_fb *fb, u8 *pixels);
/* Console output, character by character; a line is shown at its '\n'. */
void fbtext_putc(struct fbtext *t, char c);
/* Replace the status line (cut to the width). */
void fbtext_status(struct fbtext *t, const char *text, enum fbtext_color fg, enum fbtext_color bg);

/* Drawing outside the log (the final screen, lib/screen_final.h): a rectangle of pixels, clipped to the screen; text
 * at a cell (cut at the right edge); the whole screen cleared. The log's cells are forgotten, so a later line
 * redraws its row whole. */
void fbtext_fill(struct fbtext *t, u32 x, u32 y, u32 w, u32 h, enum fbtext_color c);
void fbtext_text(struct fbtext *t, u32 row, u32 col, const char *s, u32 len, enum fbtext_color fg,
                 enum fbtext_color bg);
void fbtext_clear(struct fbtext *t);
