/* Multiboot1 (spec 0.6.96 section 3.3) and Multiboot2 (spec 2.0 section 3.6) boot information parsing
 * (lib/bootinfo.c). Each block is built byte by byte from the specs' layouts in a buffer that stands for
 * physical memory at WIN_BASE; the buffer is malloc'd at its exact size so ASan reports any read past it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/bootinfo.h"

#define WIN_BASE 0x10000ull /* non-zero: physical address != buffer offset */
#define INFO_OFF 0x40u      /* the info block starts this far into the window (8-aligned) */

/* ---------------------------------------------------------------------------------------------------- */
/* Physical memory stand-in                                                                              */

struct mem {
    u8 *buf;
    struct phys_window w;
};

/* prefix bytes of filler, then len bytes of data; nothing after. */
static struct mem mem_make(size_t prefix, const void *data, size_t len)
{
    struct mem m;
    size_t size = prefix + len;
    m.buf = malloc(size ? size : 1);
    assert_non_null(m.buf);
    memset(m.buf, 0xcc, prefix);
    if (len)
        memcpy(m.buf + prefix, data, len);
    m.w = (struct phys_window){WIN_BASE, size, m.buf, NULL};
    return m;
}

static void mem_free(struct mem *m)
{
    free(m->buf);
    m->buf = NULL;
}

static void put32(u8 *p, u32 v)
{
    memcpy(p, &v, 4); /* x86 hosts: little-endian, as the specs */
}

static void put64(u8 *p, u64 v)
{
    memcpy(p, &v, 8);
}

/* Properties every parse result must have, whatever the input. */
static void check_invariants(const struct boot_info *bi, const struct phys_window *w)
{
    assert_true(strnlen(bi->cmdline, sizeof(bi->cmdline)) < sizeof(bi->cmdline));
    assert_true(strnlen(bi->loader, sizeof(bi->loader)) < sizeof(bi->loader));
    if (!bi->has_cmdline)
        assert_string_equal(bi->cmdline, "");
    if (!bi->has_loader)
        assert_string_equal(bi->loader, "");
    assert_true(bi->mmap_count <= BOOT_MMAP_MAX);
    if (bi->mmap_truncated)
        assert_int_equal(bi->mmap_count, BOOT_MMAP_MAX);
    assert_true(bi->info_size <= w->size);
    if (bi->rsdp_v1_phys) {
        assert_true(bi->rsdp_v1_len >= 20);
        assert_true(phys_range_ok(w, bi->rsdp_v1_phys, bi->rsdp_v1_len));
    }
    if (bi->rsdp_v2_phys) {
        assert_true(bi->rsdp_v2_len >= 36);
        assert_true(phys_range_ok(w, bi->rsdp_v2_phys, bi->rsdp_v2_len));
    }
    for (u32 i = 0; i < bi->problem_count && i < BOOT_PROBLEMS_MAX; i++) {
        size_t n = strnlen(bi->problems[i], BOOT_PROBLEM_LEN);
        assert_true(n > 0 && n < BOOT_PROBLEM_LEN);
    }
}

static u32 parse(struct boot_info *bi, u32 magic, u64 info_phys, const struct mem *m)
{
    memset(bi, 0xa5, sizeof(*bi)); /* the parser must initialise every field */
    u32 n = bootinfo_parse(bi, magic, info_phys, &m->w);
    assert_int_equal(n, bi->problem_count);
    check_invariants(bi, &m->w);
    return n;
}

static void dump_problems(const struct boot_info *bi)
{
    for (u32 i = 0; i < bi->problem_count && i < BOOT_PROBLEMS_MAX; i++)
        print_message("#   problem %u: %s\n", i, bi->problems[i]);
}

/* Some recorded problem contains every given key word. */
static void expect_problem_(const struct boot_info *bi, int line, const char *k1, const char *k2)
{
    for (u32 i = 0; i < bi->problem_count && i < BOOT_PROBLEMS_MAX; i++)
        if (strstr(bi->problems[i], k1) && (!k2 || strstr(bi->problems[i], k2)))
            return;
    dump_problems(bi);
    fail_msg("line %d: no problem mentions '%s'%s%s%s (%u problems)", line, k1, k2 ? " and '" : "", k2 ? k2 : "",
             k2 ? "'" : "", bi->problem_count);
}
#define expect_problem(bi, k1, k2) expect_problem_(bi, __LINE__, k1, k2)

static void expect_no_problems_(const struct boot_info *bi, int line)
{
    if (bi->problem_count == 0)
        return;
    dump_problems(bi);
    fail_msg("line %d: expected no problems, got %u", line, bi->problem_count);
}
#define expect_no_problems(bi) expect_no_problems_(bi, __LINE__)

static void expect_region(const struct boot_info *bi, u32 i, u64 base, u64 length, u32 type)
{
    assert_true(i < bi->mmap_count);
    assert_int_equal(bi->mmap[i].base, base);
    assert_int_equal(bi->mmap[i].length, length);
    assert_int_equal(bi->mmap[i].type, type);
}

/* SeaBIOS's E820 map for `qemu -m 4G` (below-4G RAM ends at 3 GiB, the rest above 4 GiB). */
static const struct mem_region e820[] = {
    {0x0, 0x9fc00, MEM_AVAILABLE},          {0x9fc00, 0x400, MEM_RESERVED},
    {0xf0000, 0x10000, MEM_RESERVED},       {0x100000, 0xbfee0000, MEM_AVAILABLE},
    {0xbffe0000, 0x20000, MEM_RESERVED},    {0xfeffc000, 0x4000, MEM_RESERVED},
    {0xfffc0000, 0x40000, MEM_RESERVED},    {0x100000000, 0x40000000, MEM_AVAILABLE},
};
#define E820_N ((u32)(sizeof(e820) / sizeof(e820[0])))

/* ---------------------------------------------------------------------------------------------------- */
/* Multiboot2 blocks (spec 2.0 3.6)                                                                        */

struct mb2 {
    u8 b[16384];
    size_t len;
};

static void mb2_start(struct mb2 *m)
{
    memset(m->b, 0, sizeof(m->b));
    m->len = 8; /* u32 total_size, u32 reserved */
}

/* A tag whose header says `size`, followed by plen payload bytes; the next tag starts 8-aligned after them. */
static size_t mb2_tag_raw(struct mb2 *m, u32 type, u32 size, const void *payload, size_t plen)
{
    size_t at = m->len;
    assert_true(at + 8 + plen + 8 <= sizeof(m->b));
    put32(m->b + at, type);
    put32(m->b + at + 4, size);
    if (plen)
        memcpy(m->b + at + 8, payload, plen);
    m->len = at + ((8 + plen + 7) & ~(size_t)7);
    return at;
}

static size_t mb2_tag(struct mb2 *m, u32 type, const void *payload, size_t plen)
{
    return mb2_tag_raw(m, type, (u32)(8 + plen), payload, plen);
}

static size_t mb2_string_tag(struct mb2 *m, u32 type, const char *s)
{
    return mb2_tag(m, type, s, strlen(s) + 1);
}

static void mb2_set_total(struct mb2 *m, u32 total)
{
    put32(m->b, total);
}

static void mb2_finish(struct mb2 *m)
{
    mb2_tag(m, 0, NULL, 0); /* end tag: type 0, size 8 */
    mb2_set_total(m, (u32)m->len);
}

static size_t mb2_meminfo(struct mb2 *m, u32 lower, u32 upper)
{
    u8 p[8];
    put32(p, lower);
    put32(p + 4, upper);
    return mb2_tag(m, 4, p, sizeof(p));
}

/* Memory map tag: u32 entry_size, u32 entry_version, then entries {u64 base, u64 len, u32 type, u32 0}
 * padded to entry_size. */
