/* The framebuffer mirror of the console (lib/fbtext.c on the loader's framebuffer). */
#pragma once
#include "lib/bootinfo.h"

/* Use the multiboot2 framebuffer when it can carry text; remembers why not otherwise. */
void fbcon_init(const struct boot_info *bi);
/* Called by the console for every character it writes (under the console lock). */
void fbcon_putc(char c);
/* The status line: counts so far and the check just reported (`last`: up to `len` bytes, of which the text
 * before the first blank or newline is shown, so a rendered TAP line can be passed as is); done = the final
 * summary. */
void fbcon_progress(u32 passed, u32 failed, u32 skipped, const char *last, u32 len, bool done);
/* "# framebuffer: ..." header line: what was found and whether the checklist is mirrored on it. */
void fbcon_report(void);
/* At the end of the run: lines mirrored, lines left out, scrolls (for the last header-style comment). */
void fbcon_report_end(void);
/* exit=halt: say on the serial port which page the final screen shows ("# screen: page 1 of 2: ..."); when the
 * FAILs or the codes do not fit one screen, show the next page every few seconds, forever, and say so each time;
 * returns at once otherwise. */
void fbcon_final_pages(void);
