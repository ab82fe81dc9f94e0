/* A run's result as QR codes (docs/screen.md "The result as QR codes"): the carried stream (result_stream.h)
 * compressed as a zlib stream, split over n codes of near-equal size. Each code's bytes (byte mode, binary):
 *
 *   0  "PMB"        magic
 *   3  1            format version
 *   4  k, n         this code's number, 1..n, and the count (n <= 255)
 *   6  CRC-32       of the whole uncompressed stream, big-endian: the run the code belongs to
 *   10 length       of this code's part of the zlib stream, big-endian
 *   12 part         the bytes
 *   .. CRC-32       of all the bytes before it in this code, big-endian: a corrupted code is told apart
 *
 * tools/pmuboot-report --from-images puts them back together. Which version, level and size the codes take on a
 * screen is decided here too (result_code_layout). Portable. */
#pragma once
#include "lib/qr.h"
#include "lib/types.h"

#define RESULT_CODE_FORMAT 1
#define RESULT_CODE_OVERHEAD 16 /* header and trailer bytes of a code */
#define RESULT_CODE_MAX 255
#define RESULT_CODE_QUIET 4 /* light modules around a code (ISO/IEC 18004 6.3.8) */

/* Code k (1..n) of the packed stream (len bytes, the stream's CRC crc) into out. Returns its length, 0 if out
 * is too small or k/n out of range. */
u32 result_code_build(const u8 *packed, u32 len, u32 crc, u32 k, u32 n, u8 *out, u32 size);

/* How n codes of a packed stream of len bytes are shown in a w x h pixel area: the version and level of every code,
 * their grid, and the pixels a module takes; per_page of them at once (cols x rows), over pages screens. */
struct result_layout {
    u32 n, version, cols, rows, scale;
    enum qr_ecc ecc;
    u32 per_page, pages;
};

/* The layout with the largest modules for len bytes in w x h (fewer codes among equals): level M, or L when M
 * does not fit; at most max_n codes. NULL on success, else why none fits (modules of at least min_scale pixels). */
const char *result_code_layout(u32 len, u32 w, u32 h, u32 min_scale, u32 max_n, struct result_layout *out);

/* As result_code_layout on one page when it fits; else the codes paged, a screen of them at a time: the fewest
 * pages, then the largest modules, then level M over L, then the fewest codes. NULL on success, else why not
 * (not even one code of min_scale pixels a module fits, or more than RESULT_CODE_MAX codes). */
const char *result_code_paged_layout(u32 len, u32 w, u32 h, u32 min_scale, struct result_layout *out);
