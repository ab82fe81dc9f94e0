/* QR Code encoder (see qr.h). Section numbers are ISO/IEC 18004:2015's. */
#include "lib/qr.h"

#include <string.h>

/* Table 9: error correction codewords per block, and blocks, by level (L, M, Q, H) and version 1..40. */
static const u8 ecc_per_block[4][QR_VERSION_MAX] = {
    {7,  10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28,
     28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30},
    {10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26,
     26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28},
    {13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30,
     28, 30, 30, 30, 30, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30},
    {17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28,
     30, 24, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30},
};
static const u8 blocks[4][QR_VERSION_MAX] = {
    {1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8,
     8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25},
    {1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16,
     17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49},
    {1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20,
     23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68},
    {1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25,
     25, 34, 30, 32, 35, 37, 40, 42, 45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81},
};

/* Annex E: alignment pattern centres. From version 2 on they sit at 6 and at size-7, size-7-step, ... down to
 * the second; the steps between the second and the last are equal, the first gap (from 6) may be shorter. */
static const u8 align_step[QR_VERSION_MAX + 1] = {
    0,  0,  12, 16, 20, 24, 28, 16, 18, 20, 22, 24, 26, 28, 20, 22, 24, 24, 26, 28, 28,
    22, 24, 24, 26, 26, 28, 28, 24, 24, 26, 26, 26, 28, 28, 24, 26, 26, 26, 28, 28,
};

/* Table 12 (format information): the level's two bits. */
static const u8 ecc_format_bits[4] = {1, 0, 3, 2};

static u32 align_count(u32 version)
{
    return version == 1 ? 0 : version / 7 + 2;
}

/* Modules left for codewords once every function pattern is placed (7.7.1; Table 1's "data modules"). */
static u32 raw_data_modules(u32 version)
{
    u32 size = 17 + 4 * version, n = align_count(version);
    u32 m = size * size - 3 * 64 /* finders with separators */ - 31 /* format, twice, and the dark module */
            - 2 * (size - 16) /* timing */;
    if (n)
        m -= 25 * (n * n - 3) - 10 * (n - 2); /* alignment patterns; those on the timing lines share 5 modules */
    if (version >= 7)
        m -= 36; /* version information, twice */
    return m;
}

static u32 total_codewords(u32 version)
{
    return raw_data_modules(version) / 8;
}

static u32 data_codewords(u32 version, enum qr_ecc ecc)
{
    return total_codewords(version) - (u32)ecc_per_block[ecc][version - 1] * blocks[ecc][version - 1];
}

u32 qr_byte_capacity(u32 version, enum qr_ecc ecc)
{
    if (version < 1 || version > QR_VERSION_MAX || (u32)ecc > QR_ECC_H)
        return 0;
    /* 7.4.2: mode indicator (4 bits) and character count (8 bits to version 9, 16 after: Table 3). */
    u32 header = 4 + (version <= 9 ? 8 : 16);
    return (data_codewords(version, ecc) * 8 - header) / 8;
}

u32 qr_fit_version(u32 len, enum qr_ecc ecc, u32 min_version)
{
    for (u32 v = min_version ? min_version : 1; v <= QR_VERSION_MAX; v++)
        if (qr_byte_capacity(v, ecc) >= len)
            return v;
    return 0;
}

/* GF(256) with the field polynomial x^8 + x^4 + x^3 + x^2 + 1 (7.5.2). */
static u8 gf_mul(u8 a, u8 b)
{
    u32 r = 0;
    for (int i = 7; i >= 0; i--) {
        r = (r << 1) ^ ((r >> 7) * 0x11d);
        r ^= ((u32)b >> i & 1) * a;
    }
    return (u8)r;
}

/* The generator polynomial of degree n, prod (x - 2^i) for i < n, without its leading 1, highest power first. */
static void rs_generator(u8 *g, u32 n)
{
    memset(g, 0, n);
    g[n - 1] = 1;
    u8 root = 1;
    for (u32 i = 0; i < n; i++) {
        for (u32 j = 0; j < n; j++) {
            g[j] = gf_mul(g[j], root);
            if (j + 1 < n)
                g[j] ^= g[j + 1];
        }
        root = gf_mul(root, 2);
    }
}

/* The n error correction codewords of data[0..len): the remainder of data(x) * x^n divided by g(x). */
static void rs_remainder(const u8 *data, u32 len, const u8 *g, u32 n, u8 *ecc)
{
    memset(ecc, 0, n);
    for (u32 i = 0; i < len; i++) {
        u8 factor = data[i] ^ ecc[0];
        memmove(ecc, ecc + 1, n - 1);
        ecc[n - 1] = 0;
        for (u32 j = 0; j < n; j++)
            ecc[j] ^= gf_mul(g[j], factor);
    }
}