static size_t mb2_mmap(struct mb2 *m, u32 entry_size, const struct mem_region *r, u32 n, size_t extra)
{
    static u8 p[8 + 128 * 40 + 64];
    size_t stride = entry_size >= 24 && entry_size <= 64 ? entry_size : 24; /* bad sizes: data as for 24 */
    size_t plen = 8 + n * stride + extra;
    assert_true(plen <= sizeof(p));
    memset(p, 0, sizeof(p));
    put32(p, entry_size);
    put32(p + 4, 0);
    for (u32 i = 0; i < n; i++) {
        put64(p + 8 + i * stride, r[i].base);
        put64(p + 8 + i * stride + 8, r[i].length);
        put32(p + 8 + i * stride + 16, r[i].type);
    }
    return mb2_tag(m, 6, p, plen);
}

/* ACPI 6.5 5.2.5.3: RSDP, 20 bytes for revision 0, 36 for revision 2; checksums make the byte sums 0. */
static void make_rsdp(u8 *r, int revision)
{
    memset(r, 0, 36);
    memcpy(r, "RSD PTR ", 8);
    memcpy(r + 9, "BOCHS ", 6);
    r[15] = (u8)revision;
    put32(r + 16, 0x07fe14d5); /* RSDT */
    u8 sum = 0;
    for (int i = 0; i < 20; i++)
        sum = (u8)(sum + r[i]);
    r[8] = (u8)-sum;
    if (revision >= 2) {
        put32(r + 20, 36);
        put64(r + 24, 0x07fe1600); /* XSDT */
        sum = 0;
        for (int i = 0; i < 36; i++)
            sum = (u8)(sum + r[i]);
        r[32] = (u8)-sum;
    }
}

#define GRUB_CMDLINE "exit=qemu verbose=2 suite=pmu"
#define GRUB_LOADER "GRUB 2.06"
#define GRUB_MEM_LOWER 639u
#define GRUB_MEM_UPPER 3144576u /* KiB from 1 MiB to the first hole: 0xbfee0000 / 1024 */

struct grub_layout {
    size_t acpi_tag; /* offset of the ACPI old RSDP tag in the block */
    u8 rsdp[36];
};

/* What GRUB 2.06's multiboot2 loader hands over on QEMU: tags in its order, including ones the parser skips
 * (load base address 21, boot device 5: sizes 12 and 20 are not multiples of 8, so padding is exercised). */
static void grub_block(struct mb2 *m, struct grub_layout *lay)
{
    u8 p[16];
    mb2_start(m);
    put32(p, 0x200000);
    mb2_tag(m, 21, p, 4); /* load base addr */
    mb2_string_tag(m, 1, GRUB_CMDLINE);
    mb2_string_tag(m, 2, GRUB_LOADER);
    mb2_meminfo(m, GRUB_MEM_LOWER, GRUB_MEM_UPPER);
    put32(p, 0xe0);       /* boot device: BIOS drive (CD) */
    put32(p + 4, 0xffffffff);
    put32(p + 8, 0xffffffff);
    mb2_tag(m, 5, p, 12);
    mb2_mmap(m, 24, e820, E820_N, 0);
    make_rsdp(lay->rsdp, 0);
    lay->acpi_tag = mb2_tag(m, 14, lay->rsdp, 20);
    mb2_finish(m);
}

static void test_mb2_grub(void **state)
{
    (void)state;
    struct mb2 m;
    struct grub_layout lay;
    grub_block(&m, &lay);
    struct mem mem = mem_make(INFO_OFF, m.b, m.len);
    struct boot_info bi;
    parse(&bi, MB2_LOADER_MAGIC, WIN_BASE + INFO_OFF, &mem);
    expect_no_problems(&bi);
    assert_int_equal(bi.protocol, BOOT_PROTO_MULTIBOOT2);
    assert_string_equal(boot_protocol_name(bi.protocol), "multiboot2");
    assert_int_equal(bi.info_phys, WIN_BASE + INFO_OFF);
    assert_int_equal(bi.info_size, m.len);
    assert_true(bi.has_cmdline);
    assert_string_equal(bi.cmdline, GRUB_CMDLINE);
    assert_true(bi.has_loader);
    assert_string_equal(bi.loader, GRUB_LOADER);
    assert_true(bi.has_meminfo);
    assert_int_equal(bi.mem_lower_kb, GRUB_MEM_LOWER);
    assert_int_equal(bi.mem_upper_kb, GRUB_MEM_UPPER);
    assert_int_equal(bi.mmap_count, E820_N);
    assert_false(bi.mmap_truncated);
    for (u32 i = 0; i < E820_N; i++)
        expect_region(&bi, i, e820[i].base, e820[i].length, e820[i].type);
    /* The RSDP copy sits in the tag after its 8-byte header. */
    assert_int_equal(bi.rsdp_v1_phys, WIN_BASE + INFO_OFF + lay.acpi_tag + 8);
    assert_int_equal(bi.rsdp_v1_len, 20);
    u8 copy[20];
    assert_true(phys_read(&mem.w, bi.rsdp_v1_phys, copy, sizeof(copy)));
    assert_memory_equal(copy, lay.rsdp, 20);
    assert_int_equal(bi.rsdp_v2_phys, 0);
    assert_int_equal(bi.rsdp_v2_len, 0);
    mem_free(&mem);
}

/* Window that starts exactly at the info block. */
static void test_mb2_info_at_window_base(void **state)
{
    (void)state;
    struct mb2 m;
    struct grub_layout lay;
    grub_block(&m, &lay);
    struct mem mem = mem_make(0, m.b, m.len);
    struct boot_info bi;
    parse(&bi, MB2_LOADER_MAGIC, WIN_BASE, &mem);
    expect_no_problems(&bi);
    assert_string_equal(bi.cmdline, GRUB_CMDLINE);
    assert_int_equal(bi.rsdp_v1_phys, WIN_BASE + lay.acpi_tag + 8);
    mem_free(&mem);
}

/* Framebuffer tag (spec 2.0 3.6.12) as GRUB 2.06 writes it for QEMU's std VGA at 1024x768x32: 38 bytes. */
static void test_mb2_framebuffer(void **state)
{
    (void)state;
    struct mb2 m;
    u8 p[30];
    memset(p, 0, sizeof(p));
    u64 addr = 0xfd000000;
    u32 pitch = 4096, w = 1024, h = 768;
    memcpy(p, &addr, 8);
    memcpy(p + 8, &pitch, 4);
    memcpy(p + 12, &w, 4);
    memcpy(p + 16, &h, 4);
    p[20] = 32;
    p[21] = BOOT_FB_RGB;
    const u8 rgb[6] = {16, 8, 8, 8, 0, 8};
    memcpy(p + 24, rgb, 6);
    mb2_start(&m);
    mb2_tag(&m, 8, p, 30);
    mb2_finish(&m);
    struct mem mem = mem_make(INFO_OFF, m.b, m.len);
    struct boot_info bi;
    parse(&bi, MB2_LOADER_MAGIC, WIN_BASE + INFO_OFF, &mem);
    expect_no_problems(&bi);
    assert_true(bi.has_fb);
    assert_int_equal(bi.fb.addr, 0xfd000000u);
    assert_int_equal(bi.fb.pitch, 4096);
    assert_int_equal(bi.fb.width, 1024);
    assert_int_equal(bi.fb.height, 768);
    assert_int_equal(bi.fb.bpp, 32);
    assert_int_equal(bi.fb.type, BOOT_FB_RGB);
    assert_int_equal(bi.fb.red_pos, 16);
    assert_int_equal(bi.fb.green_pos, 8);
    assert_int_equal(bi.fb.blue_pos, 0);
    assert_int_equal(bi.fb.blue_size, 8);
    mem_free(&mem);

    /* EGA text (type 2) has no colour layout: accepted, type kept, nothing to mirror onto. */
    p[21] = BOOT_FB_EGA_TEXT;
    mb2_start(&m);
    mb2_tag(&m, 8, p, 24);
    mb2_finish(&m);
    mem = mem_make(INFO_OFF, m.b, m.len);
    parse(&bi, MB2_LOADER_MAGIC, WIN_BASE + INFO_OFF, &mem);
    expect_no_problems(&bi);
    assert_true(bi.has_fb);
    assert_int_equal(bi.fb.type, BOOT_FB_EGA_TEXT);
    mem_free(&mem);

    /* Too short for the fixed part, or an RGB tag without its colour bytes: a problem, no framebuffer. */
    p[21] = BOOT_FB_RGB;
    mb2_start(&m);
    mb2_tag(&m, 8, p, 20);
    mb2_finish(&m);
    mem = mem_make(INFO_OFF, m.b, m.len);
    parse(&bi, MB2_LOADER_MAGIC, WIN_BASE + INFO_OFF, &mem);
    assert_false(bi.has_fb);
    expect_problem(&bi, "framebuffer tag of 28 bytes", NULL);
    mem_free(&mem);
    mb2_start(&m);
    mb2_tag(&m, 8, p, 26);
    mb2_finish(&m);
    mem = mem_make(INFO_OFF, m.b, m.len);
    parse(&bi, MB2_LOADER_MAGIC, WIN_BASE + INFO_OFF, &mem);
    assert_false(bi.has_fb);
    expect_problem(&bi, "colour layout", NULL);
    mem_free(&mem);
}

