/* What the screen's views share (kernel/fbcon.c owns it): the text grid on the framebuffer, the stream the final
 * screen's QR codes carry, and a row of text. The views: kernel/fbgrid.c (the live grid), kernel/fbfinal.c (the
 * final screen). Kernel-internal: only kernel/fb*.c include this. */
#pragma once
#include "lib/fbtext.h"
#include "lib/result_stream.h"

extern struct fbtext fbcon_fbt;
extern struct result_stream fbcon_stream;

/* Text at the start of a row (a coloured bar across the row when bg is not black); returns the next row. */
u32 fbcon_text_row(u32 row, enum fbtext_color fg, enum fbtext_color bg, const char *fmt, ...) PRINTF_LIKE(4, 5);

/* The live grid (screen=grid): take the screen from the command line on; each console line as it ends. */
void fbgrid_start(void);
bool fbgrid_shown(void);
void fbgrid_line(const char *l, u32 len);
/* "# framebuffer: grid of ..." at the end of the run. */
void fbgrid_report(void);

/* The final screen: the totals, the FAILs, the carried stream as QR codes. After it the screen stays as drawn. */
void fbfinal_show(u32 passed, u32 failed, u32 skipped);
bool fbfinal_shown(void);
