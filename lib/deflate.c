/* zlib-wrapped DEFLATE with dynamic Huffman codes (see deflate.h). Section numbers are RFC 1951's. */
#include "lib/deflate.h"

#include <string.h>

#define MIN_MATCH 3
#define MAX_MATCH 258
#define MAX_CHAIN 64 /* candidates tried per position: enough for TAP text, bounded time */
#define MAX_BITS 15  /* 3.2.7: the longest literal/length or distance code */
#define MATCH_FLAG 0x80000000u

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

/* 3.2.5: lengths 3..258 and distances 1..32768 as a code and extra bits. */
static const u16 len_base[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const u8 len_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const u16 dist_base[30] = {1,    2,    3,    4,    5,    7,     9,     13,    17,  25,
                                  33,   49,   65,   97,   129,  193,   257,   385,   513, 769,
                                  1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
static const u8 dist_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6,
                                  6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
/* 3.2.7: the order the code length code's lengths are sent in. */
static const u8 clen_order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

static u32 len_code(u32 len)
{
    u32 i = 28;
    while (len_base[i] > len)
        i--;
    return i;
}

static u32 dist_code(u32 dist)
{
    u32 d = 29;
    while (dist_base[d] > dist)
        d--;
    return d;
}

/* The two lightest nodes joined until one is left; a code too long halves the weights and tries again. */
void deflate_code_lengths(const u32 *freq_in, u32 n, u32 max_bits, u8 *lens)
{
    u32 freq[286], weight[2 * 286], parent[2 * 286], sym[286];
    memcpy(freq, freq_in, n * sizeof(u32));
    u32 used = 0;
    for (u32 i = 0; i < n; i++)
        used += freq[i] != 0;
    for (u32 i = 0; i < 2 && used < 2; i++)
        if (!freq[i]) {
            freq[i] = 1;
            used++;
        }
    for (;;) {
        u32 m = 0;
        for (u32 i = 0; i < n; i++)
            if (freq[i]) {
                sym[m] = i;
                weight[m++] = freq[i];
            }
        u32 nodes = m;
        bool alive[2 * 286];
        for (u32 i = 0; i < m; i++)
            alive[i] = true;
        for (u32 joins = 0; joins + 1 < m; joins++) {
            u32 a = ~0u, b = ~0u;
            for (u32 i = 0; i < nodes; i++) {
                if (!alive[i])
                    continue;
                if (a == ~0u || weight[i] < weight[a]) {
                    b = a;
                    a = i;
                } else if (b == ~0u || weight[i] < weight[b])
                    b = i;
            }
            weight[nodes] = weight[a] + weight[b];
            alive[nodes] = true;
            alive[a] = alive[b] = false;
            parent[a] = parent[b] = nodes;
            nodes++;
        }
        memset(lens, 0, n);
        u32 longest = 0;
        for (u32 i = 0; i < m; i++) {
            u32 depth = 0;
            for (u32 x = i; x != nodes - 1; x = parent[x])
                depth++;
            lens[sym[i]] = (u8)depth;
            longest = MAX(longest, depth);
        }
        if (longest <= max_bits)
            return;
        for (u32 i = 0; i < n; i++)
            if (freq[i])
                freq[i] = (freq[i] >> 1) | 1;
    }
}

/* 3.2.2: the canonical codes of the lengths. */
static void canonical_codes(const u8 *lens, u32 n, u16 *codes)
{
    u32 count[MAX_BITS + 1] = {0}, next[MAX_BITS + 1];
    for (u32 i = 0; i < n; i++)
        count[lens[i]]++;
    count[0] = 0;
    u32 code = 0;
    for (u32 bits = 1; bits <= MAX_BITS; bits++) {
        code = (code + count[bits - 1]) << 1;
        next[bits] = code;
    }
    for (u32 i = 0; i < n; i++)
        if (lens[i])
            codes[i] = (u16)next[lens[i]]++;
}

/* 3.2.7: the literal/length and distance code lengths, run-length coded (16: repeat the previous 3-6 times, 17:
 * 3-10 zeros, 18: 11-138 zeros) into rle[] (symbol | extra value << 8); returns how many. */
static u32 rle_lengths(const u8 *all, u32 n, u16 *rle)
{
    u32 out = 0;
    for (u32 i = 0; i < n;) {
        u32 run = 1;
        while (i + run < n && all[i + run] == all[i])
            run++;
        if (all[i] == 0 && run >= 3) {
            run = MIN(run, 138u);
            rle[out++] = run >= 11 ? (u16)(18 | (run - 11) << 8) : (u16)(17 | (run - 3) << 8);
            i += run;
        } else if (all[i] != 0 && run >= 4) {
            rle[out++] = all[i];
            run = MIN(run - 1, 6u);
            rle[out++] = (u16)(16 | (run - 3) << 8);
            i += run + 1;
        } else {
            rle[out++] = all[i];
            i++;
        }
    }
    return out;
}

/* One block with its own codes (BTYPE 10) of tokens t[0..n). */
static void put_block(struct bits *b, struct deflate_state *s, u32 n, bool last)
{
    u32 lfreq[286] = {0}, dfreq[30] = {0}, cfreq[19] = {0};
    for (u32 i = 0; i < n; i++) {
        u32 t = s->tokens[i];
        if (t & MATCH_FLAG) {
            lfreq[257 + len_code(t & 0x1ff)]++;
            dfreq[dist_code(t >> 9 & 0xffff)]++;
        } else
            lfreq[t]++;
    }
    lfreq[256] = 1;
    u8 llen[286], dlen[30], clen[19], all[286 + 30];
    u16 lcode[286], dcode[30], ccode[19], rle[286 + 30];
    deflate_code_lengths(lfreq, 286, MAX_BITS, llen);
    deflate_code_lengths(dfreq, 30, MAX_BITS, dlen);
    u32 hlit = 286, hdist = 30;
    while (hlit > 257 && !llen[hlit - 1])
        hlit--;
    while (hdist > 1 && !dlen[hdist - 1])
        hdist--;
    memcpy(all, llen, hlit);
    memcpy(all + hlit, dlen, hdist);
    u32 nrle = rle_lengths(all, hlit + hdist, rle);
    for (u32 i = 0; i < nrle; i++)
        cfreq[rle[i] & 0xff]++;
    deflate_code_lengths(cfreq, 19, 7, clen);
    u32 hclen = 19;
    while (hclen > 4 && !clen[clen_order[hclen - 1]])
        hclen--;
    canonical_codes(llen, 286, lcode);
    canonical_codes(dlen, 30, dcode);
    canonical_codes(clen, 19, ccode);

    put(b, last, 1);
    put(b, 2, 2); /* BTYPE 10: dynamic codes */
    put(b, hlit - 257, 5);
    put(b, hdist - 1, 5);
    put(b, hclen - 4, 4);
    for (u32 i = 0; i < hclen; i++)
        put(b, clen[clen_order[i]], 3);
    for (u32 i = 0; i < nrle; i++) {
        u32 sym = rle[i] & 0xff, extra = rle[i] >> 8;
        put_code(b, ccode[sym], clen[sym]);
        if (sym == 16)
            put(b, extra, 2);
        else if (sym == 17)
            put(b, extra, 3);
        else if (sym == 18)
            put(b, extra, 7);
    }
    for (u32 i = 0; i < n; i++) {
        u32 t = s->tokens[i];
        if (!(t & MATCH_FLAG)) {
            put_code(b, lcode[t], llen[t]);
            continue;
        }
        u32 len = t & 0x1ff, dist = t >> 9 & 0xffff, lc = len_code(len), dc = dist_code(dist);
        put_code(b, lcode[257 + lc], llen[257 + lc]);
        put(b, len - len_base[lc], len_extra[lc]);
        put_code(b, dcode[dc], dlen[dc]);
        put(b, dist - dist_base[dc], dist_extra[dc]);
    }
    put_code(b, lcode[256], llen[256]); /* end of block */
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

/* The longest earlier match of in[pos..) within the window: its length (0 if under MIN_MATCH) and distance. */
static u32 longest_match(struct deflate_state *s, const u8 *in, u32 len, u32 pos, u32 *dist)
{
    u32 best = 0;
    if (pos + MIN_MATCH > len)
        return 0;
    u32 cand = s->head[hash3(in + pos)], max = MIN(MAX_MATCH, len - pos);
    for (u32 tries = 0; cand && tries < MAX_CHAIN; tries++) {
        u32 c = cand - 1;
        if (pos - c > DEFLATE_WINDOW)
            break;
        u32 l = 0;
        while (l < max && in[c + l] == in[pos + l])
            l++;
        if (l > best) {
            best = l;
            *dist = pos - c;
            if (l == max)
                break;
        }
        u32 next = s->prev[c % DEFLATE_WINDOW];
        if (next >= cand) /* the slot was reused by a later position: the chain ends */
            break;
        cand = next;
    }
    return best >= MIN_MATCH ? best : 0;
}

u32 deflate_zlib(struct deflate_state *s, const u8 *in, u32 len, u8 *out, u32 size)
{
    struct bits b = {out, size, 0, 0, 0, false};
    memset(s->head, 0, sizeof(s->head));
    put(&b, 0x78, 8); /* RFC 1950 2.2: deflate, 32 KiB window; no dictionary, check bits of 0x7801 */
    put(&b, 0x01, 8);
    u32 pos = 0, n = 0;
    while (pos < len) {
        u32 dist = 0, m = longest_match(s, in, len, pos, &dist);
        if (m) {
            s->tokens[n++] = MATCH_FLAG | dist << 9 | m;
            for (u32 i = 0; i < m; i++, pos++)
                if (pos + MIN_MATCH <= len)
                    insert(s, in, pos);
        } else {
            s->tokens[n++] = in[pos];
            if (pos + MIN_MATCH <= len)
                insert(s, in, pos);
            pos++;
        }
        if (n == DEFLATE_BLOCK_TOKENS && pos < len) {
            put_block(&b, s, n, false);
            n = 0;
        }
    }
    put_block(&b, s, n, true);
    if (b.nacc)
        put(&b, 0, 8 - b.nacc);
    u32 a = deflate_adler32(in, len);
    for (int i = 24; i >= 0; i -= 8)
        put(&b, a >> i & 0xff, 8);
    return b.overflow ? 0 : b.pos;
}