static void test_mb2_acpi_new_and_minimal(void **state)
{
    (void)state;
    struct mb2 m;
    u8 r1[36], r2[36];
    make_rsdp(r1, 0);
    make_rsdp(r2, 2);
    mb2_start(&m);
    size_t old_at = mb2_tag(&m, 14, r1, 20);
    size_t new_at = mb2_tag(&m, 15, r2, 36);
    mb2_finish(&m);
    struct mem mem = mem_make(INFO_OFF, m.b, m.len);
    struct boot_info bi;
    parse(&bi, MB2_LOADER_MAGIC, WIN_BASE + INFO_OFF, &mem);
    expect_no_problems(&bi);
    assert_int_equal(bi.rsdp_v1_phys, WIN_BASE + INFO_OFF + old_at + 8);
    assert_int_equal(bi.rsdp_v1_len, 20);
    assert_int_equal(bi.rsdp_v2_phys, WIN_BASE + INFO_OFF + new_at + 8);
    assert_int_equal(bi.rsdp_v2_len, 36);
    u8 copy[36];
    assert_true(phys_read(&mem.w, bi.rsdp_v2_phys, copy, 36));
    assert_memory_equal(copy, r2, 36);
    /* Nothing else was given: nothing else is claimed. */
    assert_false(bi.has_cmdline);
    assert_false(bi.has_loader);
    assert_false(bi.has_meminfo);
    assert_int_equal(bi.mmap_count, 0);
    mem_free(&mem);

    /* The smallest valid block: header and end tag, 16 bytes. */
    mb2_start(&m);
    mb2_finish(&m);
    assert_int_equal(m.len, 16);
    mem = mem_make(0, m.b, m.len);
    parse(&bi, MB2_LOADER_MAGIC, WIN_BASE, &mem);
    expect_no_problems(&bi);
    assert_int_equal(bi.info_size, 16);
    mem_free(&mem);
}

/* Parse m with the window ending exactly at `window_len` bytes of the block (default: all of it). */
static u32 parse_mb2_block(struct boot_info *bi, const struct mb2 *m, size_t window_len)
{
    struct mem mem = mem_make(INFO_OFF, m->b, window_len);
    u32 n = parse(bi, MB2_LOADER_MAGIC, WIN_BASE + INFO_OFF, &mem);
    mem_free(&mem);
    return n;
}

static void test_mb2_total_size_bad(void **state)
{
    (void)state;
    struct mb2 m;
    struct boot_info bi;
    static const u32 small[] = {0, 8, 15};
    for (size_t i = 0; i < sizeof(small) / sizeof(small[0]); i++) {
        mb2_start(&m);
        mb2_finish(&m);
        mb2_set_total(&m, small[i]);
        assert_true(parse_mb2_block(&bi, &m, m.len) >= 1);
        expect_problem(&bi, "total_size", "out of range");
        assert_int_equal(bi.info_size, 0);
    }

    /* total_size larger than the memory that holds the block. */
    struct grub_layout lay;
    grub_block(&m, &lay);
    assert_int_equal(parse_mb2_block(&bi, &m, m.len - 8), 1);
    expect_problem(&bi, "outside memory", NULL);
    assert_false(bi.has_cmdline);

    /* Huge total_size: refused before any range arithmetic. */
    static const u32 huge[] = {0xfffffff8u, 0xffffffffu, MB2_INFO_MAX + 8};
    for (size_t i = 0; i < sizeof(huge) / sizeof(huge[0]); i++) {
        grub_block(&m, &lay);
        mb2_set_total(&m, huge[i]);
        assert_int_equal(parse_mb2_block(&bi, &m, m.len), 1);
        expect_problem(&bi, "total_size", "out of range");
    }
}

static void test_mb2_tag_size_too_small(void **state)
{
    (void)state;
    static const u32 sizes[] = {0, 4, 7};
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        struct mb2 m;
        struct boot_info bi;
        char want[32];
        mb2_start(&m);
        mb2_meminfo(&m, 1, 2);
        mb2_tag_raw(&m, 1, sizes[i], "x\0\0\0\0\0\0", 8);
        mb2_finish(&m);
        parse_mb2_block(&bi, &m, m.len);
        snprintf(want, sizeof(want), "has size %u", sizes[i]);
        expect_problem(&bi, "tag type 1", want);
        expect_problem(&bi, "end tag", NULL); /* the walk stops: the end tag is never reached */
        assert_true(bi.has_meminfo);          /* tags before the bad one still count */
        assert_false(bi.has_cmdline);
    }
}

static void test_mb2_tag_runs_past_total_size(void **state)
{
    (void)state;
    struct mb2 m;
    struct boot_info bi;
    mb2_start(&m);
    mb2_tag_raw(&m, 1, 100, "abc", 4); /* claims 100 bytes; the block ends 4 bytes after the header */
    mb2_set_total(&m, (u32)m.len);     /* no end tag; window ends with the block */
    parse_mb2_block(&bi, &m, m.len);
    expect_problem(&bi, "tag type 1", "has size 100");
    expect_problem(&bi, "end tag", NULL);
    assert_false(bi.has_cmdline);

    /* Same, with an end tag after it that the bad size would skip over. */
    mb2_start(&m);
    mb2_tag_raw(&m, 6, 64, "\x18\0\0\0\0\0\0\0", 8);
    mb2_finish(&m);
    parse_mb2_block(&bi, &m, m.len);
    expect_problem(&bi, "tag type 6", "has size 64");
    assert_int_equal(bi.mmap_count, 0);
}

static void test_mb2_missing_end_tag(void **state)
{
    (void)state;
    struct mb2 m;
    struct boot_info bi;
    mb2_start(&m);
    mb2_string_tag(&m, 1, "verbose=0");
    mb2_meminfo(&m, 640, 1000);
    mb2_set_total(&m, (u32)m.len);
    assert_int_equal(parse_mb2_block(&bi, &m, m.len), 1);
    expect_problem(&bi, "no end tag", NULL);
    assert_string_equal(bi.cmdline, "verbose=0"); /* what was there is still decoded */
    assert_true(bi.has_meminfo);
}

static void test_mb2_truncated_tag_header(void **state)
{
    (void)state;
    struct mb2 m;
    struct boot_info bi;
    mb2_start(&m);
    mb2_meminfo(&m, 640, 1000);
    put32(m.b + m.len, 0); /* the first half of an end tag */
    m.len += 4;
    mb2_set_total(&m, (u32)m.len);
    parse_mb2_block(&bi, &m, m.len);
    expect_problem(&bi, "tag header", "truncated");
    expect_problem(&bi, "end tag", NULL);
    assert_true(bi.has_meminfo);
}

