/* pt_map (lib/pt_map.c): identity mappings above 4 GiB added to page tables shaped like boot/entry.asm's
 * (PML4[0] -> one PDPT -> four PDs of 2 MiB pages for 0-4 GiB). The tables live in a pool of host memory that
 * stands for physical pages; "physical address" of table i is POOL_PHYS + i * 4096. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "lib/pt_map.h"

#define POOL_PHYS 0x200000ull
#define POOL_PAGES 32
#define US (1ull << 2)

struct pool {
    u64 (*pages)[512];
    u32 used, limit;
};

static u64 pool_alloc(void *ctx)
{
    struct pool *p = ctx;
    if (p->used >= p->limit)
        return 0;
    memset(p->pages[p->used], 0, 4096);
    return POOL_PHYS + 4096ull * p->used++;
}

static u64 *pool_table(void *ctx, u64 phys)
{
    struct pool *p = ctx;
    assert_true(phys >= POOL_PHYS && phys < POOL_PHYS + 4096ull * p->used && phys % 4096 == 0);
    return p->pages[(phys - POOL_PHYS) / 4096];
}

static struct pool pool;
static struct pt_ops ops;
static u64 pml4;

/* boot/entry.asm's map: 0-4 GiB in 2 MiB pages, 0xFE000000 and up PCD|PWT, every level U/S. */
static int setup(void **state)
{
    (void)state;
    pool.pages = calloc(POOL_PAGES, 4096);
    assert_non_null(pool.pages);
    pool.used = 0;
    pool.limit = POOL_PAGES;
    ops = (struct pt_ops){&pool, pool_alloc, pool_table};
    pml4 = pool_alloc(&pool);
    u64 pdpt = pool_alloc(&pool);
    pool_table(&pool, pml4)[0] = pdpt | PT_P | PT_RW | US;
    for (u32 g = 0; g < 4; g++) {
        u64 pd = pool_alloc(&pool);
        pool_table(&pool, pdpt)[g] = pd | PT_P | PT_RW | US;
        for (u32 i = 0; i < 512; i++) {
            u64 pa = ((u64)g << 30) | ((u64)i << 21);
            u64 cache = pa >= 0xFE000000ull ? PT_PCD | PT_PWT : 0;
            pool_table(&pool, pd)[i] = pa | PT_P | PT_RW | US | PT_PS | cache;
        }
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    free(pool.pages);
    return 0;
}

static void test_refusal(void **state)
{
    (void)state;
    assert_null(pt_map_refusal(0x4000000000ull, 0x300000, 46));
    assert_null(pt_map_refusal((1ull << 46) - 0x1000, 0x1000, 46)); /* ends exactly at 2^MAXPHYADDR */
    assert_non_null(strstr(pt_map_refusal(1ull << 46, 0x1000, 46), "MAXPHYADDR"));
    assert_non_null(strstr(pt_map_refusal((1ull << 46) - 0x1000, 0x1001, 46), "MAXPHYADDR"));
    assert_null(pt_map_refusal((1ull << 47) - 0x1000, 0x1000, 52));
    assert_non_null(strstr(pt_map_refusal(1ull << 47, 0x1000, 52), "2^47"));
    assert_non_null(strstr(pt_map_refusal(0x4000000000ull, 0, 46), "empty"));
    assert_non_null(strstr(pt_map_refusal(~0ull - 0xff, 0x200, 64), "wrapping"));
}

/* A GOP framebuffer at 256 GiB (a 64-bit BAR above 4 GiB), 1920x1080x4 bytes (7.9 MiB): four 2 MiB pages, uncached-minus. */
static void test_map_framebuffer_high(void **state)
{
    (void)state;
    const u64 fb = 0x4000000000ull, len = 1920ull * 4 * 1080;
    assert_int_equal(pt_translate(&ops, pml4, fb, NULL), ~0ull);
    u32 before = pool.used;
    assert_null(pt_map_identity(&ops, pml4, fb, len, PT_P | PT_RW | PT_PCD, 46));
    assert_int_equal(pool.used, before + 1); /* one PD under the existing PDPT (256 GiB is still PML4[0]) */
    for (u64 off = 0; off < len; off += 0x1000) {
        u64 leaf = 0;
        assert_int_equal(pt_translate(&ops, pml4, fb + off, &leaf), fb + off);
        assert_true(leaf & PT_PS);
        assert_int_equal(leaf & (PT_PCD | PT_PWT), PT_PCD);
    }
    assert_int_equal(pt_translate(&ops, pml4, fb + 0x800000, NULL), ~0ull); /* nothing past the fourth page */
    assert_null(pt_map_identity(&ops, pml4, fb, len, PT_P | PT_RW, 46)); /* again: nothing changes */
    assert_int_equal(pool.used, before + 1);
    u64 leaf = 0;
    pt_translate(&ops, pml4, fb, &leaf);
    assert_int_equal(leaf & PT_PCD, PT_PCD);
}

/* An XSDT entry pointing above 512 GiB: a new PDPT under a new PML4 entry; the low 4 GiB untouched. */
static void test_map_above_512g_keeps_low_map(void **state)
{
    (void)state;
    const u64 table = 0x8000123400ull; /* 512 GiB + 0x123400 */
    assert_null(pt_map_identity(&ops, pml4, table, 0x24, PT_P | PT_RW, 48));
    assert_int_equal(pt_translate(&ops, pml4, table, NULL), table);
    assert_int_equal(pt_translate(&ops, pml4, table + 0x24, NULL), table + 0x24);
    assert_true(pool_table(&pool, pml4)[1] & PT_P);
    u64 leaf = 0;
    assert_int_equal(pt_translate(&ops, pml4, 0xFEE00000ull, &leaf), 0xFEE00000ull);
    assert_int_equal(leaf & (PT_PCD | PT_PWT), PT_PCD | PT_PWT);
    assert_int_equal(pt_translate(&ops, pml4, 0x100000, &leaf), 0x100000);
    assert_int_equal(leaf & (PT_PCD | PT_PWT), 0);
}

/* A range straddling 4 GiB: the low part is the boot map's own (kept as it is), the rest is added. */
static void test_straddles_4g(void **state)
{
    (void)state;
    u64 leaf = 0;
    assert_null(pt_map_identity(&ops, pml4, 0xFFF00000ull, 0x400000, PT_P | PT_RW, 46));
    pt_translate(&ops, pml4, 0xFFF00000ull, &leaf);
    assert_int_equal(leaf & (PT_PCD | PT_PWT), PT_PCD | PT_PWT); /* entry.asm's uncached top page, kept */
    assert_int_equal(pt_translate(&ops, pml4, 0x100000000ull, NULL), 0x100000000ull);
    assert_int_equal(pt_translate(&ops, pml4, 0x1002FFFFFull, NULL), 0x1002FFFFFull);
}

/* Out of table memory: why, and what was mapped before stays correct. */
static void test_no_tables_left(void **state)
{
    (void)state;
    pool.limit = pool.used;
    assert_non_null(strstr(pt_map_identity(&ops, pml4, 0x4000000000ull, 0x1000, PT_P | PT_RW, 46), "no memory"));
    assert_int_equal(pt_translate(&ops, pml4, 0x4000000000ull, NULL), ~0ull);
    pool.limit = pool.used + 1; /* a PD, but a new PDPT would be needed too for 512 GiB and up */
    assert_non_null(pt_map_identity(&ops, pml4, 0x8000000000ull, 0x1000, PT_P | PT_RW, 46));
    assert_int_equal(pt_translate(&ops, pml4, 0x8000000000ull, NULL), ~0ull);
}

/* A 1 GiB page already there counts as mapped and is not split. */
static void test_1g_page_kept(void **state)
{
    (void)state;
    u64 pdpt = pool_table(&pool, pml4)[0] & 0x000FFFFFFFFFF000ull;
    pool_table(&pool, pdpt)[5] = (5ull << 30) | PT_P | PT_RW | PT_PS;
    u32 before = pool.used;
    assert_null(pt_map_identity(&ops, pml4, 5ull << 30, 0x400000, PT_P | PT_RW | PT_PCD, 46));
    assert_int_equal(pool.used, before);
    assert_int_equal(pt_translate(&ops, pml4, (5ull << 30) + 0x12345, NULL), (5ull << 30) + 0x12345);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refusal),
        cmocka_unit_test_setup_teardown(test_map_framebuffer_high, setup, teardown),
        cmocka_unit_test_setup_teardown(test_map_above_512g_keeps_low_map, setup, teardown),
        cmocka_unit_test_setup_teardown(test_straddles_4g, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_tables_left, setup, teardown),
        cmocka_unit_test_setup_teardown(test_1g_page_kept, setup, teardown),
    };
    return cmocka_run_group_tests_name("pt_map", tests, NULL, NULL);
}
