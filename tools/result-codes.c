/* tools/result-codes: a serial log's result as the QR codes the final screen shows (lib/result_stream.c,
 * lib/deflate.c, lib/result_code.c, lib/qr.c: the kernel's own code), written as PNG images. For the report
 * tool's tests and for a look at what a run without a serial port hands over.
 *
 *   build/tools/result-codes [--codes N] [--scale S] [--one] [--bin] LOG OUT
 *
 * Writes OUT-1.png .. OUT-n.png (one code each; --one: all in OUT.png, in a row), --bin also OUT-k.bin (the code's
 * bytes). --codes N splits over N codes (default: as the 1024x768 screen would); --scale S pixels a module
 * (default 4). Prints "n codes, version V level L, P packed bytes of S". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/crc32.h"
#include "lib/deflate.h"
#include "lib/qr.h"
#include "lib/result_code.h"
#include "lib/result_stream.h"

static struct deflate_state dstate;
static struct qr_code qr;
static char stream[1 << 20];
static u8 packed[1 << 20], code[4096];

static void die(const char *m)
{
    fprintf(stderr, "result-codes: %s\n", m);
    exit(2);
}

static void png_chunk(FILE *f, const char *type, const u8 *data, u32 len)
{
    u8 hdr[8] = {(u8)(len >> 24), (u8)(len >> 16), (u8)(len >> 8), (u8)len};
    memcpy(hdr + 4, type, 4);
    fwrite(hdr, 1, 8, f);
    if (len)
        fwrite(data, 1, len, f);
    u32 crc = crc32_update(crc32_update(0, (const u8 *)type, 4), data, len);
    u8 c[4] = {(u8)(crc >> 24), (u8)(crc >> 16), (u8)(crc >> 8), (u8)crc};
    fwrite(c, 1, 4, f);
}

/* An 8-bit greyscale PNG (each row: filter 0, then the pixels). */
static void write_png(const char *path, const u8 *grey, u32 w, u32 h)
{
    u32 rawlen = (w + 1) * h;
    u8 *raw = malloc(rawlen), *z = malloc(rawlen + rawlen / 2 + 64);
    if (!raw || !z)
        die("out of memory");
    for (u32 y = 0; y < h; y++) {
        raw[y * (w + 1)] = 0;
        memcpy(raw + y * (w + 1) + 1, grey + (size_t)y * w, w);
    }
    u32 zlen = deflate_zlib(&dstate, raw, rawlen, z, rawlen + rawlen / 2 + 64);
    if (!zlen)
        die("PNG data did not compress into its buffer");
    FILE *f = fopen(path, "wb");
    if (!f)
        die("cannot write the PNG");
    fwrite("\x89PNG\r\n\x1a\n", 1, 8, f);
    u8 ihdr[13] = {(u8)(w >> 24), (u8)(w >> 16), (u8)(w >> 8), (u8)w, (u8)(h >> 24), (u8)(h >> 16), (u8)(h >> 8),
                   (u8)h, 8, 0, 0, 0, 0};
    png_chunk(f, "IHDR", ihdr, 13);
    png_chunk(f, "IDAT", z, zlen);
    png_chunk(f, "IEND", NULL, 0);
    fclose(f);
    free(raw);
    free(z);
}

/* Draw the symbol with its quiet zone at (ox, oy) of a w-wide white image. */
static void draw(u8 *grey, u32 w, u32 ox, u32 oy, u32 scale)
{
    for (u32 y = 0; y < qr.size; y++)
        for (u32 x = 0; x < qr.size; x++)
            if (qr_module(&qr, x, y))
                for (u32 dy = 0; dy < scale; dy++)
                    memset(grey + (size_t)(oy + (y + RESULT_CODE_QUIET) * scale + dy) * w + ox +
                               (x + RESULT_CODE_QUIET) * scale,
                           0, scale);
}

int main(int argc, char **argv)
{
    u32 want = 0, scale = 4;
    int one = 0, bin = 0, i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "--codes") && i + 1 < argc)
            want = (u32)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--scale") && i + 1 < argc)
            scale = (u32)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--one"))
            one = 1;
        else if (!strcmp(argv[i], "--bin"))
            bin = 1;
        else
            die("usage: result-codes [--codes N] [--scale S] [--one] [--bin] LOG OUT");
    }
    if (argc - i != 2 || scale < 1 || scale > 32 || want > RESULT_CODE_MAX)
        die("usage: result-codes [--codes N] [--scale S] [--one] [--bin] LOG OUT");
    FILE *f = fopen(argv[i], "rb");
    if (!f)
        die("cannot read the log");
    static struct result_stream rs;
    result_stream_init(&rs, stream, sizeof(stream));
    for (int c; (c = fgetc(f)) != EOF;)
        result_stream_putc(&rs, (char)c);
    fclose(f);
    if (!rs.started)
        die("no 'TAP version 13' line in the log");
    u32 plen = deflate_zlib(&dstate, (const u8 *)stream, rs.len, packed, sizeof(packed));
    if (!plen)
        die("the stream does not compress into the buffer");
    u32 crc = crc32_update(0, (const u8 *)stream, rs.len);
    struct result_layout lay;
    const char *why = result_code_layout(plen, 1024, 768, 2, RESULT_CODE_MAX, &lay);
    if (want) {
        lay.n = want;
        lay.ecc = QR_ECC_M;
        lay.version = qr_fit_version((plen + want - 1) / want + RESULT_CODE_OVERHEAD, QR_ECC_M, 1);
        if (!lay.version)
            die("a part does not fit one version-40 code at level M: ask for more codes");
    } else if (why)
        die(why);
    u32 side = (lay.version * 4 + 17 + 2 * RESULT_CODE_QUIET) * scale;
    u32 w = one ? side * lay.n : side;
    u8 *grey = malloc((size_t)w * side);
    if (!grey)
        die("out of memory");
    memset(grey, 255, (size_t)w * side);
    char path[4096];
    for (u32 k = 1; k <= lay.n; k++) {
        u32 len = result_code_build(packed, plen, crc, k, lay.n, code, sizeof(code));
        if (!len)
            die("a code's part is too long");
        why = qr_encode(&qr, code, len, lay.version, lay.ecc, QR_MASK_AUTO);
        if (why)
            die(why);
        if (bin) {
            snprintf(path, sizeof(path), "%s-%u.bin", argv[i + 1], k);
            FILE *b = fopen(path, "wb");
            if (!b)
                die("cannot write a .bin file");
            fwrite(code, 1, len, b);
            fclose(b);
        }
        if (one) {
            draw(grey, w, (k - 1) * side, 0, scale);
            continue;
        }
        memset(grey, 255, (size_t)w * side);
        draw(grey, w, 0, 0, scale);
        snprintf(path, sizeof(path), "%s-%u.png", argv[i + 1], k);
        write_png(path, grey, w, side);
    }
    if (one) {
        snprintf(path, sizeof(path), "%s.png", argv[i + 1]);
        write_png(path, grey, w, side);
    }
    printf("%u codes, version %u level %c, %u packed bytes of %u\n", lay.n, lay.version, "LMQH"[lay.ecc], plen, rs.len);
    free(grey);
    return 0;
}
