/* zlib-wrapped DEFLATE with fixed Huffman codes (see deflate.h). Section numbers are RFC 1951's. */
#include "lib/deflate.h"

#include <string.h>

#define MIN_MATCH 3
#define MAX_MATCH 258
#define MAX_CHAIN 64 /* candidates tried per position: enough for TAP text, bounded time */

struct bits {
    u8 *out;
    u32 size, pos, acc, nacc;
    bool overflow;
};

/* Bits go out least significant first (3.1.1). */
static void put(struct bits *b, u32 value, u32 n)
{
    b->acc |= value << b->nacc;
    b->nacc += n;
    while (b->nacc >= 8) {
        if (b->pos < b->size)
            b->out[b->pos++] = (u8)b->acc;
        else
            b->overflow = true;
        b->acc >>= 8;
        b->nacc -= 8;
    }
}

/* A Huffman code is sent most significant bit first (3.1.1): reversed into put()'s order. */
static void put_code(struct bits *b, u32 code, u32 n)
{
    u32 r = 0;
    for (u32 i = 0; i < n; i++)
        r |= (code >> i & 1) << (n - 1 - i);
    put(b, r, n);
}

/* 3.2.6: the fixed literal/length code. */
static void put_symbol(struct bits *b, u32 sym)
{
    if (sym < 144)
        put_code(b, 0x30 + sym, 8);
    else if (sym < 256)
        put_code(b, 0x190 + sym - 144, 9);
    else if (sym < 280)
        put_code(b, sym - 256, 7);
    else
        put_code(b, 0xc0 + sym - 280, 8);
}

/* 3.2.5: lengths 3..258 and distances 1..32768 as a code and extra bits. */
static const u16 len_base[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const u8 len_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const u16 dist_base[30] = {1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,    129,
                                  193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
static const u8 dist_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

static void put_match(struct bits *b, u32 len, u32 dist)
{
    u32 i = 28;
    while (len_base[i] > len)
        i--;
    put_symbol(b, 257 + i);
    put(b, len - len_base[i], len_extra[i]);
    u32 d = 29;
    while (dist_base[d] > dist)
        d--;
    put_code(b, d, 5);
    put(b, dist - dist_base[d], dist_extra[d]);
}

static u32 hash3(const u8 *p)
{
    return ((u32)p[0] << 16 | (u32)p[1] << 8 | p[2]) * 2654435761u >> (32 - DEFLATE_HASH_BITS);
}

static void insert(struct deflate_state *s, const u8 *in, u32 pos)
{
    u32 h = hash3(in + pos);
    s->prev[pos % DEFLATE_WINDOW] = s->head[h];
    s->head[h] = pos + 1;
}

u32 deflate_adler32(const u8 *p, u32 len)
{
    u32 a = 1, b = 0;
    for (u32 i = 0; i < len; i++) {
        a = (a + p[i]) % 65521;
        b = (b + a) % 65521;
    }
    return b << 16 | a;
}

u32 deflate_zlib(struct deflate_state *s, const u8 *in, u32 len, u8 *out, u32 size)
{
    struct bits b = {out, size, 0, 0, 0, false};
    memset(s->head, 0, sizeof(s->head));
    put(&b, 0x78, 8); /* RFC 1950 2.2: deflate, 32 KiB window; no dictionary, check bits of 0x7801 */
    put(&b, 0x01, 8);
    put(&b, 1, 1); /* one block, the last */
    put(&b, 1, 2); /* BTYPE 01: fixed codes */
    u32 pos = 0;
    while (pos < len) {
        u32 best_len = 0, best_dist = 0;
        if (pos + MIN_MATCH <= len) {
            u32 cand = s->head[hash3(in + pos)], max = MIN(MAX_MATCH, len - pos);
            for (u32 tries = 0; cand && tries < MAX_CHAIN; tries++) {
                u32 c = cand - 1;
                if (pos - c > DEFLATE_WINDOW)
                    break;
                u32 l = 0;
                while (l < max && in[c + l] == in[pos + l])
                    l++;
                if (l > best_len) {
                    best_len = l;
                    best_dist = pos - c;
                    if (l == max)
                        break;
                }
                u32 next = s->prev[c % DEFLATE_WINDOW];
                if (next >= cand) /* the slot was reused by a later position: the chain ends */
                    break;
                cand = next;
            }
        }
        if (best_len >= MIN_MATCH) {
            put_match(&b, best_len, best_dist);
            for (u32 i = 0; i < best_len; i++, pos++)
                if (pos + MIN_MATCH <= len)
                    insert(s, in, pos);
        } else {
            put_symbol(&b, in[pos]);
            if (pos + MIN_MATCH <= len)
                insert(s, in, pos);
            pos++;
        }
    }
    put_symbol(&b, 256); /* end of block */
    if (b.nacc)
        put(&b, 0, 8 - b.nacc);
    u32 a = deflate_adler32(in, len);
    for (int i = 24; i >= 0; i -= 8)
        put(&b, a >> i & 0xff, 8);
    return b.overflow ? 0 : b.pos;
}