static void test_mb2_end_tag_stops_walk(void **state)
{
    (void)state;
    struct mb2 m;
    struct boot_info bi;
    mb2_start(&m);
    mb2_string_tag(&m, 2, "first");
    mb2_tag(&m, 0, NULL, 0);
    mb2_string_tag(&m, 1, "after the end"); /* inside total_size, but after the end tag */
    mb2_set_total(&m, (u32)m.len);
    parse_mb2_block(&bi, &m, m.len);
    expect_no_problems(&bi);
    assert_string_equal(bi.loader, "first");
    assert_false(bi.has_cmdline);
}

static void test_mb2_cmdline_not_terminated(void **state)
{
    (void)state;
    struct mb2 m;
    struct boot_info bi;
    /* Followed by an end tag: the string must not run on into the padding or the next tag. */
    mb2_start(&m);
    mb2_tag(&m, 1, "exit=qemu!", 10);
    mb2_finish(&m);
    assert_int_equal(parse_mb2_block(&bi, &m, m.len), 1);
    expect_problem(&bi, "command line", "not NUL-terminated");
    assert_false(bi.has_cmdline);
    assert_string_equal(bi.cmdline, "");

    /* At the very end of memory, without an end tag: ASan checks that nothing past it is read. */
    mb2_start(&m);
    size_t at = mb2_tag(&m, 2, "GRUB", 4);
    m.len = at + 12;
    mb2_set_total(&m, (u32)m.len);
    parse_mb2_block(&bi, &m, m.len);
    expect_problem(&bi, "boot loader name", "not NUL-terminated");
    expect_problem(&bi, "end tag", NULL);
    assert_false(bi.has_loader);

    /* An empty string tag (size 8: no byte at all) is also reported. */
    mb2_start(&m);
    mb2_tag(&m, 1, NULL, 0);
    mb2_finish(&m);
    assert_int_equal(parse_mb2_block(&bi, &m, m.len), 1);
    expect_problem(&bi, "command line", "empty");
    assert_false(bi.has_cmdline);

    /* Just a NUL: a present, empty command line. */
    mb2_start(&m);
    mb2_string_tag(&m, 1, "");
    mb2_finish(&m);
    parse_mb2_block(&bi, &m, m.len);
    expect_no_problems(&bi);
    assert_true(bi.has_cmdline);
    assert_string_equal(bi.cmdline, "");
}

static void test_mb2_long_strings(void **state)
{
    (void)state;
    static char s[1500 + 1];
    struct mb2 m;
    struct boot_info bi;
    for (size_t i = 0; i < sizeof(s) - 1; i++)
        s[i] = (char)('a' + i % 26);

    /* BOOT_CMDLINE_MAX - 1 characters fit exactly. */
    s[BOOT_CMDLINE_MAX - 1] = '\0';
    mb2_start(&m);
    mb2_string_tag(&m, 1, s);
    mb2_finish(&m);
    parse_mb2_block(&bi, &m, m.len);
    expect_no_problems(&bi);
    assert_string_equal(bi.cmdline, s);

    /* One more, and much more: truncated to the prefix, and reported. */
    static const size_t lens[] = {BOOT_CMDLINE_MAX, 1500};
    for (size_t k = 0; k < 2; k++) {
        for (size_t i = 0; i < sizeof(s) - 1; i++)
            s[i] = (char)('a' + i % 26);
        s[lens[k]] = '\0';
        mb2_start(&m);
        mb2_string_tag(&m, 1, s);
        mb2_finish(&m);
        assert_int_equal(parse_mb2_block(&bi, &m, m.len), 1);
        expect_problem(&bi, "command line", "truncated");
        assert_true(bi.has_cmdline);
        assert_int_equal(strlen(bi.cmdline), BOOT_CMDLINE_MAX - 1);
        assert_memory_equal(bi.cmdline, s, BOOT_CMDLINE_MAX - 1);
    }

    /* Loader name: its own, smaller limit. */
    s[100] = '\0';
    mb2_start(&m);
    mb2_string_tag(&m, 2, s);
    mb2_finish(&m);
    assert_int_equal(parse_mb2_block(&bi, &m, m.len), 1);
    expect_problem(&bi, "boot loader name", "truncated");
    assert_int_equal(strlen(bi.loader), BOOT_LOADER_MAX - 1);
    assert_memory_equal(bi.loader, s, BOOT_LOADER_MAX - 1);
}

static void test_mb2_mmap_bad_entry_size(void **state)
{
    (void)state;
    static const u32 sizes[] = {0, 8, 16, 20, 28, 36, 0x80000000u, 0xfffffff8u};
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        struct mb2 m;
        struct boot_info bi;
        char want[32];
        mb2_start(&m);
        mb2_mmap(&m, sizes[i], e820, 3, 0);
        mb2_finish(&m);
        parse_mb2_block(&bi, &m, m.len);
        snprintf(want, sizeof(want), "entry size %u", sizes[i]);
        if (sizes[i] >= 24 && sizes[i] % 8 == 0) {
            /* Valid by itself but larger than the tag: no entry fits, and that must not go unnoticed. */
            expect_problem(&bi, "memory map", NULL);
        } else {
            expect_problem(&bi, "memory map", want);
        }
        assert_int_equal(bi.mmap_count, 0);
    }
}

static void test_mb2_mmap_shapes(void **state)
{
    (void)state;
    struct mb2 m;
    struct boot_info bi;

    /* Tag size not a whole number of entries: the whole ones are used, the remainder reported. */
    mb2_start(&m);
    mb2_mmap(&m, 24, e820, 2, 8);
    mb2_finish(&m);
    assert_int_equal(parse_mb2_block(&bi, &m, m.len), 1);
    expect_problem(&bi, "not a whole number", NULL);
    assert_int_equal(bi.mmap_count, 2);
    expect_region(&bi, 0, e820[0].base, e820[0].length, e820[0].type);
    expect_region(&bi, 1, e820[1].base, e820[1].length, e820[1].type);

    /* Larger entries from a newer entry_version: the stride is entry_size, the fields stay first. */
    mb2_start(&m);
    mb2_mmap(&m, 40, e820, E820_N, 0);
    mb2_finish(&m);
    parse_mb2_block(&bi, &m, m.len);
    expect_no_problems(&bi);
    assert_int_equal(bi.mmap_count, E820_N);
    for (u32 i = 0; i < E820_N; i++)
        expect_region(&bi, i, e820[i].base, e820[i].length, e820[i].type);

    /* No entries at all is a valid, empty map. */
    mb2_start(&m);
    mb2_mmap(&m, 24, e820, 0, 0);
    mb2_finish(&m);
    parse_mb2_block(&bi, &m, m.len);
    expect_no_problems(&bi);
    assert_int_equal(bi.mmap_count, 0);

    /* Shorter than its own 16-byte header. */
    mb2_start(&m);
    mb2_tag(&m, 6, "\x18\0\0\0", 4);
    mb2_finish(&m);
    assert_int_equal(parse_mb2_block(&bi, &m, m.len), 1);
    expect_problem(&bi, "memory map", "16-byte header");

    /* Type values outside the spec's 1..5 are kept as given. */
    const struct mem_region odd[] = {{0x1000, 0x2000, 7}, {0x3000, 0x1000, 0xffffffffu}};
    mb2_start(&m);
    mb2_mmap(&m, 24, odd, 2, 0);
    mb2_finish(&m);
    parse_mb2_block(&bi, &m, m.len);
    expect_no_problems(&bi);
    expect_region(&bi, 0, 0x1000, 0x2000, 7);
    expect_region(&bi, 1, 0x3000, 0x1000, 0xffffffffu);
    assert_string_equal(mem_type_name(7), "other");
    assert_string_equal(mem_type_name(MEM_ACPI_NVS), "acpi-nvs");
}

/* Above 4 GiB the kernel maps a range write-back for the ACPI parser only where the memory map calls it RAM or
 * ACPI memory (kernel/paging.c): a firmware's map with ACPI tables high (Above-4G), a reserved MMIO hole and an
 * overlap. */
