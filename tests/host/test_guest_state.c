/* lib/guest_state over the GDTs of the built image (build/pmuboot.elf, or $PMUBOOT_IMAGE): every segment state
 * each of pmuboot's paths loads, from its first protected-mode instruction on, passes the checks VM entry makes
 * with "unrestricted guest" 0 (SDM Vol.3C 27.3.1.2), so a hypervisor needs no instruction emulator to run it;
 * and a descriptor made invalid on purpose is caught. The GDT bytes are the image's own: the boot GDT of
 * boot/entry.asm (boot_gdt64, its size from boot_gdt64_ptr) and the per-CPU template of kernel/percpu.c
 * (gdt_template) with the TSS descriptor lib/guest_state.c encodes for it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "kernel/percpu.h" /* SEL_KCODE, SEL_KDATA, SEL_UCODE, SEL_UDATA, SEL_TSS, struct tss64 */
#include "lib/guest_state.h"
#include "tests/host/support/elf_image.h"

#define BOOT_CODE64 0x08 /* boot/entry.asm boot_gdt64 */
#define BOOT_DATA 0x10
#define BOOT_CODE32 0x18
#define TRAMP_SEG 0x0800 /* a real-mode segment of the trampoline page (any page below 1 MiB) */
#define GDT_MAX 16

static struct elf_image *img;
static u64 boot_gdt[GDT_MAX], cpu_gdt[GDT_MAX];
static u32 boot_n, cpu_n;

static int setup(void **state)
{
    (void)state;
    img = elf_image_load();
    if (!img)
        return -1;
    size_t size = 0;
    const u8 *ptr = elf_image_symbol(img, "boot_gdt64_ptr", NULL);
    const void *gdt = elf_image_symbol(img, "boot_gdt64", NULL);
    const void *tmpl = elf_image_symbol(img, "gdt_template", &size);
    if (!ptr || !gdt || !tmpl) {
        fprintf(stderr, "test_guest_state: %s lacks boot_gdt64_ptr, boot_gdt64 or gdt_template\n",
                elf_image_path(img));
        return -1;
    }
    u16 limit;
    memcpy(&limit, ptr, 2);
    boot_n = (limit + 1u) / 8;
    cpu_n = (u32)(size / 8);
    if (boot_n < 4 || boot_n > GDT_MAX || cpu_n < 5 || cpu_n + 2 > GDT_MAX) {
        fprintf(stderr, "test_guest_state: boot GDT of %u entries, per-CPU template of %u: not what the test knows\n",
                boot_n, cpu_n);
        return -1;
    }
    memcpy(boot_gdt, gdt, boot_n * 8);
    memcpy(cpu_gdt, tmpl, cpu_n * 8);
    /* kernel/percpu.c cpu_local_load: the TSS descriptor at SEL_TSS, a 64-bit base like the kernel's. */
    assert_int_equal(SEL_TSS >> 3, cpu_n);
    tss64_descriptor(&cpu_gdt[cpu_n], 0x21ECE0, sizeof(struct tss64) - 1);
    cpu_n += 2;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    elf_image_free(img);
    return 0;
}

static struct seg_state load(const u64 *gdt, u32 n, u16 sel, bool ia32e)
{
    struct seg_state s;
    assert_true(seg_load(gdt, n, sel, ia32e, &s));
    return s;
}

static void reset_all(struct guest_segs *g)
{
    memset(g, 0, sizeof(*g));
    for (int i = 0; i < GSEG_N; i++)
        g->s[i] = seg_after_reset((enum guest_seg)i);
    g->pe = true;
}

/* What LTR does to the TSS descriptor's type: available (9) to busy (11) (SDM Vol.2A LTR). */
static struct seg_state ltr(const u64 *gdt, u32 n, u16 sel)
{
    struct seg_state s = load(gdt, n, sel, true);
    s.ar |= 2;
    return s;
}

/* The states pmuboot's paths load, each from the image's own descriptors. */
static void bsp_long_entry(struct guest_segs *g, const u64 *gdt, u32 n)
{
    /* boot/entry.asm: far JMP to 0x08, LOAD_DATA_SEGMENTS (boot/long_mode.inc); TR and LDTR as the loader or
     * RESET left them (pmuboot loads neither before cpu_local_load). */
    reset_all(g);
    g->ia32e = true;
    g->s[GSEG_CS] = load(gdt, n, BOOT_CODE64, true);
    g->s[GSEG_SS] = g->s[GSEG_DS] = g->s[GSEG_ES] = load(gdt, n, BOOT_DATA, true);
    g->s[GSEG_FS] = g->s[GSEG_GS] = load(gdt, n, 0, true);
}

