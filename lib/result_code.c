/* The result's QR codes (see result_code.h). */
#include "lib/result_code.h"

#include <string.h>

#include "lib/crc32.h"

static void put_be(u8 *p, u32 v, u32 n)
{
    for (u32 i = 0; i < n; i++)
        p[i] = (u8)(v >> (8 * (n - 1 - i)));
}

/* Part k of n: equal parts, the first ones a byte longer where len does not divide. */
static void part(u32 len, u32 k, u32 n, u32 *start, u32 *plen)
{
    u32 base = len / n, extra = len % n, i = k - 1;
    *start = i * base + MIN(i, extra);
    *plen = base + (i < extra);
}

u32 result_code_build(const u8 *packed, u32 len, u32 crc, u32 k, u32 n, u8 *out, u32 size)
{
    if (n < 1 || n > RESULT_CODE_MAX || k < 1 || k > n)
        return 0;
    u32 start, plen;
    part(len, k, n, &start, &plen);
    if (plen > 0xffff || size < plen + RESULT_CODE_OVERHEAD)
        return 0;
    memcpy(out, "PMB", 3);
    out[3] = RESULT_CODE_FORMAT;
    out[4] = (u8)k;
    out[5] = (u8)n;
    put_be(out + 6, crc, 4);
    put_be(out + 10, plen, 2);
    memcpy(out + 12, packed + start, plen);
    put_be(out + 12 + plen, crc32_update(0, out, 12 + plen), 4);
    return plen + RESULT_CODE_OVERHEAD;
}

static bool try_level(u32 len, u32 w, u32 h, u32 max_n, enum qr_ecc ecc, struct result_layout *best)
{
    bool found = false;
    for (u32 n = 1; n <= max_n && n <= RESULT_CODE_MAX; n++) {
        u32 v = qr_fit_version((len + n - 1) / n + RESULT_CODE_OVERHEAD, ecc, 1);
        if (!v)
            continue;
        u32 side = 17 + 4 * v + 2 * RESULT_CODE_QUIET;
        for (u32 cols = 1; cols <= n; cols++) {
            u32 rows = (n + cols - 1) / cols;
            if ((cols - 1) * rows >= n) /* the same grid with a column fewer holds them */
                continue;
            u32 scale = MIN(w / (cols * side), h / (rows * side));
            if (scale > best->scale) {
                *best = (struct result_layout){n, v, cols, rows, scale, ecc, n, 1};
                found = true;
            }
        }
    }
    return found;
}

const char *result_code_layout(u32 len, u32 w, u32 h, u32 min_scale, u32 max_n, struct result_layout *out)
{
    struct result_layout best = {0, 0, 0, 0, 0, QR_ECC_M, 0, 0};
    try_level(len, w, h, max_n, QR_ECC_M, &best);
    if (best.scale < min_scale) {
        best.scale = 0;
        try_level(len, w, h, max_n, QR_ECC_L, &best);
    }
    if (best.scale < min_scale)
        return "the result does not fit the screen as QR codes";
    *out = best;
    return NULL;
}

/* Codes of each version at each scale, a screen of them at a time. */
static void try_pages(u32 len, u32 w, u32 h, u32 scale, enum qr_ecc ecc, struct result_layout *best)
{
    for (u32 v = 1; v <= QR_VERSION_MAX; v++) {
        u32 side = (17 + 4 * v + 2 * RESULT_CODE_QUIET) * scale, cap = qr_byte_capacity(v, ecc);
        u32 cols = w / side, rows = h / side;
        if (!cols || !rows || cap <= RESULT_CODE_OVERHEAD)
            continue;
        u32 n = (len + cap - RESULT_CODE_OVERHEAD - 1) / (cap - RESULT_CODE_OVERHEAD);
        if (n > RESULT_CODE_MAX)
            continue;
        n = MAX(n, 1u);
        u32 version = qr_fit_version((len + n - 1) / n + RESULT_CODE_OVERHEAD, ecc, 1); /* near-equal parts */
        u32 per_page = MIN(n, cols * rows), pages = (n + per_page - 1) / per_page;
        cols = MIN(cols, per_page);
        rows = (per_page + cols - 1) / cols;
        bool better = !best->pages || pages < best->pages ||
                      (pages == best->pages && (scale > best->scale ||
                                                (scale == best->scale && (ecc > best->ecc ||
                                                                          (ecc == best->ecc && n < best->n)))));
        if (better)
            *best = (struct result_layout){n, version, cols, rows, scale, ecc, per_page, pages};
    }
}

const char *result_code_paged_layout(u32 len, u32 w, u32 h, u32 min_scale, struct result_layout *out)
{
    if (!result_code_layout(len, w, h, min_scale, RESULT_CODE_MAX, out))
        return NULL;
    struct result_layout best = {0, 0, 0, 0, 0, QR_ECC_M, 0, 0};
    for (u32 scale = MAX(min_scale, 1u); scale <= MAX(min_scale, 8u); scale++)
        for (u32 e = 0; e < 2; e++) /* M first: L wins only with fewer pages or larger modules */
            try_pages(len, w, h, scale, e ? QR_ECC_L : QR_ECC_M, &best);
    if (!best.pages)
        return "the result does not fit the screen as QR codes, not even a page at a time";
    *out = best;
    return NULL;
}