static void set_bit(u8 *bits, u32 size, u32 x, u32 y, bool on)
{
    u32 i = y * size + x;
    if (on)
        bits[i >> 3] |= (u8)(1u << (i & 7));
    else
        bits[i >> 3] &= (u8) ~(1u << (i & 7));
}

static bool get_bit(const u8 *bits, u32 size, u32 x, u32 y)
{
    u32 i = y * size + x;
    return bits[i >> 3] >> (i & 7) & 1;
}

static void put_function(struct qr_code *q, u32 x, u32 y, bool dark)
{
    set_bit(q->dark, q->size, x, y, dark);
    set_bit(q->function, q->size, x, y, true);
}

/* 6.3.3 finder pattern with its separator, centred on (cx, cy); parts outside the symbol are left out. */
static void put_finder(struct qr_code *q, int cx, int cy)
{
    for (int dy = -4; dy <= 4; dy++)
        for (int dx = -4; dx <= 4; dx++) {
            int x = cx + dx, y = cy + dy;
            if (x < 0 || y < 0 || x >= (int)q->size || y >= (int)q->size)
                continue;
            int d = MAX(dx < 0 ? -dx : dx, dy < 0 ? -dy : dy); /* ring: 0..1 dark, 2 light, 3 dark, 4 light */
            put_function(q, (u32)x, (u32)y, d != 2 && d != 4);
        }
}

static void put_alignment(struct qr_code *q, u32 cx, u32 cy)
{
    for (int dy = -2; dy <= 2; dy++)
        for (int dx = -2; dx <= 2; dx++) {
            int d = MAX(dx < 0 ? -dx : dx, dy < 0 ? -dy : dy);
            put_function(q, (u32)((int)cx + dx), (u32)((int)cy + dy), d != 1);
        }
}

/* 7.9: the 15-bit format information, BCH(15,5) with generator 0x537, masked with 0x5412. */
static u32 format_bits(enum qr_ecc ecc, u32 mask)
{
    u32 d = (u32)ecc_format_bits[ecc] << 3 | mask, r = d << 10;
    for (int i = 14; i >= 10; i--)
        if (r >> i & 1)
            r ^= 0x537u << (i - 10);
    return (d << 10 | r) ^ 0x5412;
}

/* Figure 25: bit 14 is the most significant. The first copy runs around the top-left finder, the second is split
 * between the top-right (bits 0..7) and bottom-left (bits 8..14) finders, beside the always-dark module. */
static void put_format(struct qr_code *q, u32 mask)
{
    u32 f = format_bits(q->ecc, mask), s = q->size;
    for (u32 i = 0; i < 15; i++) {
        bool b = f >> i & 1;
        /* around the top-left finder: bits 0..7 down column 8 (skipping the timing row 6), bits 8..14 leftwards
         * along row 8 (skipping the timing column 6) */
        if (i < 6)
            put_function(q, 8, i, b);
        else if (i < 8)
            put_function(q, 8, i + 1, b);
        else if (i == 8)
            put_function(q, 7, 8, b);
        else
            put_function(q, 14 - i, 8, b);
        if (i < 8)
            put_function(q, s - 1 - i, 8, b);
        else
            put_function(q, 8, s - 15 + i, b);
    }
    put_function(q, 8, s - 8, true);
}

/* 7.10: the 18-bit version information, BCH(18,6) with generator 0x1f25, beside the top-right and bottom-left
 * finders (Figure 27). */
static void put_version(struct qr_code *q)
{
    if (q->version < 7)
        return;
    u32 r = q->version << 12;
    for (int i = 17; i >= 12; i--)
        if (r >> i & 1)
            r ^= 0x1f25u << (i - 12);
    u32 bits = q->version << 12 | r;
    for (u32 i = 0; i < 18; i++) {
        bool b = bits >> i & 1;
        u32 a = q->size - 11 + i % 3, c = i / 3;
        put_function(q, a, c, b);
        put_function(q, c, a, b);
    }
}