static void test_ram_refusal(void **state)
{
    (void)state;
    static struct boot_info bi;
    memset(&bi, 0, sizeof(bi));
    const struct mem_region map[] = {
        {0x0, 0x9f000, MEM_AVAILABLE},
        {0x100000, 0x7ff00000, MEM_AVAILABLE},
        {0xfe000000, 0x2000000, MEM_RESERVED},           /* chipset MMIO */
        {0x100000000ull, 0x37f000000ull, MEM_AVAILABLE},
        {0x47f000000ull, 0x800000, MEM_ACPI_RECLAIM},     /* the ACPI tables, high */
        {0x47f800000ull, 0x100000, MEM_ACPI_NVS},
        {0x47f900000ull, 0x700000, MEM_RESERVED},
        {0x47fc00000ull, 0x1000, MEM_AVAILABLE},          /* overlaps the reserved range: a firmware bug */
    };
    memcpy(bi.mmap, map, sizeof(map));
    bi.mmap_count = ARRAY_SIZE(map);
    assert_null(bootinfo_ram_refusal(&bi, 0x47f000000ull, 0x24));       /* the XSDT */
    assert_null(bootinfo_ram_refusal(&bi, 0x47f7ffff0ull, 0x10));       /* last bytes of the region */
    assert_null(bootinfo_ram_refusal(&bi, 0x47f800040ull, 0x40));       /* FACS in NVS */
    assert_null(bootinfo_ram_refusal(&bi, 0x200000000ull, 0x1000));     /* ordinary RAM */
    assert_non_null(strstr(bootinfo_ram_refusal(&bi, 0x47f7ffff0ull, 0x20), "not inside one")); /* spans two */
    assert_non_null(strstr(bootinfo_ram_refusal(&bi, 0x47f900000ull, 0x24), "reserved"));
    assert_non_null(strstr(bootinfo_ram_refusal(&bi, 0x47fc00000ull, 0x24), "reserved"));
    assert_non_null(strstr(bootinfo_ram_refusal(&bi, 0x4000000000ull, 0x24), "not inside one")); /* a BAR */
    bi.mmap[4].type = MEM_BAD;
    assert_non_null(strstr(bootinfo_ram_refusal(&bi, 0x47f000000ull, 0x24), "not RAM"));
}

static void test_mb2_mmap_too_many_entries(void **state)
{
    (void)state;
    enum { N = BOOT_MMAP_MAX + 6 };
    static struct mem_region many[N];
    for (u32 i = 0; i < N; i++)
        many[i] = (struct mem_region){0x100000ull * i, 0x1000 + i, 1 + i % 5};
    struct mb2 m;
    struct boot_info bi;
    mb2_start(&m);
    mb2_mmap(&m, 24, many, N, 0);
    mb2_finish(&m);
    assert_int_equal(parse_mb2_block(&bi, &m, m.len), 1); /* reported once, not once per extra entry */
    char want[32];
    snprintf(want, sizeof(want), "more than %d", BOOT_MMAP_MAX);
    expect_problem(&bi, "memory map", want);
    assert_true(bi.mmap_truncated);
    assert_int_equal(bi.mmap_count, BOOT_MMAP_MAX);
    for (u32 i = 0; i < BOOT_MMAP_MAX; i++)
        expect_region(&bi, i, many[i].base, many[i].length, many[i].type);

    /* Exactly BOOT_MMAP_MAX: all kept, nothing reported. */
    mb2_start(&m);
    mb2_mmap(&m, 24, many, BOOT_MMAP_MAX, 0);
    mb2_finish(&m);
    parse_mb2_block(&bi, &m, m.len);
    expect_no_problems(&bi);
    assert_false(bi.mmap_truncated);
    assert_int_equal(bi.mmap_count, BOOT_MMAP_MAX);
}

static void test_mb2_short_fixed_tags(void **state)
{
    (void)state;
    struct mb2 m;
    struct boot_info bi;
    u8 r[36];
    make_rsdp(r, 2);

    mb2_start(&m);
    mb2_tag(&m, 14, r, 19); /* old RSDP is 20 bytes */
    mb2_finish(&m);
    assert_int_equal(parse_mb2_block(&bi, &m, m.len), 1);
    expect_problem(&bi, "ACPI old RSDP", "needs 20");
    assert_int_equal(bi.rsdp_v1_phys, 0);

    mb2_start(&m);
    mb2_tag(&m, 15, r, 20); /* an old-size RSDP in a new-RSDP tag: 36 needed */
    mb2_finish(&m);
    assert_int_equal(parse_mb2_block(&bi, &m, m.len), 1);
    expect_problem(&bi, "ACPI new RSDP", "needs 36");
    assert_int_equal(bi.rsdp_v2_phys, 0);

    mb2_start(&m);
    mb2_tag(&m, 15, NULL, 0);
    mb2_finish(&m);
    assert_int_equal(parse_mb2_block(&bi, &m, m.len), 1);
    expect_problem(&bi, "ACPI new RSDP", "needs 36");

    mb2_start(&m);
    mb2_tag(&m, 4, "\x80\x02\0\0", 4); /* basic meminfo needs two u32 */
    mb2_finish(&m);
    assert_int_equal(parse_mb2_block(&bi, &m, m.len), 1);
    expect_problem(&bi, "basic memory", "shorter");
    assert_false(bi.has_meminfo);
}

static void test_mb2_many_problems_counted(void **state)
{
    (void)state;
    struct mb2 m;
    struct boot_info bi;
    mb2_start(&m);
    for (int i = 0; i < BOOT_PROBLEMS_MAX + 3; i++)
        mb2_tag(&m, 2, NULL, 0); /* empty loader name tags */
    mb2_finish(&m);
    assert_int_equal(parse_mb2_block(&bi, &m, m.len), BOOT_PROBLEMS_MAX + 3);
    for (int i = 0; i < BOOT_PROBLEMS_MAX; i++)
        assert_non_null(strstr(bi.problems[i], "empty"));
}

static void test_mb2_info_pointer_outside(void **state)
{
    (void)state;
    struct mb2 m;
    struct grub_layout lay;
    grub_block(&m, &lay);
    struct mem mem = mem_make(INFO_OFF, m.b, m.len);
    struct boot_info bi;
    const u64 bad[] = {0, WIN_BASE - 8, WIN_BASE + mem.w.size, WIN_BASE + mem.w.size - 4, 0xfffffffffffffff8ull,
                       0xfffffffcull};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(parse(&bi, MB2_LOADER_MAGIC, bad[i], &mem), 1);
        expect_problem(&bi, "multiboot2", "outside memory");
        assert_int_equal(bi.info_phys, bad[i]);
    }
    /* Pointing into the middle of the block: total_size there runs past the window. */
    parse(&bi, MB2_LOADER_MAGIC, WIN_BASE + INFO_OFF + m.len - 16, &mem);
    assert_true(bi.problem_count >= 1);
    mem_free(&mem);
}

static void test_mb2_unaligned(void **state)
{
    (void)state;
    struct mb2 m;
    mb2_start(&m);
    mb2_string_tag(&m, 1, "verbose=1");
    mb2_finish(&m);
    struct mem mem = mem_make(INFO_OFF + 4, m.b, m.len);
    struct boot_info bi;
    assert_int_equal(parse(&bi, MB2_LOADER_MAGIC, WIN_BASE + INFO_OFF + 4, &mem), 1);
    expect_problem(&bi, "not 8-byte aligned", NULL);
    mem_free(&mem);
}

