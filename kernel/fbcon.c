/* Framebuffer console (see fbcon.h): the checklist mirrored (lib/fbtext.c), then with screen=grid the live grid
 * (kernel/fbgrid.c) and the final screen (kernel/fbfinal.c), which share what kernel/fbcon_views.h lists. Below 4 GiB
 * the framebuffer lies in the boot identity map (write-back pages: the MTRRs decide, usually WC or UC); above 4 GiB
 * (Above-4G decoding) it is mapped uncached-minus, which an MTRR WC range makes WC (kernel/paging.c). Writes only,
 * never read back. */
#include "kernel/fbcon.h"

#include <stdarg.h>
#include <string.h>

#include "kernel/fbcon_views.h"
#include "lib/format.h"
#include "kernel/paging.h"
#include "kernel/console.h"
#include "kernel/timing.h"
#include "kernel/x86.h"
#include "kernel/portable/kernel_options.h"

struct fbtext fbcon_fbt;
struct result_stream fbcon_stream;
static bool active;
/* The stream the final screen's QR codes carry, kept as it is written (lib/result_stream.h). */
static char carried[256 * 1024];
static char line[RESULT_LINE_MAX]; /* the console line being written, for the grid */
static u32 line_len;
static u64 start_tsc;
static const struct boot_fb *fb;
static const char *why_not = "the loader gave no multiboot2 framebuffer tag";

void fbcon_init(const struct boot_info *bi)
{
    if (!bi->has_fb)
        return;
    fb = &bi->fb;
    why_not = fbtext_unusable(fb);
    if (why_not)
        return;
    static char not_mapped[120];
    const char *why = paging_map_device(fb->addr, (u64)fb->pitch * fb->height);
    if (why) {
        k_snprintf(not_mapped, sizeof(not_mapped), "above 4 GiB and not mappable: %s", why);
        why_not = not_mapped;
        return;
    }
    fbtext_init(&fbcon_fbt, fb, (u8 *)(uintptr_t)fb->addr);
    result_stream_init(&fbcon_stream, carried, sizeof(carried));
    start_tsc = rdtsc();
    active = true;
    console_set_mirror(fbcon_putc);
    fbtext_status(&fbcon_fbt, "pmuboot: starting", FB_WHITE, FB_BLUE);
}

void fbcon_putc(char c)
{
    if (!active || fbfinal_shown())
        return;
    result_stream_putc(&fbcon_stream, c);
    if (c == '\n') {
        fbgrid_line(line, line_len);
        line_len = 0;
    } else if (c != '\r' && line_len < sizeof(line))
        line[line_len++] = c;
    if (!fbgrid_shown())
        fbtext_putc(&fbcon_fbt, c);
}

u32 fbcon_text_row(u32 row, enum fbtext_color fg, enum fbtext_color bg, const char *fmt, ...)
{
    char s[FBTEXT_MAX_COLS + 1];
    va_list ap;
    va_start(ap, fmt);
    k_vsnprintf(s, sizeof(s), fmt, ap);
    va_end(ap);
    u32 n = (u32)strlen(s);
    fbtext_text(&fbcon_fbt, row, 0, s, n, fg, bg);
    if (bg != FB_BLACK) /* a bar: the whole row */
        for (u32 c = n; c < fbcon_fbt.cols; c++)
            fbtext_text(&fbcon_fbt, row, c, " ", 1, fg, bg);
    return row + 1;
}

void fbcon_progress(u32 passed, u32 failed, u32 skipped, const char *last, u32 len, bool done)
{
    if (!active)
        return;
    u32 name = 0;
    while (name < len && last[name] && last[name] != ' ' && last[name] != '\n')
        name++;
    char s[FBTEXT_MAX_COLS + 1];
    if (done && !kernel_options()->screen_log) {
        fbfinal_show(passed, failed, skipped);
        return;
    }
    if (done)
        k_snprintf(s, sizeof(s), "pmuboot %s: %u passed, %u failed, %u skipped - run complete",
                   failed ? "FAILED" : "PASSED", passed, failed, skipped);
    else
        k_snprintf(s, sizeof(s), "pmuboot running %llu s: %u passed, %u failed, %u skipped so far | %.*s",
                   (unsigned long long)(tsc_to_us(rdtsc() - start_tsc) / 1000000), passed, failed, skipped, (int)name,
                   last);
    fbtext_status(&fbcon_fbt, s, done ? FB_BLACK : FB_WHITE, done ? (failed ? FB_RED : FB_GREEN) : FB_BLUE);
}

void fbcon_report(void)
{
    if (!fb) {
        console_comment("framebuffer: none (%s)", why_not);
        return;
    }
    if (!active) {
        console_comment("framebuffer: %ux%u %u bpp type %u at 0x%llx: not mirrored (%s)", fb->width, fb->height,
                        fb->bpp, fb->type, (unsigned long long)fb->addr, why_not);
        return;
    }
    console_comment("framebuffer: %ux%u %u bpp RGB at 0x%llx pitch %u: checklist mirrored (%ux%u text, 8x16 font, "
                    "status line at the bottom)%s",
                    fb->width, fb->height, fb->bpp, (unsigned long long)fb->addr, fb->pitch, fbcon_fbt.cols,
                    fbcon_fbt.rows,
                    kernel_options()->screen_log ? "" : "; screen=grid: from here the live grid, at the end the totals, the "
                                                "FAILs and the result as QR codes");
    fbgrid_start();
}

void fbcon_report_end(void)
{
    if (!active)
        return;
    console_comment("framebuffer: %u lines mirrored, %u YAML/blank lines left to the serial log, %u scrolls%s",
                    fbcon_fbt.lines_shown, fbcon_fbt.lines_hidden, fbcon_fbt.scrolls,
                    fbgrid_shown() ? " (before the grid took the screen)" : "");
    fbgrid_report();
}
