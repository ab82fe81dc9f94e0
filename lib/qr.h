/* A QR Code (Model 2) encoder, ISO/IEC 18004:2015: byte mode, versions 1 to 40, error correction levels L, M,
 * Q and H, Reed-Solomon over GF(256), and either a given data mask or the one with the lowest penalty score
 * (ISO/IEC 18004:2015 7.8.3). The final screen of a run without a serial port carries the result in such codes
 * for a phone or `zbarimg` to read. Portable: no allocation, every buffer in struct qr_code (about 15 KB),
 * host-tested module for module against libqrencode (tests/host/test_qr.c). */
#pragma once
#include "lib/types.h"

#define QR_VERSION_MAX 40
#define QR_SIZE_MAX (17 + 4 * QR_VERSION_MAX) /* modules a side at version 40 */
#define QR_CODEWORDS_MAX 3706                 /* data and error correction codewords at version 40 */
#define QR_MASK_AUTO (-1)

enum qr_ecc { QR_ECC_L, QR_ECC_M, QR_ECC_Q, QR_ECC_H };

struct qr_code {
    u32 version, size, mask; /* size: modules a side, 4 * version + 17 */
    enum qr_ecc ecc;
    u8 dark[(QR_SIZE_MAX * QR_SIZE_MAX + 7) / 8];     /* the symbol, row-major bits; no quiet zone */
    u8 function[(QR_SIZE_MAX * QR_SIZE_MAX + 7) / 8]; /* finder, timing, alignment, format, version modules */
    u8 data[QR_CODEWORDS_MAX];                        /* working space: the data codewords, then the blocks */
    u8 out[QR_CODEWORDS_MAX];                         /* working space: the interleaved codeword sequence */
};

/* Bytes a byte-mode segment can carry in one symbol of this version and level (0 for a bad argument). */
u32 qr_byte_capacity(u32 version, enum qr_ecc ecc);

/* The smallest version from min_version up that holds len bytes at this level; 0 if none does. */
u32 qr_fit_version(u32 len, enum qr_ecc ecc, u32 min_version);

/* Encode data[0..len) as one byte-mode segment in a symbol of exactly this version and level, masked with mask
 * (0..7) or, with QR_MASK_AUTO, the mask of lowest penalty (the first of equals). NULL on success, else what is
 * wrong (a version outside 1..40, a level or mask out of range, more data than the symbol holds). */
const char *qr_encode(struct qr_code *q, const u8 *data, u32 len, u32 version, enum qr_ecc ecc, int mask);

/* Whether the module in column x, row y (0..size-1, (0,0) top left) is dark. */
static inline bool qr_module(const struct qr_code *q, u32 x, u32 y)
{
    u32 i = y * q->size + x;
    return q->dark[i >> 3] >> (i & 7) & 1;
}

/* The penalty score of the symbol as it stands (ISO/IEC 18004:2015 7.8.3.1: N1 runs, N2 blocks, N3 finder-like
 * patterns, N4 dark proportion); what QR_MASK_AUTO minimises. */
u32 qr_penalty(const struct qr_code *q);