static void test_unknown_magic(void **state)
{
    (void)state;
    struct mb2 m;
    struct grub_layout lay;
    grub_block(&m, &lay);
    struct mem mem = mem_make(INFO_OFF, m.b, m.len);
    struct boot_info bi;
    static const u32 magics[] = {0, 0x1badb002u /* the header magic, not the loader's */, 0xe85250d6u,
                                 0x0000b002u, 0xffffffffu};
    for (size_t i = 0; i < sizeof(magics) / sizeof(magics[0]); i++) {
        char want[16];
        assert_int_equal(parse(&bi, magics[i], WIN_BASE + INFO_OFF, &mem), 1);
        snprintf(want, sizeof(want), "0x%08x", magics[i]);
        expect_problem(&bi, "unknown loader magic", want);
        assert_int_equal(bi.protocol, BOOT_PROTO_UNKNOWN);
        assert_string_equal(boot_protocol_name(bi.protocol), "unknown");
        assert_false(bi.has_cmdline); /* nothing is guessed from the block */
        assert_int_equal(bi.mmap_count, 0);
    }
    mem_free(&mem);
}

/* ---------------------------------------------------------------------------------------------------- */
/* Multiboot2 fuzz-style: every truncation and every single-byte corruption of a valid GRUB block          */

static void check_bounded(const struct boot_info *bi, size_t len)
{
    /* Each tag yields at most two problems; plus alignment, truncated header and missing end tag. */
    u32 bound = (u32)(2 * (len / 8) + 4);
    if (bi->problem_count > bound) {
        dump_problems(bi);
        fail_msg("%u problems for a %zu-byte block (bound %u)", bi->problem_count, len, bound);
    }
    assert_true(bi->mmap_count <= BOOT_MMAP_MAX);
}

static void test_mb2_fuzz_truncation(void **state)
{
    (void)state;
    struct mb2 full;
    struct grub_layout lay;
    grub_block(&full, &lay);
    for (size_t len = 0; len <= full.len; len++) {
        for (int patch = 0; patch < 2; patch++) {
            struct mb2 m = full;
            if (patch && len >= 4)
                mb2_set_total(&m, (u32)len);
            struct boot_info bi;
            struct mem mem = mem_make(0, m.b, len); /* window ends where the truncated block ends */
            parse(&bi, MB2_LOADER_MAGIC, WIN_BASE, &mem);
            check_bounded(&bi, len);
            if (len < full.len && bi.problem_count == 0)
                fail_msg("block truncated to %zu of %zu bytes (total_size %s) parsed without a problem", len,
                         full.len, patch ? "patched" : "kept");
            if (len == full.len)
                expect_no_problems(&bi);
            mem_free(&mem);
        }
    }
}

static void test_mb2_fuzz_corruption(void **state)
{
    (void)state;
    struct mb2 full;
    struct grub_layout lay;
    grub_block(&full, &lay);
    static const u8 values[] = {0x00, 0xff, 0x07, 0x80};
    for (size_t at = 0; at < full.len; at++) {
        for (size_t v = 0; v < sizeof(values); v++) {
            struct mb2 m = full;
            m.b[at] = values[v];
            struct boot_info bi;
            struct mem mem = mem_make(INFO_OFF, m.b, m.len);
            parse(&bi, MB2_LOADER_MAGIC, WIN_BASE + INFO_OFF, &mem);
            check_bounded(&bi, m.len);
            mem_free(&mem);
        }
    }
}

/* ---------------------------------------------------------------------------------------------------- */
/* Multiboot1 (spec 0.6.96 3.3)                                                                            */

/* Offsets in the Multiboot1 information structure. */
enum {
    MB1_FLAGS = 0,
    MB1_MEM_LOWER = 4,
    MB1_MEM_UPPER = 8,
    MB1_BOOT_DEVICE = 12,
    MB1_CMDLINE = 16,
    MB1_MODS_COUNT = 20,
    MB1_MODS_ADDR = 24,
    MB1_MMAP_LENGTH = 44,
    MB1_MMAP_ADDR = 48,
    MB1_LOADER = 64,
    MB1_INFO_SIZE = 88 /* through the VBE fields, as QEMU allocates it */
};

/* Layout of a test's memory: info at INFO_OFF, strings and map after it; the window ends with the map. */
#define MB1_CMDLINE_OFF (INFO_OFF + 0x80)
#define MB1_LOADER_OFF (INFO_OFF + 0x180)
#define MB1_MMAP_OFF (INFO_OFF + 0x200)

struct mb1 {
    u8 b[8192];
    size_t len; /* bytes of the window */
};

#define QEMU_CMDLINE "/x/build/pmuboot.elf exit=qemu"
#define QEMU_MEM_LOWER 640u    /* QEMU hw/i386/multiboot.c: fixed 640 */
#define QEMU_MEM_UPPER 130048u /* 128 MiB - 1 MiB, in KiB */

/* SeaBIOS's E820 map for `qemu -m 128M`. */
static const struct mem_region e820_128m[] = {
    {0x0, 0x9fc00, MEM_AVAILABLE},
    {0x9fc00, 0x400, MEM_RESERVED},
    {0xf0000, 0x10000, MEM_RESERVED},
    {0x100000, 0x7ee0000, MEM_AVAILABLE},
    {0x7fe0000, 0x20000, MEM_RESERVED},
    {0xfffc0000, 0x40000, MEM_RESERVED},
};
#define E820_128M_N ((u32)(sizeof(e820_128m) / sizeof(e820_128m[0])))

static u32 phys32(size_t off)
{
    return (u32)(WIN_BASE + off);
}

/* Map entries {u32 size, u64 base, u64 length, u32 type}; `size` excludes itself; n entries at `off`. */
static size_t mb1_put_mmap(struct mb1 *m, size_t off, u32 entry_size, const struct mem_region *r, u32 n)
{
    size_t p = off;
    for (u32 i = 0; i < n; i++) {
        assert_true(p + 4 + entry_size <= sizeof(m->b));
        memset(m->b + p, 0, 4 + entry_size);
        put32(m->b + p, entry_size);
        put64(m->b + p + 4, r[i].base);
        put64(m->b + p + 12, r[i].length);
        put32(m->b + p + 20, r[i].type);
        p += 4 + entry_size;
    }
    return p - off;
}

/* What QEMU 7.2's -kernel multiboot loader builds (hw/i386/multiboot.c; map from the option ROM's E820). */
static void qemu_block(struct mb1 *m)
{
    memset(m->b, 0, sizeof(m->b));
    memset(m->b, 0xcc, INFO_OFF);
    /* mem, boot_device, cmdline, mods, mmap, boot_loader_name */
    put32(m->b + INFO_OFF + MB1_FLAGS, (1u << 0) | (1u << 1) | (1u << 2) | (1u << 3) | (1u << 6) | (1u << 9));
    put32(m->b + INFO_OFF + MB1_MEM_LOWER, QEMU_MEM_LOWER);
    put32(m->b + INFO_OFF + MB1_MEM_UPPER, QEMU_MEM_UPPER);
    put32(m->b + INFO_OFF + MB1_BOOT_DEVICE, 0x8000ffffu);
    put32(m->b + INFO_OFF + MB1_CMDLINE, phys32(MB1_CMDLINE_OFF));
    put32(m->b + INFO_OFF + MB1_MODS_COUNT, 0);
    put32(m->b + INFO_OFF + MB1_MODS_ADDR, phys32(MB1_LOADER_OFF + 0x40));
    memcpy(m->b + MB1_CMDLINE_OFF, QEMU_CMDLINE, sizeof(QEMU_CMDLINE));
    memcpy(m->b + MB1_LOADER_OFF, "qemu", 5);
    put32(m->b + INFO_OFF + MB1_LOADER, phys32(MB1_LOADER_OFF));
    size_t n = mb1_put_mmap(m, MB1_MMAP_OFF, 20, e820_128m, E820_128M_N);
    put32(m->b + INFO_OFF + MB1_MMAP_LENGTH, (u32)n);
    put32(m->b + INFO_OFF + MB1_MMAP_ADDR, phys32(MB1_MMAP_OFF));
    m->len = MB1_MMAP_OFF + n;
}

static void mb1_set(struct mb1 *m, size_t field, u32 v)
{
    put32(m->b + INFO_OFF + field, v);
}

static u32 mb1_get(const struct mb1 *m, size_t field)
{
    u32 v;
    memcpy(&v, m->b + INFO_OFF + field, 4);
    return v;
}