static void put_function_patterns(struct qr_code *q)
{
    u32 s = q->size;
    memset(q->dark, 0, sizeof(q->dark));
    memset(q->function, 0, sizeof(q->function));
    for (u32 i = 0; i < s; i++) { /* 6.3.5 timing: dark at even positions */
        put_function(q, 6, i, i % 2 == 0);
        put_function(q, i, 6, i % 2 == 0);
    }
    put_finder(q, 3, 3);
    put_finder(q, (int)s - 4, 3);
    put_finder(q, 3, (int)s - 4);
    u32 n = align_count(q->version), pos[7];
    if (n) {
        pos[0] = 6;
        for (u32 k = 0; k + 1 < n; k++)
            pos[n - 1 - k] = s - 7 - k * align_step[q->version];
        for (u32 i = 0; i < n; i++)
            for (u32 j = 0; j < n; j++)
                if (!((i == 0 && j == 0) || (i == 0 && j == n - 1) || (i == n - 1 && j == 0))) /* not on finders */
                    put_alignment(q, pos[i], pos[j]);
    }
    put_format(q, 0); /* reserves the format modules; the mask's own bits are written last */
    put_version(q);
}

/* 7.7.3: codeword bits in two-module columns from the right, upwards then downwards, skipping column 6 and the
 * function modules; modules left over (remainder bits) stay light. */
static void put_codewords(struct qr_code *q, const u8 *cw, u32 n)
{
    u32 bit = 0, s = q->size, pair = 0;
    for (int right = (int)s - 1; right >= 1; right -= 2, pair++) {
        if (right == 6) /* the vertical timing pattern: the pair left of it is columns 5 and 4 */
            right = 5;
        bool up = pair % 2 == 0;
        for (u32 k = 0; k < s; k++) {
            u32 y = up ? s - 1 - k : k;
            for (int dx = 0; dx < 2; dx++) {
                u32 x = (u32)(right - dx);
                if (get_bit(q->function, s, x, y))
                    continue;
                bool b = bit < n * 8 && (cw[bit >> 3] >> (7 - (bit & 7)) & 1);
                set_bit(q->dark, s, x, y, b);
                bit++;
            }
        }
    }
}

/* Table 10: the data mask patterns; i is the row, j the column. */
static bool mask_at(u32 mask, u32 j, u32 i)
{
    switch (mask) {
    case 0: return (i + j) % 2 == 0;
    case 1: return i % 2 == 0;
    case 2: return j % 3 == 0;
    case 3: return (i + j) % 3 == 0;
    case 4: return (i / 2 + j / 3) % 2 == 0;
    case 5: return (i * j) % 2 + (i * j) % 3 == 0;
    case 6: return ((i * j) % 2 + (i * j) % 3) % 2 == 0;
    default: return ((i + j) % 2 + (i * j) % 3) % 2 == 0;
    }
}

/* XOR the mask onto the encoding region; applying it twice undoes it. */
static void apply_mask(struct qr_code *q, u32 mask)
{
    for (u32 y = 0; y < q->size; y++)
        for (u32 x = 0; x < q->size; x++)
            if (!get_bit(q->function, q->size, x, y) && mask_at(mask, x, y))
                set_bit(q->dark, q->size, x, y, !get_bit(q->dark, q->size, x, y));
}

/* 7.8.3.1, along one row (vertical: one column). Runs are counted with the quiet zone as light on either side, so
 * a 1:1:3:1:1 pattern at the edge has its four light modules (N3). */
static u32 line_penalty(const struct qr_code *q, u32 line, bool vertical)
{
    u32 s = q->size, penalty = 0;
    u32 runs[QR_SIZE_MAX + 2], nruns = 0; /* alternating run lengths, starting with the light quiet zone */
    runs[nruns++] = 4;
    bool colour = false;
    for (u32 k = 0; k < s; k++) {
        bool d = vertical ? qr_module(q, line, k) : qr_module(q, k, line);
        if (d == colour)
            runs[nruns - 1]++;
        else {
            runs[nruns++] = 1;
            colour = d;
        }
    }
    if (colour)
        runs[nruns++] = 4;
    else
        runs[nruns - 1] += 4;
    for (u32 r = 0; r < nruns; r++) {
        u32 len = runs[r] - ((r == 0 || r == nruns - 1) ? 4 : 0); /* runs within the symbol only */
        if (len >= 5)
            penalty += 3 + (len - 5);
        /* runs[r] dark 3f, between dark f, light f on each side and a light run of 4f before or after */
        if (r % 2 == 1 && r >= 3 && r + 3 < nruns && runs[r] % 3 == 0) {
            u32 f = runs[r] / 3;
            if (runs[r - 1] == f && runs[r - 2] == f && runs[r + 1] == f && runs[r + 2] == f &&
                (runs[r - 3] >= 4 * f || runs[r + 3] >= 4 * f))
                penalty += 40;
        }
    }
    return penalty;
}

