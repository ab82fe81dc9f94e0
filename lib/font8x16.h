/* The built-in 8x16 bitmap font of the framebuffer mirror (lib/fbtext.c): printable ASCII only.
 *
 * Origin: Debian bookworm's console-setup-linux 1.221, /usr/share/consolefonts/Lat15-VGA16.psf.gz, whose
 * glyphs come from console-setup's Fonts/bdf/u_vga16.bdf (the IBM VGA 8x16 ROM font as redrawn by Dmitry
 * Bolkhovityanov). Debian's copyright file for those fonts (keyboard-configuration, copyright.fonts) says:
 * "All console fonts are public domain by nature", and gives u_vga16.bdf's terms:
 *   Copyright (C) 2000, 2001 by Dmitry Bolkhovityanov. Permission is hereby granted, free of charge, to any
 *   person obtaining a copy of this software and associated documentation files (the "Software"), to deal in
 *   the Software without restriction, including without limitation the rights to use, copy, modify, merge,
 *   publish, distribute, sublicense, and/or sell copies of the Software, and to permit persons to whom the
 *   Software is furnished to do so, subject to the following conditions: The above copyright notice and this
 *   permission notice shall be included in all copies or substantial portions of the Software. THE SOFTWARE
 *   IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED.
 * Regenerate: apt-get download console-setup-linux; dpkg -x it; tools/psf2c.pl .../Lat15-VGA16.psf.gz */
#pragma once
#include "lib/types.h"

#define FONT_W 8
#define FONT_H 16
#define FONT_FIRST 0x20
#define FONT_GLYPHS 95 /* U+0020..U+007E */

extern const u8 font8x16[FONT_GLYPHS][16]; /* row 0 at the top; bit 7 is the leftmost pixel */