static u32 parse_mb1_block(struct boot_info *bi, const struct mb1 *m)
{
    struct mem mem = mem_make(0, m->b, m->len);
    u32 n = parse(bi, MB1_LOADER_MAGIC, WIN_BASE + INFO_OFF, &mem);
    mem_free(&mem);
    return n;
}

static void test_mb1_qemu(void **state)
{
    (void)state;
    struct mb1 m;
    struct boot_info bi;
    qemu_block(&m);
    parse_mb1_block(&bi, &m);
    expect_no_problems(&bi);
    assert_int_equal(bi.protocol, BOOT_PROTO_MULTIBOOT1);
    assert_string_equal(boot_protocol_name(bi.protocol), "multiboot1");
    assert_int_equal(bi.info_phys, WIN_BASE + INFO_OFF);
    assert_true(bi.info_size >= 68 && bi.info_size <= MB1_INFO_SIZE); /* at least through boot_loader_name */
    assert_true(bi.has_meminfo);
    assert_int_equal(bi.mem_lower_kb, QEMU_MEM_LOWER);
    assert_int_equal(bi.mem_upper_kb, QEMU_MEM_UPPER);
    assert_true(bi.has_cmdline);
    assert_string_equal(bi.cmdline, QEMU_CMDLINE);
    assert_true(bi.has_loader);
    assert_string_equal(bi.loader, "qemu");
    assert_int_equal(bi.mmap_count, E820_128M_N);
    assert_false(bi.mmap_truncated);
    for (u32 i = 0; i < E820_128M_N; i++)
        expect_region(&bi, i, e820_128m[i].base, e820_128m[i].length, e820_128m[i].type);
    assert_int_equal(bi.rsdp_v1_phys, 0); /* Multiboot1 has no RSDP */
    assert_int_equal(bi.rsdp_v2_phys, 0);
}

static void test_mb1_flags_clear(void **state)
{
    (void)state;
    struct mb1 m;
    struct boot_info bi;
    qemu_block(&m);
    /* Fields whose flag is clear are not valid: poison them and check none is used. */
    mb1_set(&m, MB1_FLAGS, 0);
    mb1_set(&m, MB1_CMDLINE, 0xfffffff0u);
    mb1_set(&m, MB1_LOADER, 0xfffffff0u);
    mb1_set(&m, MB1_MMAP_ADDR, 0xfffffff0u);
    mb1_set(&m, MB1_MMAP_LENGTH, 0xffffffffu);
    parse_mb1_block(&bi, &m);
    expect_no_problems(&bi);
    assert_int_equal(bi.protocol, BOOT_PROTO_MULTIBOOT1);
    assert_false(bi.has_meminfo);
    assert_int_equal(bi.mem_lower_kb, 0);
    assert_int_equal(bi.mem_upper_kb, 0);
    assert_false(bi.has_cmdline);
    assert_false(bi.has_loader);
    assert_int_equal(bi.mmap_count, 0);

    /* One flag at a time. */
    static const struct {
        u32 flag;
        bool mem, cmd, map, loader;
    } one[] = {
        {1u << 0, true, false, false, false},
        {1u << 2, false, true, false, false},
        {1u << 6, false, false, true, false},
        {1u << 9, false, false, false, true},
    };
    for (size_t i = 0; i < sizeof(one) / sizeof(one[0]); i++) {
        qemu_block(&m);
        mb1_set(&m, MB1_FLAGS, one[i].flag);
        parse_mb1_block(&bi, &m);
        expect_no_problems(&bi);
        assert_int_equal(bi.has_meminfo, one[i].mem);
        assert_int_equal(bi.has_cmdline, one[i].cmd);
        assert_int_equal(bi.mmap_count, one[i].map ? E820_128M_N : 0);
        assert_int_equal(bi.has_loader, one[i].loader);
    }
}

static void test_mb1_info_outside(void **state)
{
    (void)state;
    struct mb1 m;
    qemu_block(&m);
    struct mem mem = mem_make(0, m.b, m.len);
    struct boot_info bi;
    const u64 bad[] = {0, WIN_BASE - 4, WIN_BASE + m.len - 60 /* the 68-byte fixed part overhangs */,
                       WIN_BASE + m.len, 0xffffffffffffffc0ull};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(parse(&bi, MB1_LOADER_MAGIC, bad[i], &mem), 1);
        expect_problem(&bi, "multiboot1", "outside memory");
        assert_false(bi.has_meminfo);
    }
    mem_free(&mem);
}

static void test_mb1_cmdline_bad(void **state)
{
    (void)state;
    struct mb1 m;
    struct boot_info bi;

    static const u32 outside[] = {0, (u32)WIN_BASE - 1, 0xffffffffu};
    for (size_t i = 0; i < sizeof(outside) / sizeof(outside[0]); i++) {
        qemu_block(&m);
        mb1_set(&m, MB1_CMDLINE, outside[i]);
        assert_int_equal(parse_mb1_block(&bi, &m), 1);
        expect_problem(&bi, "command line", "outside memory");
        assert_false(bi.has_cmdline);
        assert_string_equal(bi.loader, "qemu"); /* the rest is still read */
        assert_int_equal(bi.mmap_count, E820_128M_N);
    }

    /* Unterminated, running into the window's end. */
    qemu_block(&m);
    memcpy(m.b + m.len, "exit=qemu", 9);
    mb1_set(&m, MB1_CMDLINE, phys32(m.len));
    m.len += 9;
    assert_int_equal(parse_mb1_block(&bi, &m), 1);
    expect_problem(&bi, "command line", "unterminated");
    assert_false(bi.has_cmdline);
    assert_string_equal(bi.cmdline, "");

    /* Longer than BOOT_CMDLINE_MAX: prefix kept, reported. */
    qemu_block(&m);
    size_t at = m.len;
    memset(m.b + at, 'v', 2000);
    m.b[at + 2000] = '\0';
    m.len = at + 2001;
    mb1_set(&m, MB1_CMDLINE, phys32(at));
    assert_int_equal(parse_mb1_block(&bi, &m), 1);
    expect_problem(&bi, "command line", "truncated");
    assert_true(bi.has_cmdline);
    assert_int_equal(strlen(bi.cmdline), BOOT_CMDLINE_MAX - 1);

    /* Loader name: outside, and too long. */
    qemu_block(&m);
    mb1_set(&m, MB1_LOADER, 0x10u);
    assert_int_equal(parse_mb1_block(&bi, &m), 1);
    expect_problem(&bi, "boot loader name", "outside memory");
    assert_false(bi.has_loader);
    qemu_block(&m);
    memset(m.b + MB1_LOADER_OFF, 'L', 100);
    m.b[MB1_LOADER_OFF + 100] = '\0';
    assert_int_equal(parse_mb1_block(&bi, &m), 1);
    expect_problem(&bi, "boot loader name", "truncated");
    assert_int_equal(strlen(bi.loader), BOOT_LOADER_MAX - 1);
}

static void test_mb1_mmap_outside(void **state)
{
    (void)state;
    struct mb1 m;
    struct boot_info bi;
    const u32 addrs[] = {0, (u32)WIN_BASE - 8, phys32(MB1_MMAP_OFF + 8) /* overhangs the end by 8 */,
                         0xfffffff0u /* addr + length passes 2^32 */};
    for (size_t i = 0; i < sizeof(addrs) / sizeof(addrs[0]); i++) {
        qemu_block(&m);
        mb1_set(&m, MB1_MMAP_ADDR, addrs[i]);
        assert_int_equal(parse_mb1_block(&bi, &m), 1);
        expect_problem(&bi, "memory map", "outside memory");
        assert_int_equal(bi.mmap_count, 0);
    }
    /* mmap_length one byte longer than the memory holding the map. */
    qemu_block(&m);
    mb1_set(&m, MB1_MMAP_LENGTH, mb1_get(&m, MB1_MMAP_LENGTH) + 1);
    assert_int_equal(parse_mb1_block(&bi, &m), 1);
    expect_problem(&bi, "memory map", "outside memory");
}