u32 qr_penalty(const struct qr_code *q)
{
    u32 s = q->size, penalty = 0, dark = 0;
    for (u32 i = 0; i < s; i++)
        penalty += line_penalty(q, i, false) + line_penalty(q, i, true);
    for (u32 y = 0; y < s; y++)
        for (u32 x = 0; x < s; x++) {
            bool d = qr_module(q, x, y);
            dark += d;
            if (x + 1 < s && y + 1 < s && d == qr_module(q, x + 1, y) && d == qr_module(q, x, y + 1) &&
                d == qr_module(q, x + 1, y + 1))
                penalty += 3;
        }
    /* N4: 10 for each full 5% the dark share lies away from 50% */
    u32 total = s * s, twenty_dark = 20 * dark, ten_total = 10 * total;
    u32 k = (twenty_dark > ten_total ? twenty_dark - ten_total : ten_total - twenty_dark) / total;
    return penalty + 10 * k;
}

static void put_bits(u8 *d, u32 *bit, u32 value, u32 nbits)
{
    for (u32 i = nbits; i-- > 0; (*bit)++)
        if (value >> i & 1)
            d[*bit >> 3] |= (u8)(0x80u >> (*bit & 7));
}

/* 7.4: mode indicator 0100, the count, the bytes, a terminator of up to four 0 bits, 0 bits to the byte, then
 * the pad codewords 11101100 00010001 in turn (7.4.10). */
static void make_data_codewords(struct qr_code *q, const u8 *data, u32 len, u32 capacity)
{
    u8 *d = q->data;
    memset(d, 0, capacity);
    u32 bit = 0;
    put_bits(d, &bit, 4, 4);
    put_bits(d, &bit, len, q->version <= 9 ? 8 : 16);
    for (u32 i = 0; i < len; i++)
        put_bits(d, &bit, data[i], 8);
    bit += MIN(4u, capacity * 8 - bit);
    for (u32 i = (bit + 7) / 8, pad = 0xec; i < capacity; i++, pad ^= 0xec ^ 0x11)
        d[i] = (u8)pad;
}

/* 7.5 and 7.6: split into blocks (the short ones first), compute each block's error correction and interleave:
 * the data codewords column by column, then the error correction codewords likewise. */
static u32 make_final_sequence(struct qr_code *q)
{
    u32 v = q->version, nb = blocks[q->ecc][v - 1], ne = ecc_per_block[q->ecc][v - 1];
    u32 total = total_codewords(v), shorts = nb - total % nb, short_len = total / nb;
    u32 short_data = short_len - ne;
    u8 gen[30], ecc[30];
    rs_generator(gen, ne);
    u32 out = 0;
    for (u32 col = 0; col <= short_data; col++)
        for (u32 b = 0, start = 0; b < nb; b++) {
            u32 dlen = short_data + (b >= shorts);
            if (col < dlen)
                q->out[out++] = q->data[start + col];
            start += dlen;
        }
    for (u32 b = 0, start = 0; b < nb; b++) {
        u32 dlen = short_data + (b >= shorts);
        rs_remainder(q->data + start, dlen, gen, ne, ecc);
        for (u32 i = 0; i < ne; i++)
            q->out[out + i * nb + b] = ecc[i];
        start += dlen;
    }
    return out + ne * nb;
}

const char *qr_encode(struct qr_code *q, const u8 *data, u32 len, u32 version, enum qr_ecc ecc, int mask)
{
    if (version < 1 || version > QR_VERSION_MAX)
        return "version outside 1..40";
    if ((u32)ecc > QR_ECC_H)
        return "error correction level not L, M, Q or H";
    if (mask < QR_MASK_AUTO || mask > 7)
        return "mask outside 0..7";
    if (len > qr_byte_capacity(version, ecc))
        return "more data than the symbol holds";
    q->version = version;
    q->size = 17 + 4 * version;
    q->ecc = ecc;
    put_function_patterns(q);
    make_data_codewords(q, data, len, data_codewords(version, ecc));
    u32 n = make_final_sequence(q);
    put_codewords(q, q->out, n);
    u32 chosen = mask < 0 ? 0 : (u32)mask;
    if (mask < 0) {
        u32 best = ~0u;
        for (u32 m = 0; m < 8; m++) {
            apply_mask(q, m);
            put_format(q, m);
            u32 p = qr_penalty(q);
            if (p < best) {
                best = p;
                chosen = m;
            }
            apply_mask(q, m);
        }
    }
    apply_mask(q, chosen);
    put_format(q, chosen);
    q->mask = chosen;
    return NULL;
}
