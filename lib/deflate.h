/* A zlib stream (RFC 1950) of DEFLATE data (RFC 1951): LZ77 matches found through hash chains over a 32 KiB window,
 * in blocks of DEFLATE_BLOCK_TOKENS symbols each with its own Huffman codes (dynamic, BTYPE 10): what any inflate
 * (zlib, Perl's Compress::Zlib) reads back. The QR codes of a run's result carry its checklist so compressed (TAP
 * lines repeat most of their words). Portable; the state is the caller's (about 224 KB), nothing is allocated. */
#pragma once
#include "lib/types.h"

#define DEFLATE_WINDOW 32768u
#define DEFLATE_HASH_BITS 13
#define DEFLATE_BLOCK_TOKENS 16384

struct deflate_state {
    u32 head[1u << DEFLATE_HASH_BITS]; /* per hash of 3 bytes: the last position + 1 that had it, 0 none */
    u32 prev[DEFLATE_WINDOW];          /* per position modulo the window: the previous position + 1 of its hash */
    u32 tokens[DEFLATE_BLOCK_TOKENS];  /* the block's literals, or MATCH_FLAG | distance << 9 | length */
};

/* Compress in[0..len) into out[0..size). Returns the length of the zlib stream, or 0 if it does not fit. */
u32 deflate_zlib(struct deflate_state *s, const u8 *in, u32 len, u8 *out, u32 size);

/* Huffman code lengths (n <= 286) for the symbol frequencies freq[0..n), none longer than max_bits: a complete code
 * (the Kraft sum is 1). At least two symbols get a length, 0 and 1 standing in where fewer are used (a one-symbol
 * code is incomplete, which inflate refuses for literals). */
void deflate_code_lengths(const u32 *freq, u32 n, u32 max_bits, u8 *lens);

/* The Adler-32 of RFC 1950 8.2. */
u32 deflate_adler32(const u8 *p, u32 len);