static void test_mb1_mmap_huge_length(void **state)
{
    (void)state;
    struct mb1 m;
    struct boot_info bi;
    static const u32 lens[] = {0xffffffffu, 0x80000000u, 0x10000000u};
    for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
        qemu_block(&m);
        mb1_set(&m, MB1_MMAP_LENGTH, lens[i]);
        assert_int_equal(parse_mb1_block(&bi, &m), 1);
        expect_problem(&bi, "memory map", NULL);
        assert_int_equal(bi.mmap_count, 0);
    }
}

static void test_mb1_mmap_entry_sizes(void **state)
{
    (void)state;
    struct mb1 m;
    struct boot_info bi;
    static const u32 small[] = {0, 16, 19};
    for (size_t i = 0; i < sizeof(small) / sizeof(small[0]); i++) {
        char want[16];
        qemu_block(&m);
        put32(m.b + MB1_MMAP_OFF + 24, small[i]); /* the second entry's size */
        assert_int_equal(parse_mb1_block(&bi, &m), 1);
        snprintf(want, sizeof(want), "size %u", small[i]);
        expect_problem(&bi, "memory map entry", want);
        assert_int_equal(bi.mmap_count, 1);
        expect_region(&bi, 0, e820_128m[0].base, e820_128m[0].length, e820_128m[0].type);
    }

    /* Larger entries (size 24, e.g. with ACPI 3.0 extended attributes): the next entry is at size + 4. */
    qemu_block(&m);
    size_t n = mb1_put_mmap(&m, MB1_MMAP_OFF, 24, e820_128m, E820_128M_N);
    mb1_set(&m, MB1_MMAP_LENGTH, (u32)n);
    m.len = MB1_MMAP_OFF + n;
    parse_mb1_block(&bi, &m);
    expect_no_problems(&bi);
    assert_int_equal(bi.mmap_count, E820_128M_N);
    for (u32 i = 0; i < E820_128M_N; i++)
        expect_region(&bi, i, e820_128m[i].base, e820_128m[i].length, e820_128m[i].type);

    /* mmap_length 0 with the flag set: an empty map. */
    qemu_block(&m);
    mb1_set(&m, MB1_MMAP_LENGTH, 0);
    parse_mb1_block(&bi, &m);
    expect_no_problems(&bi);
    assert_int_equal(bi.mmap_count, 0);
}

static void test_mb1_mmap_truncated(void **state)
{
    (void)state;
    struct mb1 m;
    struct boot_info bi;
    /* mmap_length cuts the last entry: 10 bytes of it, then 20 of its 24. */
    static const u32 cut[] = {14, 4};
    for (size_t i = 0; i < sizeof(cut) / sizeof(cut[0]); i++) {
        qemu_block(&m);
        u32 len = mb1_get(&m, MB1_MMAP_LENGTH) - cut[i];
        mb1_set(&m, MB1_MMAP_LENGTH, len);
        m.len = MB1_MMAP_OFF + len; /* memory ends with the map */
        assert_int_equal(parse_mb1_block(&bi, &m), 1);
        expect_problem(&bi, "memory map entry", "truncated");
        assert_int_equal(bi.mmap_count, E820_128M_N - 1);
    }

    /* An entry whose own size runs past mmap_length although its first 24 bytes fit. */
    qemu_block(&m);
    size_t n = mb1_put_mmap(&m, MB1_MMAP_OFF, 28, e820_128m, 2); /* 32-byte entries */
    mb1_set(&m, MB1_MMAP_LENGTH, (u32)(n - 8));
    m.len = MB1_MMAP_OFF + n - 8;
    assert_int_equal(parse_mb1_block(&bi, &m), 1);
    expect_problem(&bi, "memory map entry", "truncated");
    assert_int_equal(bi.mmap_count, 1);
}

static void test_mb1_mmap_too_many(void **state)
{
    (void)state;
    enum { N = BOOT_MMAP_MAX + 3 };
    static struct mem_region many[N];
    for (u32 i = 0; i < N; i++)
        many[i] = (struct mem_region){0x200000ull * i, 0x100000, MEM_AVAILABLE};
    struct mb1 m;
    struct boot_info bi;
    qemu_block(&m);
    size_t n = mb1_put_mmap(&m, MB1_MMAP_OFF, 20, many, N);
    mb1_set(&m, MB1_MMAP_LENGTH, (u32)n);
    m.len = MB1_MMAP_OFF + n;
    assert_int_equal(parse_mb1_block(&bi, &m), 1);
    expect_problem(&bi, "memory map", "more than");
    assert_true(bi.mmap_truncated);
    assert_int_equal(bi.mmap_count, BOOT_MMAP_MAX);
    expect_region(&bi, BOOT_MMAP_MAX - 1, many[BOOT_MMAP_MAX - 1].base, 0x100000, MEM_AVAILABLE);
}

static void test_mb1_fuzz_corruption(void **state)
{
    (void)state;
    struct mb1 full;
    qemu_block(&full);
    static const u8 values[] = {0x00, 0xff, 0x13};
    /* Every byte of the fixed part and the map (the strings only hold characters). */
    for (size_t at = INFO_OFF; at < full.len; at++) {
        if (at >= INFO_OFF + MB1_INFO_SIZE && at < MB1_MMAP_OFF)
            continue;
        for (size_t v = 0; v < sizeof(values); v++) {
            struct mb1 m = full;
            m.b[at] = values[v];
            struct boot_info bi;
            parse_mb1_block(&bi, &m);
            assert_true(bi.problem_count <= 4);
        }
    }
    /* Every truncation of memory: the map is last, so every cut is a cut of it or of the info. */
    for (size_t len = 0; len < full.len; len++) {
        struct mb1 m = full;
        m.len = len;
        struct boot_info bi;
        assert_true(parse_mb1_block(&bi, &m) >= 1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mb2_grub),
        cmocka_unit_test(test_mb2_info_at_window_base),
        cmocka_unit_test(test_mb2_acpi_new_and_minimal),
        cmocka_unit_test(test_mb2_total_size_bad),
        cmocka_unit_test(test_mb2_tag_size_too_small),
        cmocka_unit_test(test_mb2_tag_runs_past_total_size),
        cmocka_unit_test(test_mb2_missing_end_tag),
        cmocka_unit_test(test_mb2_truncated_tag_header),
        cmocka_unit_test(test_mb2_end_tag_stops_walk),
        cmocka_unit_test(test_mb2_cmdline_not_terminated),
        cmocka_unit_test(test_mb2_long_strings),
        cmocka_unit_test(test_mb2_mmap_bad_entry_size),
        cmocka_unit_test(test_mb2_mmap_shapes),
        cmocka_unit_test(test_mb2_mmap_too_many_entries),
        cmocka_unit_test(test_mb2_short_fixed_tags),
        cmocka_unit_test(test_mb2_many_problems_counted),
        cmocka_unit_test(test_mb2_info_pointer_outside),
        cmocka_unit_test(test_mb2_unaligned),
        cmocka_unit_test(test_unknown_magic),
        cmocka_unit_test(test_mb2_fuzz_truncation),
        cmocka_unit_test(test_mb2_fuzz_corruption),
        cmocka_unit_test(test_mb1_qemu),
        cmocka_unit_test(test_mb1_flags_clear),
        cmocka_unit_test(test_mb1_info_outside),
        cmocka_unit_test(test_mb1_cmdline_bad),
        cmocka_unit_test(test_mb1_mmap_outside),
        cmocka_unit_test(test_mb1_mmap_huge_length),
        cmocka_unit_test(test_mb1_mmap_entry_sizes),
        cmocka_unit_test(test_mb1_mmap_truncated),
        cmocka_unit_test(test_mb1_mmap_too_many),
        cmocka_unit_test(test_mb1_fuzz_corruption),
        cmocka_unit_test(test_mb2_framebuffer),
        cmocka_unit_test(test_ram_refusal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