static void ap_entry32_first(struct guest_segs *g, const u64 *gdt, u32 n)
{
    /* boot/ap_trampoline.asm after `jmp dword 0x18:ap_entry32`: DS = CS of the real-mode trampoline (loaded
     * in real mode: base = selector << 4, the INIT access rights kept), the rest as INIT left them. */
    reset_all(g);
    g->s[GSEG_CS] = load(gdt, n, BOOT_CODE32, false);
    g->s[GSEG_DS].sel = TRAMP_SEG;
    g->s[GSEG_DS].base = (u64)TRAMP_SEG << 4;
}

static void ap_entry32_loaded(struct guest_segs *g, const u64 *gdt, u32 n)
{
    ap_entry32_first(g, gdt, n);
    g->s[GSEG_SS] = g->s[GSEG_DS] = g->s[GSEG_ES] = load(gdt, n, BOOT_DATA, false);
}

static void ap_compat_mode(struct guest_segs *g, const u64 *gdt, u32 n)
{
    /* After ENABLE_LONG_MODE (EFER.LMA = 1), before the far JMP to 0x08: compatibility mode. */
    ap_entry32_loaded(g, gdt, n);
    g->ia32e = true;
}

static void kernel_cpu_local(struct guest_segs *g, const u64 *gdt, u32 n)
{
    /* kernel/percpu.c cpu_local_load: LGDT, LRETQ to SEL_KCODE, SEL_KDATA in DS/ES/SS, LTR SEL_TSS; FS and GS
     * null (their bases through MSRs), LDTR never loaded. */
    reset_all(g);
    g->ia32e = true;
    g->s[GSEG_CS] = load(gdt, n, SEL_KCODE, true);
    g->s[GSEG_SS] = g->s[GSEG_DS] = g->s[GSEG_ES] = load(gdt, n, SEL_KDATA, true);
    g->s[GSEG_FS] = g->s[GSEG_GS] = load(gdt, n, 0, true);
    g->s[GSEG_TR] = ltr(gdt, n, SEL_TSS);
}

static void user_cpl3(struct guest_segs *g, const u64 *gdt, u32 n)
{
    /* kernel/user.c: IRETQ to SEL_UCODE/SEL_UDATA; IRET loads a null selector into DS/ES (DPL 0 < CPL 3, SDM
     * Vol.2A IRET "RETURN-TO-OUTER-PRIVILEGE-LEVEL"). */
    kernel_cpu_local(g, gdt, n);
    g->s[GSEG_CS] = load(gdt, n, SEL_UCODE, true);
    g->s[GSEG_SS] = load(gdt, n, SEL_UDATA, true);
    g->s[GSEG_DS] = g->s[GSEG_ES] = load(gdt, n, 0, true);
}

static void back_from_cpl3(struct guest_segs *g, const u64 *gdt, u32 n)
{
    /* The #UD that ends a ring-3 call (kernel/user_entry.asm): an interrupt gate to CPL 0 in IA-32e mode loads
     * SS with a null selector of RPL 0 (SDM Vol.3A 6.14.4). */
    user_cpl3(g, gdt, n);
    g->s[GSEG_CS] = load(gdt, n, SEL_KCODE, true);
    g->s[GSEG_SS] = load(gdt, n, 0, true);
}

struct path {
    const char *name;
    void (*build)(struct guest_segs *g, const u64 *gdt, u32 n);
    bool per_cpu_gdt;
};

static const struct path paths[] = {
    {"BSP: boot/entry.asm long_entry (also after a reset resume: the loader enters it again)", bsp_long_entry, false},
    {"AP after INIT+SIPI: ap_entry32, first instruction", ap_entry32_first, false},
    {"AP: ap_entry32 after DS/ES/SS", ap_entry32_loaded, false},
    {"AP: compatibility mode before the far jump to 64-bit code", ap_compat_mode, false},
    {"AP: ap_entry64 after LOAD_DATA_SEGMENTS", bsp_long_entry, false},
    {"every CPU: kernel/percpu.c cpu_local_load", kernel_cpu_local, true},
    {"CPL 3: kernel/user.c IRETQ", user_cpl3, true},
    {"CPL 0 again: the #UD back from ring 3", back_from_cpl3, true},
};

static u32 check_path(const struct path *p, const u64 *boot, const u64 *cpu, char (*msg)[GUEST_STATE_MSG], u32 max)
{
    struct guest_segs g;
    p->build(&g, p->per_cpu_gdt ? cpu : boot, p->per_cpu_gdt ? cpu_n : boot_n);
    return guest_segs_check(&g, msg, max);
}

static void every_path_valid(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
        char msg[8][GUEST_STATE_MSG];
        u32 n = check_path(&paths[i], boot_gdt, cpu_gdt, msg, 8);
        for (u32 k = 0; k < n && k < 8; k++)
            fprintf(stderr, "%s: %s\n", paths[i].name, msg[k]);
        assert_int_equal(n, 0);
    }
}

