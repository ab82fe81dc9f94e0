/* Framebuffer mirror (see fbcon.h). Below 4 GiB the framebuffer lies in the boot identity map (write-back pages:
 * the MTRRs decide, usually WC or UC); above 4 GiB (Above-4G decoding) it is mapped uncached-minus, which an
 * MTRR WC range makes WC (kernel/paging.c). Writes only, never read back. */
#include "kernel/fbcon.h"

#include "lib/fbtext.h"
#include "lib/format.h"
#include "kernel/paging.h"
#include "kernel/report.h"

static struct fbtext fbt;
static bool active;
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
    fbtext_init(&fbt, fb, (u8 *)(uintptr_t)fb->addr);
    active = true;
    fbtext_status(&fbt, "pmuboot: starting", FB_WHITE, FB_BLUE);
}

void fbcon_putc(char c)
{
    if (active)
        fbtext_putc(&fbt, c);
}

void fbcon_progress(u32 passed, u32 failed, u32 skipped, const char *last, u32 len, bool done)
{
    if (!active)
        return;
    u32 name = 0;
    while (name < len && last[name] && last[name] != ' ' && last[name] != '\n')
        name++;
    char s[FBTEXT_MAX_COLS + 1];
    if (done)
        k_snprintf(s, sizeof(s), "pmuboot %s: %u passed, %u failed, %u skipped - run complete",
                   failed ? "FAILED" : "PASSED", passed, failed, skipped);
    else
        k_snprintf(s, sizeof(s), "pmuboot running: %u passed, %u failed, %u skipped so far | %.*s", passed, failed,
                   skipped, (int)name, last);
    fbtext_status(&fbt, s, done ? FB_BLACK : FB_WHITE, done ? (failed ? FB_RED : FB_GREEN) : FB_BLUE);
}

void fbcon_report(void)
{
    if (!fb) {
        report_comment("framebuffer: none (%s)", why_not);
        return;
    }
    if (!active) {
        report_comment("framebuffer: %ux%u %u bpp type %u at 0x%llx: not mirrored (%s)", fb->width, fb->height,
                       fb->bpp, fb->type, (unsigned long long)fb->addr, why_not);
        return;
    }
    report_comment("framebuffer: %ux%u %u bpp RGB at 0x%llx pitch %u: checklist mirrored (%ux%u text, 8x16 font, "
                   "status line at the bottom)",
                   fb->width, fb->height, fb->bpp, (unsigned long long)fb->addr, fb->pitch, fbt.cols, fbt.rows);
}

void fbcon_report_end(void)
{
    if (active)
        report_comment("framebuffer: %u lines mirrored, %u YAML/blank lines left to the serial log, %u scrolls",
                       fbt.lines_shown, fbt.lines_hidden, fbt.scrolls);
}