/* Every path that uses a GDT whose one descriptor is broken must fail, naming the register. */
static void assert_caught(const u64 *boot, const u64 *cpu, const struct path *p, const char *want)
{
    char msg[8][GUEST_STATE_MSG];
    u32 n = check_path(p, boot, cpu, msg, 8);
    bool named = false;
    for (u32 k = 0; k < n && k < 8; k++)
        named = named || strstr(msg[k], want) != NULL;
    if (!named)
        fprintf(stderr, "%s: want a problem naming '%s', got %u\n", p->name, want, n);
    assert_true(n > 0);
    assert_true(named);
}

static void broken_descriptors_caught(void **state)
{
    (void)state;
    u64 boot[GDT_MAX], cpu[GDT_MAX];

    /* Boot data segment with DPL 3: SS.DPL no longer its RPL (0), on every boot path. */
    memcpy(boot, boot_gdt, sizeof(boot));
    boot[BOOT_DATA >> 3] |= 3ull << 45;
    assert_caught(boot, cpu_gdt, &paths[0], "SS: DPL differs");
    assert_caught(boot, cpu_gdt, &paths[2], "SS: DPL differs");

    /* Boot data segment read-only: not a stack segment. */
    memcpy(boot, boot_gdt, sizeof(boot));
    boot[BOOT_DATA >> 3] &= ~(2ull << 40);
    assert_caught(boot, cpu_gdt, &paths[0], "SS: usable with a type");

    /* 64-bit code segment with D set beside L. */
    memcpy(boot, boot_gdt, sizeof(boot));
    boot[BOOT_CODE64 >> 3] |= 1ull << 54;
    assert_caught(boot, cpu_gdt, &paths[0], "CS: L=1 with D/B=1");

    /* 32-bit code segment made a data segment. */
    memcpy(boot, boot_gdt, sizeof(boot));
    boot[BOOT_CODE32 >> 3] &= ~(8ull << 40);
    assert_caught(boot, cpu_gdt, &paths[1], "CS: type");

    /* Per-CPU TSS descriptor not present. */
    memcpy(cpu, cpu_gdt, sizeof(cpu));
    cpu[SEL_TSS >> 3] &= ~(1ull << 47);
    assert_caught(boot_gdt, cpu, &paths[5], "TR: not present");

    /* User code segment with DPL 0: CS.DPL differs from SS.DPL (3) at CPL 3. */
    memcpy(cpu, cpu_gdt, sizeof(cpu));
    cpu[SEL_UCODE >> 3] &= ~(3ull << 45);
    assert_caught(boot_gdt, cpu, &paths[6], "CS: non-conforming with DPL");

    /* Kernel data segment as a system descriptor (S = 0). */
    memcpy(cpu, cpu_gdt, sizeof(cpu));
    cpu[SEL_KDATA >> 3] &= ~(1ull << 44);
    assert_caught(boot_gdt, cpu, &paths[5], "S=0");
}

/* The one state that cannot be valid without unrestricted guest: between the trampoline's MOV to CR0 (PE = 1)
 * and its far JMP, CS still holds the real-mode segment INIT gave it (SDM Vol.3A Table 10-1: "Present, R/W,
 * Accessed", a data type). A hypervisor without unrestricted guest emulates that one instruction, a far JMP,
 * which every instruction emulator has (Linux arch/x86/kvm/emulate.c 0xEA em_jmp_far): boot/ap_trampoline.asm
 * keeps it to that. */
static void trampoline_switch_is_the_one_emulated_state(void **state)
{
    (void)state;
    struct guest_segs g;
    reset_all(&g);
    g.s[GSEG_CS].sel = TRAMP_SEG;
    g.s[GSEG_CS].base = (u64)TRAMP_SEG << 4;
    g.s[GSEG_DS] = g.s[GSEG_CS];
    char msg[8][GUEST_STATE_MSG];
    u32 n = guest_segs_check(&g, msg, 8);
    assert_int_equal(n, 1);
    assert_non_null(strstr(msg[0], "CS: type not an accessed code segment"));
}

static void reset_state_and_null_selector(void **state)
{
    (void)state;
    struct seg_state s = seg_after_reset(GSEG_TR);
    assert_int_equal(SEG_AR_TYPE(s.ar), 11);
    s = seg_after_reset(GSEG_LDTR);
    assert_int_equal(SEG_AR_TYPE(s.ar), 2);
    assert_true(seg_load(boot_gdt, boot_n, 3, true, &s));
    assert_true(s.ar & SEG_AR_UNUSABLE);
    assert_int_equal(SEG_AR_DPL(s.ar), 3);
    assert_false(seg_load(boot_gdt, boot_n, (u16)(boot_n * 8), true, &s)); /* beyond the GDT */
    assert_false(seg_load(boot_gdt, boot_n, BOOT_DATA | 4, true, &s));     /* TI: the LDT */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_path_valid),
        cmocka_unit_test(broken_descriptors_caught),
        cmocka_unit_test(trampoline_switch_is_the_one_emulated_state),
        cmocka_unit_test(reset_state_and_null_selector),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
