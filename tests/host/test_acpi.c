/* Host tests for lib/acpi.c: RSDP (ACPI 6.5 5.2.5), RSDT/XSDT (5.2.7, 5.2.8), MADT (5.2.12).
 * Table sets are built here from the spec's layouts, shaped like QEMU's (hw/i386/acpi-common.c:
 * one LAPIC entry per possible CPU, flags 1 if present else 0; I/O APIC id 0 at 0xFEC00000 GSI 0;
 * overrides IRQ0->GSI2 flags 0 and IRQ5/9/10/11 flags 0xD; Local APIC NMI UID 0xFF LINT1), laid out
 * contiguously in a buffer allocated at its exact size so ASan catches any read past it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/host/support/acpi_checksum.h"
#include "lib/acpi.h"
#include "lib/cpu_list.h"

/* ---- building tables ---- */

#define BLOB_MAX (256 * 1024) /* an MADT past ACPI_MAX_CPUS x2APIC entries (16 bytes each) */
struct blob {
    u8 b[BLOB_MAX];
    u32 len;
};

static void put(struct blob *t, const void *p, u32 n)
{
    assert_true(t->len + n <= BLOB_MAX);
    memcpy(t->b + t->len, p, n);
    t->len += n;
}
static void put8(struct blob *t, u8 v) { put(t, &v, 1); }
static void put16(struct blob *t, u16 v) { put(t, &v, 2); }
static void put32(struct blob *t, u32 v) { put(t, &v, 4); }
static void put64(struct blob *t, u64 v) { put(t, &v, 8); }



/* ACPI 6.5 5.2.6 header: signature, length (set by sdt_end), revision, checksum, OEM fields. */
static void sdt_begin(struct blob *t, const char *sig, u8 rev)
{
    t->len = 0;
    put(t, sig, 4);
    put32(t, 0);
    put8(t, rev);
    put8(t, 0);
    put(t, "BOCHS ", 6);
    put(t, "BXPC    ", 8);
    put32(t, 1);
    put(t, "BXPC", 4);
    put32(t, 1);
}

static void sdt_end(struct blob *t)
{
    memcpy(t->b + 4, &t->len, 4);
    acpi_test_checksum(t->b, t->len, 9);
}

/* MADT (5.2.12): header + Local Interrupt Controller Address + Flags, then entries. */
static void madt_begin(struct blob *t, u8 rev, u32 lapic, u32 flags)
{
    sdt_begin(t, "APIC", rev);
    put32(t, lapic);
    put32(t, flags);
}
static void e_lapic(struct blob *t, u8 uid, u8 id, u32 flags) /* 5.2.12.2 */
{
    put8(t, 0), put8(t, 8), put8(t, uid), put8(t, id), put32(t, flags);
}
static void e_ioapic(struct blob *t, u8 id, u32 addr, u32 gsi) /* 5.2.12.3 */
{
    put8(t, 1), put8(t, 12), put8(t, id), put8(t, 0), put32(t, addr), put32(t, gsi);
}
static void e_iso(struct blob *t, u8 src, u32 gsi, u16 flags) /* 5.2.12.5, bus 0 = ISA */
{
    put8(t, 2), put8(t, 10), put8(t, 0), put8(t, src), put32(t, gsi), put16(t, flags);
}
static void e_lapic_nmi(struct blob *t, u8 uid, u16 flags, u8 lint) /* 5.2.12.7 */
{
    put8(t, 4), put8(t, 6), put8(t, uid), put16(t, flags), put8(t, lint);
}
static void e_lapic_override(struct blob *t, u64 addr) /* 5.2.12.8 */
{
    put8(t, 5), put8(t, 12), put16(t, 0), put64(t, addr);
}
static void e_x2apic(struct blob *t, u32 id, u32 flags, u32 uid) /* 5.2.12.12 */
{
    put8(t, 9), put8(t, 16), put16(t, 0), put32(t, id), put32(t, flags), put32(t, uid);
}
static void e_x2apic_nmi(struct blob *t, u16 flags, u32 uid, u8 lint) /* 5.2.12.13 */
{
    put8(t, 10), put8(t, 12), put16(t, flags), put32(t, uid), put8(t, lint), put8(t, 0), put16(t, 0);
}

#define APIC_BASE 0xFEE00000u   /* SDM Vol.3A 10.4.1 default; QEMU APIC_DEFAULT_ADDRESS */
#define IOAPIC_BASE 0xFEC00000u /* QEMU IO_APIC_DEFAULT_ADDRESS */
#define MPS_HIGH_LEVEL 0xD      /* MPS INTI flags: polarity 01 active high, trigger 11 level */

/* The MADT QEMU's acpi_build_madt() gives a PC with `possible` CPUs of which `present` exist. */
static void madt_qemu(struct blob *t, u32 present, u32 possible)
{
    madt_begin(t, 1, APIC_BASE, ACPI_MADT_PCAT_COMPAT);
    for (u32 i = 0; i < possible; i++)
        e_lapic(t, (u8)i, (u8)i, i < present ? ACPI_LAPIC_FLAG_ENABLED : 0);
    e_ioapic(t, 0, IOAPIC_BASE, 0);
    e_iso(t, 0, 2, 0);
    static const u8 pci_irqs[] = {5, 9, 10, 11};
    for (u32 i = 0; i < ARRAY_SIZE(pci_irqs); i++)
        e_iso(t, pci_irqs[i], pci_irqs[i], MPS_HIGH_LEVEL);
    e_lapic_nmi(t, 0xFF, 0, 1);
    sdt_end(t);
}

/* A dummy table with a valid header (stands for FACP, HPET: the walk checks every listed table). */
static void dummy_table(struct blob *t, const char *sig, u32 body)
{
    sdt_begin(t, sig, 1);
    for (u32 i = 0; i < body; i++)
        put8(t, (u8)i);
    sdt_end(t);
}

/* ---- physical memory images ---- */

#define IMG_BASE 0x7FE0000ull /* where QEMU's firmware puts its tables in a 128 MiB guest; any non-zero base */

struct image {
    u8 *buf;
    u64 base;
    size_t size;
    struct phys_window w;
    /* physical addresses of the parts */
    u64 rsdp, rsdt, xsdt, facp, hpet, madt, madt_rsdt;
    u32 rsdp_len;
};

static u8 *at(struct image *im, u64 phys)
{
    assert_true(phys >= im->base && phys - im->base < im->size);
    return im->buf + (phys - im->base);
}

static void image_alloc(struct image *im, u64 base, size_t size)
{
    im->buf = calloc(1, size); /* exact size: ASan flags any access past it */
    assert_non_null(im->buf);
    im->base = base;
    im->size = size;
    im->w = (struct phys_window){base, size, im->buf, NULL};
}

static void image_free(struct image *im)
{
    free(im->buf);
    im->buf = NULL;
}

/* Lay out [RSDP][XSDT][RSDT][FACP][HPET][RSDT's MADT][MADT] contiguously (the MADT ends the buffer).
 * rsdp_rev 0: RSDP 1.0 + RSDT listing FACP, APIC, HPET. rsdp_rev 2: RSDP 2.0 + XSDT listing FACP, APIC,
 * HPET + an RSDT listing FACP and madt_rsdt (a different MADT, so the tests see which root was used). */
static void image_build(struct image *im, u8 rsdp_rev, const struct blob *madt, const struct blob *madt_rsdt)
{
    static struct blob facp, hpet, root, root2, rsdp;
    memset(im, 0, sizeof(*im));
    dummy_table(&facp, "FACP", 116 - 36);
    dummy_table(&hpet, "HPET", 56 - 36);
    const bool v2 = rsdp_rev >= 2;
    const u32 rsdp_len = v2 ? 36 : 20;
    const u32 n = 3;
    u64 p = IMG_BASE;
    im->rsdp = p;
    p += 48; /* RSDP padded to 16 */
    if (v2) {
        im->xsdt = p;
        p += 36 + 8 * n;
    }
    im->rsdt = p;
    p += 36 + 4 * (v2 ? 2 : n);
    im->facp = p;
    p += facp.len;
    im->hpet = p;
    p += hpet.len;
    if (v2) {
        im->madt_rsdt = p;
        p += madt_rsdt->len;
    }
    im->madt = p;
    p += madt->len;
    image_alloc(im, IMG_BASE, p - IMG_BASE);
    im->rsdp_len = rsdp_len;

    if (v2) {
        sdt_begin(&root, "XSDT", 1);
        put64(&root, im->facp), put64(&root, im->madt), put64(&root, im->hpet);
        sdt_end(&root);
        memcpy(at(im, im->xsdt), root.b, root.len);
        sdt_begin(&root2, "RSDT", 1);
        put32(&root2, (u32)im->facp), put32(&root2, (u32)im->madt_rsdt);
        sdt_end(&root2);
        memcpy(at(im, im->rsdt), root2.b, root2.len);
        memcpy(at(im, im->madt_rsdt), madt_rsdt->b, madt_rsdt->len);
    } else {
        sdt_begin(&root, "RSDT", 1);
        put32(&root, (u32)im->facp), put32(&root, (u32)im->madt), put32(&root, (u32)im->hpet);
        sdt_end(&root);
        memcpy(at(im, im->rsdt), root.b, root.len);
    }
    memcpy(at(im, im->facp), facp.b, facp.len);
    memcpy(at(im, im->hpet), hpet.b, hpet.len);
    memcpy(at(im, im->madt), madt->b, madt->len);

    /* ACPI 6.5 5.2.5.3 RSDP */
    rsdp.len = 0;
    put(&rsdp, "RSD PTR ", 8);
    put8(&rsdp, 0);
    put(&rsdp, "BOCHS ", 6);
    put8(&rsdp, rsdp_rev);
    put32(&rsdp, (u32)im->rsdt);
    if (v2) {
        put32(&rsdp, 36);
        put64(&rsdp, im->xsdt);
        put8(&rsdp, 0);
        put8(&rsdp, 0), put16(&rsdp, 0);
    }
    acpi_test_checksum(rsdp.b, 20, 8);
    if (v2)
        acpi_test_checksum(rsdp.b, 36, 32);
    memcpy(at(im, im->rsdp), rsdp.b, rsdp.len);
}

/* Re-checksum a table in the image after editing it. */
static void refix_table(struct image *im, u64 phys, u32 len)
{
    acpi_test_checksum(at(im, phys), len, 9);
}

static void set32(struct image *im, u64 phys, u32 v)
{
    memcpy(at(im, phys), &v, 4);
}

/* ---- result checks ---- */

static struct acpi_info info; /* ~40 KiB: static, like the kernel's */
static struct cpu_list cl;      /* ~12 KiB: what lib/cpu_list.c decides from info */

static void dump_problems(const struct acpi_problems *pr)
{
    for (u32 i = 0; i < pr->count && i < ACPI_PROBLEMS_MAX; i++)
        print_message("#   problem: %s\n", pr->msg[i]);
}

static bool has_problem(const struct acpi_problems *pr, const char *needle)
{
    for (u32 i = 0; i < pr->count && i < ACPI_PROBLEMS_MAX; i++)
        if (strstr(pr->msg[i], needle))
            return true;
    return false;
}

#define assert_problem(pr, needle)                                                                            \
    do {                                                                                                      \
        if (!has_problem((pr), (needle))) {                                                                   \
            dump_problems(pr);                                                                                \
            fail_msg("no problem mentions \"%s\"", (needle));                                                 \
        }                                                                                                     \
    } while (0)

#define assert_no_problems(pr)                                                                                \
    do {                                                                                                      \
        if ((pr)->count) {                                                                                    \
            dump_problems(pr);                                                                                \
            fail_msg("%u unexpected problems", (pr)->count);                                                  \
        }                                                                                                     \
    } while (0)

static struct boot_info bi;

static u32 discover_v1_tag(struct image *im)
{
    memset(&bi, 0, sizeof(bi));
    bi.rsdp_v1_phys = im->rsdp;
    bi.rsdp_v1_len = 20;
    return acpi_discover(&info, &im->w, &bi);
}

static u32 discover_v2_tag(struct image *im)
{
    memset(&bi, 0, sizeof(bi));
    bi.rsdp_v2_phys = im->rsdp;
    bi.rsdp_v2_len = im->rsdp_len;
    return acpi_discover(&info, &im->w, &bi);
}

/* Print multi-line text as TAP diagnostics ("# " before every line). */
static void print_diag(const char *text)
{
    while (*text) {
        const char *nl = strchr(text, '\n');
        int n = nl ? (int)(nl - text) : (int)strlen(text);
        print_message("# %.*s\n", n, text);
        text += n + (nl ? 1 : 0);
    }
}

static const char *format_info(void)
{
    static char text[2048];
    struct strbuf sb;
    sb_init(&sb, text, sizeof(text));
    acpi_format(&info, &sb);
    return text;
}

#define assert_contains(hay, needle)                                                                          \
    do {                                                                                                      \
        if (!strstr((hay), (needle)))                                                                         \
            fail_msg("\"%s\" not in:\n%s", (needle), (hay));                                                  \
    } while (0)

static struct blob madt_a, madt_b;

/* ---- valid table sets ---- */

static void test_qemu_i440fx_rsdt(void **state)
{
    (void)state;
    struct image im;
    madt_qemu(&madt_a, 4, 4);
    image_build(&im, 0, &madt_a, NULL);
    u32 n = discover_v1_tag(&im);
    assert_no_problems(&info.problems);
    assert_int_equal(n, 0);

    assert_true(info.has_rsdp);
    assert_string_equal(info.rsdp_source, "multiboot2 old RSDP tag");
    assert_int_equal(info.rsdp.phys, im.rsdp);
    assert_int_equal(info.rsdp.revision, 0);
    assert_string_equal(info.rsdp.oem_id, "BOCHS ");
    assert_int_equal(info.rsdp.rsdt_phys, im.rsdt);
    assert_int_equal(info.rsdp.xsdt_phys, 0);

    assert_true(info.has_root);
    assert_false(info.root.is_xsdt);
    assert_int_equal(info.root.entry_count, 3);
    assert_int_equal(info.root.table_count, 3);
    assert_string_equal(info.root.tables[0].signature, "FACP");
    assert_string_equal(info.root.tables[1].signature, "APIC");
    assert_string_equal(info.root.tables[2].signature, "HPET");
    for (u32 i = 0; i < 3; i++)
        assert_true(info.root.tables[i].valid);
    assert_int_equal(info.root.tables[1].phys, im.madt);

    const struct acpi_madt *m = &info.madt;
    assert_true(info.has_madt);
    assert_true(m->entries_complete);
    assert_int_equal(m->phys, im.madt);
    assert_int_equal(m->length, madt_a.len);
    assert_int_equal(m->revision, 1);
    assert_int_equal(m->lapic_addr32, APIC_BASE);
    assert_int_equal(m->lapic_addr, APIC_BASE);
    assert_false(m->lapic_override);
    assert_true(m->pcat_compat);
    assert_int_equal(m->cpu_total, 4);
    assert_int_equal(m->cpu_count, 4);
    assert_int_equal(m->cpu_enabled, 4);
    assert_int_equal(m->cpu_absent, 0);
    assert_int_equal(m->cpu_online_capable, 0);
    for (u32 i = 0; i < 4; i++) {
        assert_int_equal(m->cpus[i].apic_id, i);
        assert_int_equal(m->cpus[i].uid, i);
        assert_int_equal(m->cpus[i].type, ACPI_MADT_LAPIC);
        assert_int_equal(m->cpus[i].offset, 44 + 8 * i);
        assert_true(m->cpus[i].enabled);
        assert_false(m->cpus[i].duplicate);
    }
    assert_int_equal(m->ioapic_count, 1);
    assert_int_equal(m->ioapics[0].id, 0);
    assert_int_equal(m->ioapics[0].address, IOAPIC_BASE);
    assert_int_equal(m->ioapics[0].gsi_base, 0);
    assert_int_equal(m->iso_count, 5);
    assert_int_equal(m->isos[0].source, 0);
    assert_int_equal(m->isos[0].gsi, 2);
    assert_int_equal(m->isos[0].flags, 0);
    static const u8 pci_irqs[] = {5, 9, 10, 11};
    for (u32 i = 0; i < 4; i++) {
        assert_int_equal(m->isos[1 + i].bus, 0);
        assert_int_equal(m->isos[1 + i].source, pci_irqs[i]);
        assert_int_equal(m->isos[1 + i].gsi, pci_irqs[i]);
        assert_int_equal(m->isos[1 + i].flags, MPS_HIGH_LEVEL);
    }
    assert_int_equal(m->lapic_nmi_count, 1);
    assert_int_equal(m->lapic_nmis[0].uid, 0xFF);
    assert_int_equal(m->lapic_nmis[0].lint, 1);
    assert_int_equal(m->lapic_nmis[0].type, ACPI_MADT_LAPIC_NMI);
    assert_int_equal(m->nmi_source_total, 0);
    assert_int_equal(m->other_entries, 0);

    const char *text = format_info();
    print_diag(text);
    assert_contains(text, "RSDT at 0x7fe0030 (48 bytes), 3 tables: FACP APIC HPET\n");
    assert_contains(text, "local APIC 0xfee00000, PCAT_COMPAT");
    assert_contains(text, "CPUs: 4 listed (0 x2APIC entries); enabled 4: IDs 0-3\n");
    assert_contains(text, "I/O APICs: 1: id 0 at 0xfec00000 GSI 0; overrides: 5: IRQ0->GSI2, IRQ5->GSI5 high level");
    assert_contains(text, "NMIs: 1 local APIC: all CPUs LINT1");
    image_free(&im);
}

/* QEMU -smp 2,maxcpus=4: four LAPIC entries, the last two with flags 0: absent, not a problem. */
static void test_qemu_maxcpus(void **state)
{
    (void)state;
    struct image im;
    madt_qemu(&madt_a, 2, 4);
    image_build(&im, 0, &madt_a, NULL);
    discover_v1_tag(&im);
    assert_no_problems(&info.problems);
    const struct acpi_madt *m = &info.madt;
    assert_int_equal(m->cpu_total, 4);
    assert_int_equal(m->cpu_enabled, 2);
    assert_int_equal(m->cpu_absent, 2);
    assert_true(m->cpus[1].enabled);
    assert_false(m->cpus[2].enabled);
    assert_true(acpi_cpu_absent(&m->cpus[2]));
    assert_true(acpi_cpu_absent(&m->cpus[3]));
    assert_false(acpi_cpu_absent(&m->cpus[0]));
    assert_contains(format_info(), "enabled 2: IDs 0-1; absent 2: IDs 2-3\n");
    image_free(&im);
}

/* An x2APIC-era MADT, revision 5: LAPIC entries below 255, x2APIC entries above, online-capable, the
 * 64-bit address override and an x2APIC NMI; listed by an XSDT. */
static void madt_x2(struct blob *t, u8 rev)
{
    madt_begin(t, rev, APIC_BASE, ACPI_MADT_PCAT_COMPAT);
    e_lapic(t, 0, 0, ACPI_LAPIC_FLAG_ENABLED);
    e_lapic(t, 1, 1, ACPI_LAPIC_FLAG_ENABLED);
    e_x2apic(t, 256, ACPI_LAPIC_FLAG_ENABLED, 2);
    e_x2apic(t, 257, ACPI_LAPIC_FLAG_ONLINE_CAPABLE, 3);
    e_x2apic(t, 258, 0, 4);
    e_lapic_override(t, 0x1FEE00000ull);
    e_ioapic(t, 0, IOAPIC_BASE, 0);
    e_iso(t, 0, 2, 0);
    e_lapic_nmi(t, 0xFF, 0, 1);
    e_x2apic_nmi(t, 0, 0xFFFFFFFFu, 1);
    sdt_end(t);
}

static void test_acpi2_xsdt_x2apic(void **state)
{
    (void)state;
    struct image im;
    madt_x2(&madt_a, 5);
    madt_qemu(&madt_b, 1, 1);
    image_build(&im, 2, &madt_a, &madt_b);
    discover_v2_tag(&im);
    assert_no_problems(&info.problems);
    assert_string_equal(info.rsdp_source, "multiboot2 new RSDP tag");
    assert_int_equal(info.rsdp.revision, 2);
    assert_int_equal(info.rsdp.length, 36);
    assert_int_equal(info.rsdp.xsdt_phys, im.xsdt);
    assert_false(info.rsdp.v1_part_only);
    assert_true(info.root.is_xsdt); /* ACPI 6.5 5.2.5.3: XSDT preferred */
    assert_int_equal(info.root.phys, im.xsdt);
    const struct acpi_madt *m = &info.madt;
    assert_int_equal(m->phys, im.madt);
    assert_int_equal(m->revision, 5);
    assert_int_equal(m->lapic_addr32, APIC_BASE);
    assert_true(m->lapic_override);
    assert_int_equal(m->lapic_addr, 0x1FEE00000ull);
    assert_int_equal(m->cpu_total, 5);
    assert_int_equal(m->cpu_enabled, 3);
    assert_int_equal(m->cpu_online_capable, 1);
    assert_int_equal(m->cpu_absent, 1);
    assert_int_equal(m->cpus[2].type, ACPI_MADT_X2APIC);
    assert_int_equal(m->cpus[2].apic_id, 256);
    assert_int_equal(m->cpus[2].uid, 2);
    assert_true(m->cpus[2].enabled);
    assert_false(m->cpus[3].enabled);
    assert_true(m->cpus[3].online_capable);
    assert_false(acpi_cpu_absent(&m->cpus[3]));
    assert_true(acpi_cpu_absent(&m->cpus[4]));
    assert_int_equal(m->lapic_nmi_count, 2);
    assert_int_equal(m->lapic_nmis[1].type, ACPI_MADT_X2APIC_NMI);
    assert_int_equal(m->lapic_nmis[1].uid, 0xFFFFFFFFu);
    assert_int_equal(m->lapic_nmis[1].lint, 1);
    const char *text = format_info();
    print_diag(text);
    assert_contains(text, "XSDT at 0x7fe0030 (60 bytes), 3 tables: FACP APIC HPET\n");
    assert_contains(text, "local APIC 0x1fee00000 (override entry)");
    assert_contains(text, "CPUs: 5 listed (3 x2APIC entries); enabled 3: IDs 0-1,256; online-capable 1: IDs 257; "
                          "absent 1: IDs 258\n");
    assert_contains(text, "NMIs: 2 local APIC: all CPUs LINT1, all CPUs LINT1");
    image_free(&im);
}

/* Before MADT revision 5 the Online Capable bit is reserved: a CPU with only that bit is absent. */
static void test_online_capable_needs_rev5(void **state)
{
    (void)state;
    struct image im;
    madt_x2(&madt_a, 4);
    madt_qemu(&madt_b, 1, 1);
    image_build(&im, 2, &madt_a, &madt_b);
    discover_v2_tag(&im);
    assert_no_problems(&info.problems);
    assert_false(info.madt.cpus[3].online_capable);
    assert_true(acpi_cpu_absent(&info.madt.cpus[3]));
    assert_int_equal(info.madt.cpu_absent, 2);
    image_free(&im);
}

/* GRUB's "old RSDP" tag copies 20 bytes; a revision 2 RSDP there is used through its RSDT. */
static void test_v2_rsdp_in_20_byte_copy(void **state)
{
    (void)state;
    struct image im;
    madt_x2(&madt_a, 5);
    madt_qemu(&madt_b, 1, 1);
    image_build(&im, 2, &madt_a, &madt_b);
    discover_v1_tag(&im);
    assert_no_problems(&info.problems);
    assert_true(info.rsdp.v1_part_only);
    assert_int_equal(info.rsdp.xsdt_phys, 0);
    assert_false(info.root.is_xsdt);
    assert_int_equal(info.madt.phys, im.madt_rsdt);
    assert_int_equal(info.madt.cpu_total, 1);
    image_free(&im);
}

/* A bad XSDT is reported and the RSDT used instead. */
static void test_bad_xsdt_falls_back_to_rsdt(void **state)
{
    (void)state;
    struct image im;
    madt_x2(&madt_a, 5);
    madt_qemu(&madt_b, 1, 1);
    image_build(&im, 2, &madt_a, &madt_b);
    at(&im, im.xsdt)[40] ^= 1;
    discover_v2_tag(&im);
    assert_problem(&info.problems, "XSDT at 0x7fe0030: checksum over 60 bytes");
    assert_problem(&info.problems, "falling back to the RSDT");
    assert_false(info.root.is_xsdt);
    assert_true(info.has_madt);
    assert_int_equal(info.madt.phys, im.madt_rsdt);
    image_free(&im);
}

/* ---- RSDP errors ---- */

static void test_rsdp_bad_checksum(void **state)
{
    (void)state;
    struct image im;
    madt_qemu(&madt_a, 4, 4);
    image_build(&im, 0, &madt_a, NULL);
    at(&im, im.rsdp)[10] ^= 0x20; /* an OEM ID byte */
    u32 n = discover_v1_tag(&im);
    assert_true(n >= 1);
    assert_problem(&info.problems, "RSDP at 0x7fe0000: checksum of the first 20 bytes is 0x20, not 0");
    assert_false(info.has_rsdp);
    assert_false(info.has_madt);
    image_free(&im);
}

static void test_rsdp_bad_extended_checksum(void **state)
{
    (void)state;
    struct image im;
    madt_x2(&madt_a, 5);
    madt_qemu(&madt_b, 1, 1);
    image_build(&im, 2, &madt_a, &madt_b);
    at(&im, im.rsdp)[33] = 0x5A; /* reserved byte: only the extended checksum covers it */
    discover_v2_tag(&im);
    assert_problem(&info.problems, "RSDP at 0x7fe0000: extended checksum over 36 bytes is 0x5a, not 0");
    assert_false(info.has_rsdp);
    /* The 20-byte checksum alone still holds: */
    struct acpi_problems pr = {0};
    struct acpi_rsdp r;
    assert_true(acpi_rsdp_parse(&im.w, im.rsdp, 20, &r, &pr));
    assert_true(r.v1_part_only);
    image_free(&im);
}

static void test_rsdp_bad_signature_and_outside(void **state)
{
    (void)state;
    struct image im;
    madt_qemu(&madt_a, 4, 4);
    image_build(&im, 0, &madt_a, NULL);
    struct acpi_problems pr = {0};
    struct acpi_rsdp r = {0};
    assert_false(acpi_rsdp_parse(&im.w, im.rsdp + 16, 0, &r, &pr));
    assert_problem(&pr, "RSDP at 0x7fe0010: signature");
    assert_false(acpi_rsdp_parse(&im.w, 0x1000, 0, &r, &pr));
    assert_problem(&pr, "RSDP at 0x1000 lies outside readable memory");
    assert_false(acpi_rsdp_parse(&im.w, im.base + im.size - 10, 0, &r, &pr)); /* straddles the end */
    assert_false(acpi_rsdp_parse(&im.w, im.rsdp, 12, &r, &pr));
    assert_problem(&pr, "only 12 bytes given");
    assert_int_equal(pr.count, 4);
    assert_int_equal(r.phys, 0); /* untouched on failure */
    image_free(&im);
}

static void test_rsdp_v2_length_bad(void **state)
{
    (void)state;
    struct image im;
    madt_x2(&madt_a, 5);
    madt_qemu(&madt_b, 1, 1);
    image_build(&im, 2, &madt_a, &madt_b);
    set32(&im, im.rsdp + 20, 30); /* length < 36 */
    discover_v2_tag(&im);
    assert_problem(&info.problems, "revision 2 with length 30 outside [36, 4096]");
    set32(&im, im.rsdp + 20, 40); /* more than the 36-byte tag */
    discover_v2_tag(&im);
    assert_problem(&info.problems, "length 40 exceeds the 36 bytes given");
    image_free(&im);
}

/* ---- RSDT errors ---- */

static void test_rsdt_outside_memory(void **state)
{
    (void)state;
    struct image im;
    madt_qemu(&madt_a, 4, 4);
    image_build(&im, 0, &madt_a, NULL);
    set32(&im, im.rsdp + 16, 0x1000);
    acpi_test_checksum(at(&im, im.rsdp), 20, 8);
    discover_v1_tag(&im);
    assert_true(info.has_rsdp);
    assert_false(info.has_root);
    assert_problem(&info.problems, "RSDT at 0x1000: header lies outside readable memory");
    image_free(&im);
}

static void test_rsdt_length_below_header(void **state)
{
    (void)state;
    struct image im;
    madt_qemu(&madt_a, 4, 4);
    image_build(&im, 0, &madt_a, NULL);
    set32(&im, im.rsdt + 4, 30);
    refix_table(&im, im.rsdt, 30);
    discover_v1_tag(&im);
    assert_false(info.has_root);
    assert_problem(&info.problems, "RSDT at 0x7fe0030: length 30 is shorter than the 36 bytes");
    image_free(&im);
}

static void test_rsdt_length_not_whole_entries(void **state)
{
    (void)state;
    struct image im;
    madt_qemu(&madt_a, 4, 4);
    image_build(&im, 0, &madt_a, NULL);
    set32(&im, im.rsdt + 4, 36 + 4 * 3 + 2); /* takes in 2 bytes of the FACP that follows */
    refix_table(&im, im.rsdt, 36 + 4 * 3 + 2);
    discover_v1_tag(&im);
    assert_problem(&info.problems, "RSDT at 0x7fe0030: length 50 is not 36 + 4*n; the last 2 bytes are ignored");
    assert_int_equal(info.problems.count, 1);
    assert_int_equal(info.root.entry_count, 3);
    assert_true(info.has_madt); /* the whole entries are still used */
    image_free(&im);
}

static void test_rsdt_entry_outside_and_null(void **state)
{
    (void)state;
    struct image im;
    madt_qemu(&madt_a, 4, 4);
    image_build(&im, 0, &madt_a, NULL);
    set32(&im, im.rsdt + 36, 0xFFFFFFF0u); /* FACP pointer: 4 GiB - 16 */
    set32(&im, im.rsdt + 44, 0);           /* HPET pointer: null */
    refix_table(&im, im.rsdt, 48);
    discover_v1_tag(&im);
    assert_problem(&info.problems, "RSDT entry 0 at 0xfffffff0: header lies outside readable memory");
    assert_problem(&info.problems, "entry 2 is a null pointer");
    assert_false(info.root.tables[0].valid);
    assert_false(info.root.tables[2].valid);
    assert_true(info.has_madt);
    image_free(&im);
}

/* The MADT ends the buffer: a length past it is caught before any byte beyond is read. */
static void test_table_past_window(void **state)
{
    (void)state;
    struct image im;
    madt_qemu(&madt_a, 4, 4);
    image_build(&im, 0, &madt_a, NULL);
    set32(&im, im.madt + 4, madt_a.len + 1);
    discover_v1_tag(&im);
    assert_false(info.has_madt);
    char want[96];
    snprintf(want, sizeof(want), "RSDT entry 1 (\"APIC\" at 0x%llx): its %u bytes run outside readable memory",
             (unsigned long long)im.madt, madt_a.len + 1);
    assert_problem(&info.problems, want);
    assert_problem(&info.problems, "no valid MADT (\"APIC\") listed in the RSDT");

    set32(&im, im.madt + 4, ACPI_TABLE_MAX_LEN + 1);
    discover_v1_tag(&im);
    assert_problem(&info.problems, "exceeds the 1048576-byte sanity bound");
    image_free(&im);
}

/* ---- MADT errors ---- */

static void test_madt_bad_checksum(void **state)
{
    (void)state;
    struct image im;
    madt_qemu(&madt_a, 4, 4);
    image_build(&im, 0, &madt_a, NULL);
    at(&im, im.madt + 44 + 3)[0] = 7; /* first CPU's APIC ID 0 -> 7 */
    discover_v1_tag(&im);
    assert_false(info.has_madt); /* not trusted */
    assert_false(info.root.tables[1].valid);
    assert_problem(&info.problems, "checksum over");
    assert_problem(&info.problems, "is 0x07, not 0; not used");
    assert_problem(&info.problems, "no valid MADT");
    /* Called directly on the table, the parser refuses it too. */
    struct acpi_problems pr = {0};
    assert_false(acpi_madt_parse(&im.w, im.madt, &info.madt, &pr));
    assert_problem(&pr, "MADT at 0x");
    image_free(&im);
}

/* Build an image whose MADT is `madt_a` after it has been edited by the caller (checksum refixed). */
static void build_with_madt(struct image *im)
{
    sdt_end(&madt_a);
    image_build(im, 0, &madt_a, NULL);
}

static void test_madt_entry_length_zero(void **state)
{
    (void)state;
    struct image im;
    madt_begin(&madt_a, 1, APIC_BASE, 1);
    e_lapic(&madt_a, 0, 0, 1);
    e_lapic(&madt_a, 1, 1, 1);
    put8(&madt_a, 0), put8(&madt_a, 0); /* type 0, length 0: would loop forever if followed */
    put(&madt_a, "\0\0\0\0\0\0", 6);
    e_lapic(&madt_a, 2, 2, 1);
    build_with_madt(&im);
    discover_v1_tag(&im);
    assert_problem(&info.problems, "MADT entry at offset 0x3c (type 0): length 0 cannot be; rest of table ignored");
    assert_true(info.has_madt);
    assert_false(info.madt.entries_complete);
    assert_int_equal(info.madt.cpu_total, 2); /* entries before it are kept */
    assert_contains(format_info(), "walk stopped at a malformed entry");
    image_free(&im);
}

static void test_madt_entry_shorter_than_type(void **state)
{
    (void)state;
    struct image im;
    madt_begin(&madt_a, 1, APIC_BASE, 1);
    e_lapic(&madt_a, 0, 0, 1);
    put8(&madt_a, 9), put8(&madt_a, 8); /* x2APIC entry needs 16 bytes */
    put32(&madt_a, 0), put16(&madt_a, 0);
    e_lapic(&madt_a, 1, 1, 1);
    build_with_madt(&im);
    discover_v1_tag(&im);
    assert_problem(&info.problems, "MADT entry at offset 0x34 (Local x2APIC): length 8 < its 16 bytes");
    assert_int_equal(info.madt.cpu_total, 1);
    assert_false(info.madt.entries_complete);
    image_free(&im);
}

static void test_madt_entry_past_table_end(void **state)
{
    (void)state;
    struct image im;
    madt_begin(&madt_a, 1, APIC_BASE, 1);
    e_lapic(&madt_a, 0, 0, 1);
    put8(&madt_a, 1), put8(&madt_a, 20); /* I/O APIC claiming 20 bytes, 12 left */
    put16(&madt_a, 0), put32(&madt_a, IOAPIC_BASE), put32(&madt_a, 0);
    build_with_madt(&im);
    discover_v1_tag(&im);
    assert_problem(&info.problems, "MADT entry at offset 0x34 (type 1): length 20 runs past the table end (64)");
    assert_int_equal(info.madt.ioapic_total, 0);
    image_free(&im);
}

static void test_madt_stray_byte(void **state)
{
    (void)state;
    struct image im;
    madt_begin(&madt_a, 1, APIC_BASE, 1);
    e_lapic(&madt_a, 0, 0, 1);
    put8(&madt_a, 0);
    build_with_madt(&im);
    discover_v1_tag(&im);
    assert_problem(&info.problems, "MADT entry at offset 0x34: 1 stray byte");
    assert_int_equal(info.madt.cpu_enabled, 1);
    image_free(&im);
}

static void test_madt_truncated_header(void **state)
{
    (void)state;
    struct image im;
    sdt_begin(&madt_a, "APIC", 1);
    put32(&madt_a, APIC_BASE); /* Flags field missing: 40 bytes */
    build_with_madt(&im);
    discover_v1_tag(&im);
    assert_false(info.has_madt);
    assert_problem(&info.problems, "length 40 is shorter than the 44 bytes of its fixed fields");
    struct acpi_problems pr = {0};
    assert_false(acpi_madt_parse(&im.w, im.madt, &info.madt, &pr));
    assert_problem(&pr, "MADT at 0x");
    image_free(&im);
}

static void test_madt_too_many_processors(void **state)
{
    (void)state;
    struct image im;
    const u32 n = ACPI_MAX_CPUS + 6;
    madt_begin(&madt_a, 3, APIC_BASE, 1);
    for (u32 i = 0; i < n; i++)
        e_x2apic(&madt_a, i, 1, i);
    build_with_madt(&im);
    discover_v1_tag(&im);
    char want[80];
    snprintf(want, sizeof(want), "MADT lists %u processors; only the first %u are kept", n, ACPI_MAX_CPUS);
    assert_problem(&info.problems, want);
    assert_int_equal(info.problems.count, 1);
    assert_int_equal(info.madt.cpu_total, n);
    assert_int_equal(info.madt.cpu_count, ACPI_MAX_CPUS);
    assert_int_equal(info.madt.cpus[ACPI_MAX_CPUS - 1].apic_id, ACPI_MAX_CPUS - 1);
    char want2[64];
    snprintf(want2, sizeof(want2), "enabled %u: IDs 0-%u; 6 not kept", ACPI_MAX_CPUS, ACPI_MAX_CPUS - 1);
    assert_contains(format_info(), want2);
    image_free(&im);
}

static void test_madt_duplicate_apic_id(void **state)
{
    (void)state;
    struct image im;
    madt_begin(&madt_a, 1, APIC_BASE, 1);
    e_lapic(&madt_a, 0, 0, 1);
    e_lapic(&madt_a, 1, 1, 1);
    e_x2apic(&madt_a, 1, 1, 2);    /* same ID as the LAPIC entry at 0x34 */
    e_lapic(&madt_a, 3, 0xFF, 0);  /* absent placeholders sharing an ID: normal firmware practice */
    e_lapic(&madt_a, 4, 0xFF, 0);
    e_lapic(&madt_a, 5, 7, 0);     /* an absent entry does not make a later enabled one a duplicate */
    e_lapic(&madt_a, 6, 7, 1);
    build_with_madt(&im);
    discover_v1_tag(&im);
    assert_problem(&info.problems,
                   "MADT: 1 repeated APIC IDs ignored (1 Local APIC + x2APIC pairs), e.g. ID 0x1 at 0x34+0x3c");
    assert_int_equal(info.problems.count, 1);
    assert_true(info.madt.cpus[2].duplicate);
    assert_false(info.madt.cpus[1].duplicate);
    assert_int_equal(info.madt.cpu_enabled, 3);
    assert_int_equal(info.madt.cpu_duplicates, 1);
    assert_int_equal(info.madt.cpu_absent, 3);
    assert_false(info.madt.cpus[6].duplicate);
    image_free(&im);
}

static void test_madt_no_enabled_cpu(void **state)
{
    (void)state;
    struct image im;
    madt_begin(&madt_a, 1, APIC_BASE, 1);
    e_ioapic(&madt_a, 0, IOAPIC_BASE, 0);
    build_with_madt(&im);
    discover_v1_tag(&im);
    assert_problem(&info.problems, "lists no processor");
    madt_qemu(&madt_a, 0, 2);
    image_free(&im);
    image_build(&im, 0, &madt_a, NULL);
    discover_v1_tag(&im);
    assert_problem(&info.problems, "none of its 2 processors is enabled");
    image_free(&im);
}

static void test_madt_second_override_and_unknown_types(void **state)
{
    (void)state;
    struct image im;
    madt_begin(&madt_a, 1, APIC_BASE, 1);
    e_lapic(&madt_a, 0, 0, 1);
    e_lapic_override(&madt_a, 0xFED00000u);
    e_lapic_override(&madt_a, 0xFEB00000u);
    put8(&madt_a, 0x80), put8(&madt_a, 4), put16(&madt_a, 0); /* OEM type: skipped */
    put8(&madt_a, 3), put8(&madt_a, 8), put16(&madt_a, MPS_HIGH_LEVEL), put32(&madt_a, 23); /* NMI source */
    build_with_madt(&im);
    discover_v1_tag(&im);
    assert_problem(&info.problems, "a second Local APIC Address Override (0xfeb00000); ignored");
    assert_int_equal(info.problems.count, 1);
    assert_int_equal(info.madt.lapic_addr, 0xFED00000u);
    assert_int_equal(info.madt.other_entries, 1);
    assert_int_equal(info.madt.nmi_source_count, 1);
    assert_int_equal(info.madt.nmi_sources[0].gsi, 23);
    assert_int_equal(info.madt.nmi_sources[0].flags, MPS_HIGH_LEVEL);
    image_free(&im);
}

/* ---- RSDP scan (ACPI 6.5 5.2.5.1) ---- */

#define LOW_BASE 0x400ull /* window from the BIOS data area to 1 MiB: base is not 0 */
#define LOW_END 0x100000ull
#define EBDA_SEG 0x9FC0u

/* Place the table set of `src` (built at IMG_BASE) into low memory at `tables`, and an RSDP copy at `at_`. */
static void low_image(struct image *low, struct image *src, u64 tables, bool ebda_ptr)
{
    image_alloc(low, LOW_BASE, LOW_END - LOW_BASE);
    if (ebda_ptr) {
        u16 seg = EBDA_SEG;
        memcpy(at(low, 0x40E), &seg, 2);
    }
    /* Rebase the set: tables keep their offsets, so patch the RSDT and RSDP pointers. */
    const u64 delta = tables - src->base;
    memcpy(at(low, tables), src->buf, src->size);
    u8 *rsdt = at(low, src->rsdt + delta);
    for (u32 i = 0; i < 3; i++) {
        u32 p;
        memcpy(&p, rsdt + 36 + 4 * i, 4);
        p = (u32)(p + delta);
        memcpy(rsdt + 36 + 4 * i, &p, 4);
    }
    acpi_test_checksum(rsdt, 48, 9);
}

static void put_rsdp(struct image *low, u64 where, u32 rsdt, bool good)
{
    u8 r[20] = "RSD PTR ";
    memcpy(r + 9, "BOCHS ", 6);
    memcpy(r + 16, &rsdt, 4);
    acpi_test_checksum(r, 20, 8);
    if (!good)
        r[8] ^= 0x55;
    memcpy(at(low, where), r, 20);
}

static void test_scan_bad_first_good_later(void **state)
{
    (void)state;
    struct image src, low;
    madt_qemu(&madt_a, 4, 4);
    image_build(&src, 0, &madt_a, NULL);
    const u64 tables = 0x7F000;
    low_image(&low, &src, tables, true);
    const u32 rsdt = (u32)(src.rsdt - src.base + tables);
    put_rsdp(&low, 0x9FC00 + 0x100, rsdt, false); /* EBDA: bad */
    put_rsdp(&low, 0xE0000, rsdt, false);         /* BIOS area: bad */
    put_rsdp(&low, 0xF5A40, rsdt, true);          /* then good */
    put_rsdp(&low, 0xE0048, rsdt, true);          /* not on a 16-byte boundary: never a candidate */
    u32 n = acpi_discover(&info, &low.w, NULL);
    assert_int_equal(n, 2);
    assert_problem(&info.problems, "RSDP at 0x9fd00: checksum of the first 20 bytes");
    assert_problem(&info.problems, "RSDP at 0xe0000: checksum of the first 20 bytes");
    assert_string_equal(info.rsdp_source, "BIOS area scan");
    assert_int_equal(info.rsdp.phys, 0xF5A40);
    assert_true(info.has_madt);
    assert_int_equal(info.madt.cpu_enabled, 4);
    image_free(&low);
    image_free(&src);
}

static void test_scan_ebda_first(void **state)
{
    (void)state;
    struct image src, low;
    madt_qemu(&madt_a, 4, 4);
    image_build(&src, 0, &madt_a, NULL);
    const u64 tables = 0x7F000;
    low_image(&low, &src, tables, true);
    const u32 rsdt = (u32)(src.rsdt - src.base + tables);
    put_rsdp(&low, 0x9FC00 + 0x3F0, rsdt, true); /* last 16-byte slot of the EBDA's first KiB */
    put_rsdp(&low, 0xF0000, rsdt, true);
    struct acpi_problems pr = {0};
    struct acpi_rsdp r;
    assert_true(acpi_rsdp_scan(&low.w, &r, &pr));
    assert_int_equal(pr.count, 0);
    assert_int_equal(r.phys, 0x9FFF0);
    /* Past the first KiB of the EBDA is not searched. */
    memset(at(&low, 0x9FFF0), 0, 16);
    put_rsdp(&low, 0xA0000, rsdt, true);
    assert_true(acpi_rsdp_scan(&low.w, &r, &pr));
    assert_int_equal(r.phys, 0xF0000);
    image_free(&low);
    image_free(&src);
}

static void test_scan_nothing(void **state)
{
    (void)state;
    struct image low;
    image_alloc(&low, LOW_BASE, LOW_END - LOW_BASE);
    u16 seg = EBDA_SEG;
    memcpy(at(&low, 0x40E), &seg, 2);
    u32 n = acpi_discover(&info, &low.w, NULL);
    assert_int_equal(n, 1);
    assert_problem(&info.problems, "no valid RSDP in the EBDA (0x9fc00, first 1 KiB) or in 0xE0000-0xFFFFF");
    assert_false(info.has_rsdp);
    assert_contains(format_info(), "ACPI: no RSDP");
    image_free(&low);

    /* A window without the BDA or the BIOS area (e.g. tables only): no EBDA, and said so. */
    struct image im;
    madt_qemu(&madt_a, 4, 4);
    image_build(&im, 0, &madt_a, NULL);
    n = acpi_discover(&info, &im.w, NULL);
    assert_int_equal(n, 1);
    assert_problem(&info.problems, "no valid RSDP in 0xE0000-0xFFFFF (not all inside readable memory) (no EBDA");
    image_free(&im);
}

/* No RSDP anywhere: the reason names how the kernel was loaded, and the CPU list (smp/enumeration, smp/online)
 * carries it. GRUB's `multiboot` under UEFI is the common case: Multiboot 0.6.96 has no ACPI field and the
 * BIOS area is empty. */
static void test_no_rsdp_reason_by_protocol(void **state)
{
    (void)state;
    struct image low;
    image_alloc(&low, LOW_BASE, LOW_END - LOW_BASE);
    memset(&bi, 0, sizeof(bi));
    bi.protocol = BOOT_PROTO_MULTIBOOT1;
    bi.has_loader = true;
    strcpy(bi.loader, "GRUB 2.06-13+deb12u2"); /* what GRUB names itself in the multiboot1 boot_loader_name */
    acpi_discover(&info, &low.w, &bi);
    assert_false(info.has_rsdp);
    assert_string_equal(info.no_rsdp,
                        "no ACPI RSDP: multiboot1 under UEFI passes none; boot with multiboot2 to test every CPU");
    cpu_list_build(&cl, &info, NULL, 0, 0, false);
    assert_string_equal(cl.source, "boot CPU only");
    assert_int_equal(cl.ap_count, 0);
    assert_contains(cl.note, ACPI_NO_RSDP_MB1);
    assert_contains(cl.note, "use cpus=ID,...");

    strcpy(bi.loader, "qemu"); /* QEMU -kernel (SeaBIOS): BIOS-only, so no RSDP means no ACPI (-machine acpi=off) */
    acpi_discover(&info, &low.w, &bi);
    assert_contains(info.no_rsdp, "BIOS area holds none (no ACPI tables)");
    bi.has_loader = false;
    acpi_discover(&info, &low.w, &bi);
    assert_contains(info.no_rsdp, "no ACPI tables");

    bi.protocol = BOOT_PROTO_MULTIBOOT2; /* no ACPI tag */
    acpi_discover(&info, &low.w, &bi);
    assert_contains(info.no_rsdp, "multiboot2 loader passed no ACPI tag");
    bi.rsdp_v2_phys = 0xE0000; /* a tag that points at nothing valid */
    bi.rsdp_v2_len = 36;
    acpi_discover(&info, &low.w, &bi);
    assert_contains(info.no_rsdp, "ACPI tags hold no valid one");
    acpi_discover(&info, &low.w, NULL);
    assert_string_equal(info.no_rsdp, "no ACPI RSDP: none in the BIOS area");
    image_free(&low);

    struct image im; /* found: no reason */
    madt_qemu(&madt_a, 2, 2);
    image_build(&im, 0, &madt_a, NULL);
    discover_v1_tag(&im);
    assert_true(info.has_rsdp);
    assert_null(info.no_rsdp);
    image_free(&im);
}

/* A bad multiboot2 copy is reported; the next source is tried. */
static void test_mb2_bad_v2_then_v1(void **state)
{
    (void)state;
    struct image im;
    madt_qemu(&madt_a, 4, 4);
    image_build(&im, 0, &madt_a, NULL);
    memset(&bi, 0, sizeof(bi));
    bi.rsdp_v2_phys = im.rsdp + 16; /* no signature there */
    bi.rsdp_v2_len = 36;
    bi.rsdp_v1_phys = im.rsdp;
    bi.rsdp_v1_len = 20;
    u32 n = acpi_discover(&info, &im.w, &bi);
    assert_int_equal(n, 1);
    assert_problem(&info.problems, "RSDP at 0x7fe0010: signature");
    assert_string_equal(info.rsdp_source, "multiboot2 old RSDP tag");
    assert_true(info.has_madt);
    image_free(&im);
}

static void test_problem_overflow_is_counted(void **state)
{
    (void)state;
    struct image im;
    madt_begin(&madt_a, 1, APIC_BASE, 1);
    e_lapic(&madt_a, 0, 5, 1);
    for (u32 i = 1; i < ACPI_PROBLEMS_MAX + 4; i++)
        e_lapic(&madt_a, (u8)i, 0xFF, 1); /* one problem each: enabled with the broadcast ID */
    build_with_madt(&im);
    u32 n = discover_v1_tag(&im);
    assert_int_equal(n, ACPI_PROBLEMS_MAX + 3);
    assert_int_equal(info.problems.count, ACPI_PROBLEMS_MAX + 3);
    assert_int_equal(info.madt.cpu_enabled, 1);
    image_free(&im);
}

/* ---- fuzz: every byte of a valid set set to 0x00 and to 0xFF in turn ---- */

static void fuzz_set(struct image *im, bool v2)
{
    /* Every byte of the image lies under a checksum that is checked, except the RSDP's padding and, with an
     * XSDT, the RSDT and the MADT only it lists (the RSDT is read only when the XSDT is unusable). */
    const u64 rsdp_end = im->rsdp + im->rsdp_len;
    u32 runs = 0, flagged = 0;
    for (size_t i = 0; i < im->size; i++) {
        static const u8 values[] = {0x00, 0xFF};
        for (u32 k = 0; k < ARRAY_SIZE(values); k++) {
            const u8 old = im->buf[i];
            im->buf[i] = values[k];
            u32 n = v2 ? discover_v2_tag(im) : discover_v1_tag(im);
            const char *text = format_info();
            assert_true(strlen(text) < 2048);
            assert_true(info.madt.cpu_count <= ACPI_MAX_CPUS);
            assert_true(info.madt.cpu_enabled + info.madt.cpu_online_capable + info.madt.cpu_absent +
                            info.madt.cpu_duplicates + info.madt.cpu_invalid ==
                        info.madt.cpu_count);
            cpu_list_build(&cl, &info, NULL, 0, 0, k); /* never more APs than enabled entries */
            assert_true(cl.ap_count + cl.refused_count + cl.boot_listed <= info.madt.cpu_enabled);
            const u64 phys = im->base + i;
            bool covered = !(phys >= rsdp_end && phys < im->rsdp + 48);
            if (v2 && ((phys >= im->rsdt && phys < im->facp) || (phys >= im->madt_rsdt && phys < im->madt)))
                covered = false;
            if (covered && values[k] != old) {
                flagged++;
                if (n == 0)
                    fail_msg("byte 0x%llx changed 0x%02x->0x%02x without any problem reported",
                             (unsigned long long)phys, old, values[k]);
            }
            runs++;
            im->buf[i] = old;
        }
    }
    print_message("# fuzz: %u parses, %u checksummed-byte changes all reported\n", runs, flagged);
}

static void test_fuzz_rsdt_set(void **state)
{
    (void)state;
    struct image im;
    madt_qemu(&madt_a, 2, 4);
    image_build(&im, 0, &madt_a, NULL);
    assert_int_equal(discover_v1_tag(&im), 0);
    fuzz_set(&im, false);
    image_free(&im);
}

static void test_fuzz_xsdt_set(void **state)
{
    (void)state;
    struct image im;
    madt_x2(&madt_a, 5);
    madt_qemu(&madt_b, 1, 1);
    image_build(&im, 2, &madt_a, &madt_b);
    assert_int_equal(discover_v2_tag(&im), 0);
    fuzz_set(&im, true);
    image_free(&im);
}

/* ---- The CPU list as firmware writes it: lib/cpu_list.c on MADTs shaped like real ones ---- */

static bool cl_starts(u32 id)
{
    for (u32 i = 0; i < cl.ap_count; i++)
        if (cl.aps[i].apic_id == id)
            return true;
    return false;
}

static u32 cl_absent_times(u32 id)
{
    u32 n = 0;
    for (u32 i = 0; i < cl.absent_count; i++)
        n += cl.absent_ids[i] == id;
    return n;
}

/* 1. AMI/HP/Lenovo fill empty slots with absent entries of APIC ID 0, after the boot CPU's own entry. */
static void test_cpulist_placeholder_id0_keeps_boot_uid(void **state)
{
    (void)state;
    struct image im;
    madt_begin(&madt_a, 3, APIC_BASE, 1);
    e_lapic(&madt_a, 1, 0, 1); /* the boot CPU, UID 1 */
    e_lapic(&madt_a, 2, 2, 1);
    e_lapic(&madt_a, 3, 0, 0);     /* placeholders */
    e_x2apic(&madt_a, 0, 0, 0x77); /* last placeholder: an x2APIC entry with UID 0x77 */
    build_with_madt(&im);
    discover_v1_tag(&im);
    assert_no_problems(&info.problems);
    cpu_list_build(&cl, &info, NULL, 0, 0, false);
    assert_string_equal(cl.source, "ACPI MADT");
    assert_true(cl.boot_listed);
    assert_int_equal(cl.boot_uid, 1);
    assert_false(cl.boot_x2apic_entry);
    assert_int_equal(cl.ap_count, 1);
    assert_true(cl_starts(2));
    assert_int_equal(cl_absent_times(0), 0); /* ID 0 is the running boot CPU */
    image_free(&im);
}

/* 2. Dell Precision T3600: placeholders reuse enabled CPUs' IDs; repeated placeholders list one ID once. */
static void test_cpulist_placeholder_reusing_enabled_id_not_absent(void **state)
{
    (void)state;
    struct image im;
    madt_begin(&madt_a, 1, APIC_BASE, 1);
    e_lapic(&madt_a, 0, 0, 1);
    e_lapic(&madt_a, 1, 4, 1);
    e_lapic(&madt_a, 2, 4, 0); /* absent, same ID as the enabled CPU 4 */
    e_lapic(&madt_a, 3, 6, 0);
    e_lapic(&madt_a, 4, 6, 0);
    build_with_madt(&im);
    discover_v1_tag(&im);
    cpu_list_build(&cl, &info, NULL, 0, 0, false);
    assert_true(cl_starts(4));
    assert_int_equal(cl_absent_times(4), 0);
    assert_int_equal(cl_absent_times(6), 1);
    assert_int_equal(cl.absent_count, 1);
    image_free(&im);
}

/* 3. An online-capable entry before an enabled one of the same ID: the enabled one is the CPU to start. */
static void test_madt_online_capable_before_enabled_same_id(void **state)
{
    (void)state;
    struct image im;
    madt_begin(&madt_a, ACPI_MADT_ONLINE_CAPABLE_REV, APIC_BASE, 1);
    e_lapic(&madt_a, 0, 0, 1);
    e_lapic(&madt_a, 1, 1, ACPI_LAPIC_FLAG_ONLINE_CAPABLE);
    e_lapic(&madt_a, 2, 1, ACPI_LAPIC_FLAG_ENABLED);
    build_with_madt(&im);
    discover_v1_tag(&im);
    assert_true(info.madt.cpus[1].duplicate);
    assert_false(info.madt.cpus[2].duplicate);
    assert_int_equal(info.madt.cpu_enabled, 2);
    assert_int_equal(info.madt.cpu_online_capable, 0);
    cpu_list_build(&cl, &info, NULL, 0, 0, false);
    assert_int_equal(cl.ap_count, 1);
    assert_int_equal(cl.aps[0].apic_id, 1);
    assert_int_equal(cl.aps[0].acpi_uid, 2);
    assert_int_equal(cl.absent_count, 0);
    image_free(&im);
}

/* 4a. Enabled entries with the xAPIC broadcast ID 0xFF (type 0) or 0xFFFFFFFF (type 9) are not CPUs. */
static void test_madt_invalid_ids_rejected(void **state)
{
    (void)state;
    struct image im;
    madt_begin(&madt_a, 3, APIC_BASE, 1);
    e_lapic(&madt_a, 0, 0, 1);
    e_lapic(&madt_a, 1, 0xFF, 1);
    e_x2apic(&madt_a, 0xFFFFFFFFu, 1, 2);
    e_lapic(&madt_a, 3, 1, 1);
    build_with_madt(&im);
    discover_v1_tag(&im);
    assert_problem(&info.problems, "MADT entry at offset 0x34 (Local APIC): enabled with APIC ID 0xff");
    assert_problem(&info.problems, "MADT entry at offset 0x3c (Local x2APIC): enabled with APIC ID 0xffffffff");
    assert_int_equal(info.madt.cpu_enabled, 2);
    cpu_list_build(&cl, &info, NULL, 0, 0, true);
    assert_int_equal(cl.ap_count, 1);
    assert_true(cl_starts(1));
    assert_contains(format_info(), "2 invalid IDs ignored");
    image_free(&im);
}

/* 4b. x2APIC IDs above 255 cannot be reached in xAPIC mode: the ICR destination is 8 bits (SDM Vol.3A
 * 11.6.1), so such an IPI would go to ID (id & 0xFF)... or 0. Refused and reported, started in x2APIC mode. */
static void test_cpulist_x2apic_id_in_xapic_mode_refused(void **state)
{
    (void)state;
    struct image im;
    madt_begin(&madt_a, 4, APIC_BASE, 1); /* only type 9 entries, sparse IDs: Intel hybrid laptops */
    e_x2apic(&madt_a, 0, 1, 0);
    e_x2apic(&madt_a, 0x100, 1, 1);
    e_x2apic(&madt_a, 8, 1, 2);
    build_with_madt(&im);
    discover_v1_tag(&im);
    cpu_list_build(&cl, &info, NULL, 0, 0, false);
    assert_int_equal(cl.ap_count, 1);
    assert_true(cl_starts(8));
    assert_int_equal(cl.refused_count, 1);
    assert_int_equal(cl.refused_ids[0], 0x100);
    assert_contains(cl.note, "apic=x2apic");
    cpu_list_build(&cl, &info, NULL, 0, 0, true);
    assert_int_equal(cl.ap_count, 2);
    assert_true(cl_starts(0x100));
    assert_int_equal(cl.refused_count, 0);
    static const u32 opt[] = {0, 300, 255, 3};
    cpu_list_build(&cl, &info, opt, 4, 0, false); /* cpus= gets the same limits */
    assert_int_equal(cl.ap_count, 1);
    assert_true(cl_starts(3));
    assert_int_equal(cl.refused_count, 2);
    image_free(&im);
}

/* 5. A bad entry inside a table whose checksum is valid: no CPU from that table is started. */
static void test_cpulist_incomplete_madt_not_used(void **state)
{
    (void)state;
    struct image im;
    madt_begin(&madt_a, 1, APIC_BASE, 1);
    e_lapic(&madt_a, 0, 0, 1);
    e_lapic(&madt_a, 1, 1, 1);
    put8(&madt_a, 0), put8(&madt_a, 5); /* Local APIC entry of 5 bytes: the walk loses its alignment */
    put8(&madt_a, 0), put8(&madt_a, 8), put8(&madt_a, 9);
    e_lapic(&madt_a, 2, 2, 1);
    build_with_madt(&im);
    discover_v1_tag(&im);
    assert_false(info.madt.entries_complete);
    cpu_list_build(&cl, &info, NULL, 0, 0, false);
    assert_string_equal(cl.source, "boot CPU only");
    assert_int_equal(cl.ap_count, 0);
    assert_contains(cl.note, "MADT not trusted");
    static const u32 opt[] = {1, 2};
    cpu_list_build(&cl, &info, opt, 2, 0, false); /* the way out it names */
    assert_int_equal(cl.ap_count, 2);
    image_free(&im);
}

/* 6a. Every CPU listed both as a Local APIC and a Local x2APIC entry: one summary, not one problem each. */
static void test_madt_xapic_x2apic_pairs_summarised(void **state)
{
    (void)state;
    struct image im;
    madt_begin(&madt_a, 3, APIC_BASE, 1);
    for (u32 i = 0; i < 20; i++)
        e_lapic(&madt_a, (u8)i, (u8)i, 1);
    for (u32 i = 0; i < 20; i++)
        e_x2apic(&madt_a, i, 1, i);
    build_with_madt(&im);
    discover_v1_tag(&im);
    assert_int_equal(info.problems.count, 1);
    assert_problem(&info.problems, "MADT: 20 repeated APIC IDs ignored (20 Local APIC + x2APIC pairs), e.g. "
                                   "ID 0x0 at 0x2c+0xcc, ID 0x1 at 0x34+0xdc");
    assert_int_equal(info.madt.cpu_enabled, 20);
    assert_int_equal(info.madt.cpu_duplicates, 20);
    cpu_list_build(&cl, &info, NULL, 0, 0, true);
    assert_int_equal(cl.ap_count, 19);
    image_free(&im);
}

/* 6b. X299 boards: 36 absent 0xFF and 56 absent 0xFFFFFFFF placeholders, shown as counts. */
static void test_madt_placeholders_summarised(void **state)
{
    (void)state;
    struct image im;
    madt_begin(&madt_a, 3, APIC_BASE, 1);
    e_lapic(&madt_a, 0, 0, 1);
    e_lapic(&madt_a, 1, 1, 1);
    for (u32 i = 0; i < 36; i++)
        e_lapic(&madt_a, (u8)(2 + i), 0xFF, 0);
    for (u32 i = 0; i < 56; i++)
        e_x2apic(&madt_a, 0xFFFFFFFFu, 0, 100 + i);
    build_with_madt(&im);
    discover_v1_tag(&im);
    assert_no_problems(&info.problems);
    const char *text = format_info();
    print_diag(text);
    assert_contains(text, "absent 92: IDs 255 (36 entries),4294967295 (56 entries)\n");
    cpu_list_build(&cl, &info, NULL, 0, 0, true);
    assert_int_equal(cl.absent_count, 2);
    image_free(&im);
}

/* ---- FADT PM timer (ACPI 6.5 5.2.9 Table 5.9, 4.8.3.3) and HPET table (IA-PC HPET 1.0a 3.2.4) ---- */

struct fadt_spec {
    u8 rev;
    u32 len;       /* 116 (ACPI 1.0), 244 (ACPI 2.0+) or anything else */
    u32 pm_blk;    /* PM_TMR_BLK @76 */
    u8 pm_len;     /* PM_TMR_LEN @91 */
    u32 flags;     /* @112 */
    u8 x_space;    /* X_PM_TMR_BLK GAS @208 */
    u64 x_addr;
};

static void fadt_build(struct blob *t, const struct fadt_spec *f)
{
    sdt_begin(t, "FACP", f->rev);
    while (t->len < f->len)
        put8(t, 0);
    memcpy(t->b + 76, &f->pm_blk, 4);
    t->b[91] = f->pm_len;
    memcpy(t->b + 112, &f->flags, 4);
    if (f->len >= 220) {
        t->b[208] = f->x_space, t->b[209] = 32, t->b[211] = 3; /* 32 bits, dword access */
        memcpy(t->b + 212, &f->x_addr, 8);
    }
    sdt_end(t);
}

/* One table alone in a buffer of its exact size at IMG_BASE. */
static void image_of(struct image *im, const struct blob *t)
{
    image_alloc(im, IMG_BASE, t->len);
    memcpy(im->buf, t->b, t->len);
}

static bool fadt_parse_spec(const struct fadt_spec *spec, struct acpi_fadt *f, struct acpi_problems *pr)
{
    static struct blob t;
    struct image im;
    fadt_build(&t, spec);
    image_of(&im, &t);
    memset(pr, 0, sizeof(*pr));
    bool ok = acpi_fadt_parse(&im.w, IMG_BASE, f, pr);
    image_free(&im);
    return ok;
}

/* QEMU's PC FADT (hw/i386/acpi-build.c, PIIX4 PM at 0x600): revision 1, 116 bytes, PM_TMR_BLK 0x608. */
static void test_fadt_qemu_pc(void **state)
{
    (void)state;
    struct acpi_fadt f;
    struct acpi_problems pr;
    assert_true(fadt_parse_spec(&(struct fadt_spec){1, 116, 0x608, 4, 0, 0, 0}, &f, &pr));
    assert_int_equal(pr.count, 0);
    assert_true(f.pm_timer);
    assert_int_equal(f.pm_timer_port, 0x608);
    assert_int_equal(f.pm_timer_bits, 24);
    assert_string_equal(f.pm_timer_field, "PM_TMR_BLK");
}

/* ACPI 2.0+: X_PM_TMR_BLK supersedes PM_TMR_BLK; TMR_VAL_EXT makes it 32 bits. */
static void test_fadt_x_pm_timer(void **state)
{
    (void)state;
    struct acpi_fadt f;
    struct acpi_problems pr;
    assert_true(fadt_parse_spec(&(struct fadt_spec){3, 244, 0x608, 4, ACPI_FADT_TMR_VAL_EXT, ACPI_GAS_SYSTEM_IO, 0x608},
                                &f, &pr));
    assert_int_equal(pr.count, 0);
    assert_true(f.pm_timer);
    assert_int_equal(f.pm_timer_bits, 32);
    assert_string_equal(f.pm_timer_field, "X_PM_TMR_BLK");
    /* The two fields differ: X used, reported. */
    assert_true(fadt_parse_spec(&(struct fadt_spec){3, 244, 0x408, 4, 0, ACPI_GAS_SYSTEM_IO, 0x1808}, &f, &pr));
    assert_int_equal(pr.count, 1);
    assert_int_equal(f.pm_timer_port, 0x1808);
    assert_non_null(strstr(pr.msg[0], "differ"));
    /* X address 0: PM_TMR_BLK. A revision-3 table cut short before X_PM_TMR_BLK: PM_TMR_BLK too. */
    assert_true(fadt_parse_spec(&(struct fadt_spec){3, 244, 0x408, 4, 0, ACPI_GAS_SYSTEM_IO, 0}, &f, &pr));
    assert_int_equal(f.pm_timer_port, 0x408);
    assert_true(fadt_parse_spec(&(struct fadt_spec){3, 132, 0x408, 4, 0, 0, 0}, &f, &pr));
    assert_int_equal(f.pm_timer_port, 0x408);
    assert_int_equal(pr.count, 0);
}

/* PM timers this kernel cannot or must not use: reported (or, where the spec allows it, only noted). */
static void test_fadt_no_pm_timer(void **state)
{
    (void)state;
    struct acpi_fadt f;
    struct acpi_problems pr;
    assert_true(fadt_parse_spec(&(struct fadt_spec){3, 244, 0, 0, 0, ACPI_GAS_SYSTEM_MEMORY, 0xFED00000}, &f, &pr));
    assert_false(f.pm_timer);
    assert_int_equal(pr.count, 1);
    assert_non_null(strstr(pr.msg[0], "not system I/O"));
    assert_true(fadt_parse_spec(&(struct fadt_spec){3, 244, 0, 0, 0, ACPI_GAS_SYSTEM_IO, 0x10008}, &f, &pr));
    assert_false(f.pm_timer);
    assert_non_null(strstr(pr.msg[0], "above 0xFFFF"));
    assert_true(fadt_parse_spec(&(struct fadt_spec){1, 116, 0x608, 2, 0, 0, 0}, &f, &pr)); /* PM_TMR_LEN must be 4 */
    assert_false(f.pm_timer);
    assert_int_equal(pr.count, 1);
    /* Not a problem: a platform without one. */
    assert_true(fadt_parse_spec(&(struct fadt_spec){1, 116, 0, 0, 0, 0, 0}, &f, &pr));
    assert_false(f.pm_timer);
    assert_int_equal(pr.count, 0);
    assert_non_null(strstr(f.no_pm_timer, "no PM timer"));
    assert_true(fadt_parse_spec(&(struct fadt_spec){5, 244, 0x608, 4, ACPI_FADT_HW_REDUCED, ACPI_GAS_SYSTEM_IO, 0x608},
                                &f, &pr));
    assert_false(f.pm_timer);
    assert_int_equal(pr.count, 0);
    assert_non_null(strstr(f.no_pm_timer, "HW-reduced"));
}

static void test_fadt_bad_tables(void **state)
{
    (void)state;
    static struct blob t;
    struct image im;
    struct acpi_fadt f;
    struct acpi_problems pr;
    memset(&f, 0x5A, sizeof(f));
    assert_false(fadt_parse_spec(&(struct fadt_spec){1, 100, 0x608, 4, 0, 0, 0}, &f, &pr)); /* < 116 bytes */
    assert_non_null(strstr(pr.msg[0], "shorter"));
    fadt_build(&t, &(struct fadt_spec){1, 116, 0x608, 4, 0, 0, 0});
    t.b[9] ^= 1;
    image_of(&im, &t);
    memset(&pr, 0, sizeof(pr));
    assert_false(acpi_fadt_parse(&im.w, IMG_BASE, &f, &pr));
    assert_non_null(strstr(pr.msg[0], "checksum"));
    image_free(&im);
    fadt_build(&t, &(struct fadt_spec){1, 116, 0x608, 4, 0, 0, 0});
    memcpy(t.b + 4, &(u32){200}, 4); /* a length past the buffer */
    acpi_test_checksum(t.b, t.len, 9);
    image_of(&im, &t);
    memset(&pr, 0, sizeof(pr));
    assert_false(acpi_fadt_parse(&im.w, IMG_BASE, &f, &pr));
    assert_non_null(strstr(pr.msg[0], "outside"));
    assert_false(acpi_fadt_parse(&im.w, IMG_BASE + 8, &f, &pr)); /* header outside */
    image_free(&im);
    assert_int_equal(f.pm_timer_port, 0x5A5A); /* untouched on failure */
}

static void hpet_build(struct blob *t, u8 space, u64 addr, u32 len)
{
    sdt_begin(t, "HPET", 1);
    put32(t, 0x8086A201); /* QEMU's Event Timer Block ID */
    put8(t, space), put8(t, 64), put8(t, 0), put8(t, 0), put64(t, addr);
    put8(t, 0), put16(t, 0x80), put8(t, 0); /* number, minimum tick, page protection */
    t->len = len;
    sdt_end(t);
}

static bool hpet_parse_table(u8 space, u64 addr, u32 len, struct acpi_hpet *h, struct acpi_problems *pr)
{
    static struct blob t;
    struct image im;
    hpet_build(&t, space, addr, len);
    image_of(&im, &t);
    memset(pr, 0, sizeof(*pr));
    bool ok = acpi_hpet_parse(&im.w, IMG_BASE, h, pr);
    image_free(&im);
    return ok;
}

static void test_hpet_table(void **state)
{
    (void)state;
    struct acpi_hpet h;
    struct acpi_problems pr;
    assert_true(hpet_parse_table(ACPI_GAS_SYSTEM_MEMORY, 0xFED00000, 56, &h, &pr));
    assert_int_equal(pr.count, 0);
    assert_int_equal(h.address, 0xFED00000);
    assert_int_equal(h.block_id, 0x8086A201);
    assert_int_equal(h.min_tick, 0x80);
    assert_false(hpet_parse_table(ACPI_GAS_SYSTEM_IO, 0xFED00000, 56, &h, &pr));
    assert_non_null(strstr(pr.msg[0], "not system memory"));
    assert_false(hpet_parse_table(ACPI_GAS_SYSTEM_MEMORY, 0, 56, &h, &pr));
    assert_false(hpet_parse_table(ACPI_GAS_SYSTEM_MEMORY, 0xFED00200, 56, &h, &pr));
    assert_non_null(strstr(pr.msg[0], "aligned"));
    assert_false(hpet_parse_table(ACPI_GAS_SYSTEM_MEMORY, 0xFED00000, 52, &h, &pr)); /* cut short */
    assert_non_null(strstr(pr.msg[0], "shorter"));
}

/* Every byte of a valid FADT and HPET table changed in turn (to 0x00, 0xFF, and +1): the table is refused with a
 * problem, never half-used, and nothing is read outside it (ASan). */
static void test_fuzz_fadt_hpet(void **state)
{
    (void)state;
    static struct blob fadt, hpet;
    fadt_build(&fadt, &(struct fadt_spec){3, 244, 0x608, 4, 0, ACPI_GAS_SYSTEM_IO, 0x608});
    struct acpi_hpet h;
    struct acpi_problems pr;
    hpet_build(&hpet, ACPI_GAS_SYSTEM_MEMORY, 0xFED00000, 56);
    const struct blob *tables[] = {&fadt, &hpet};
    u32 runs = 0;
    for (u32 t = 0; t < ARRAY_SIZE(tables); t++) {
        struct image im;
        image_of(&im, tables[t]);
        for (u32 i = 0; i < im.size; i++) {
            const u8 old = im.buf[i], values[] = {0x00, 0xFF, (u8)(old + 1)};
            for (u32 k = 0; k < ARRAY_SIZE(values); k++) {
                if (values[k] == old)
                    continue;
                im.buf[i] = values[k];
                struct acpi_fadt f;
                memset(&pr, 0, sizeof(pr));
                bool ok = t == 0 ? acpi_fadt_parse(&im.w, IMG_BASE, &f, &pr) : acpi_hpet_parse(&im.w, IMG_BASE, &h, &pr);
                if (ok || pr.count == 0)
                    fail_msg("table %u byte %u 0x%02x->0x%02x: %s", t, i, old, values[k],
                             ok ? "accepted" : "refused without a problem");
                runs++;
                im.buf[i] = old;
            }
        }
        image_free(&im);
    }
    print_message("# fuzz: %u FADT/HPET parses, every changed byte refused and reported\n", runs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fadt_qemu_pc),
        cmocka_unit_test(test_fadt_x_pm_timer),
        cmocka_unit_test(test_fadt_no_pm_timer),
        cmocka_unit_test(test_fadt_bad_tables),
        cmocka_unit_test(test_hpet_table),
        cmocka_unit_test(test_fuzz_fadt_hpet),
        cmocka_unit_test(test_qemu_i440fx_rsdt),
        cmocka_unit_test(test_qemu_maxcpus),
        cmocka_unit_test(test_acpi2_xsdt_x2apic),
        cmocka_unit_test(test_online_capable_needs_rev5),
        cmocka_unit_test(test_v2_rsdp_in_20_byte_copy),
        cmocka_unit_test(test_bad_xsdt_falls_back_to_rsdt),
        cmocka_unit_test(test_rsdp_bad_checksum),
        cmocka_unit_test(test_rsdp_bad_extended_checksum),
        cmocka_unit_test(test_rsdp_bad_signature_and_outside),
        cmocka_unit_test(test_rsdp_v2_length_bad),
        cmocka_unit_test(test_rsdt_outside_memory),
        cmocka_unit_test(test_rsdt_length_below_header),
        cmocka_unit_test(test_rsdt_length_not_whole_entries),
        cmocka_unit_test(test_rsdt_entry_outside_and_null),
        cmocka_unit_test(test_table_past_window),
        cmocka_unit_test(test_madt_bad_checksum),
        cmocka_unit_test(test_madt_entry_length_zero),
        cmocka_unit_test(test_madt_entry_shorter_than_type),
        cmocka_unit_test(test_madt_entry_past_table_end),
        cmocka_unit_test(test_madt_stray_byte),
        cmocka_unit_test(test_madt_truncated_header),
        cmocka_unit_test(test_madt_too_many_processors),
        cmocka_unit_test(test_madt_duplicate_apic_id),
        cmocka_unit_test(test_madt_no_enabled_cpu),
        cmocka_unit_test(test_madt_second_override_and_unknown_types),
        cmocka_unit_test(test_scan_bad_first_good_later),
        cmocka_unit_test(test_scan_ebda_first),
        cmocka_unit_test(test_scan_nothing),
        cmocka_unit_test(test_no_rsdp_reason_by_protocol),
        cmocka_unit_test(test_mb2_bad_v2_then_v1),
        cmocka_unit_test(test_problem_overflow_is_counted),
        cmocka_unit_test(test_cpulist_placeholder_id0_keeps_boot_uid),
        cmocka_unit_test(test_cpulist_placeholder_reusing_enabled_id_not_absent),
        cmocka_unit_test(test_madt_online_capable_before_enabled_same_id),
        cmocka_unit_test(test_madt_invalid_ids_rejected),
        cmocka_unit_test(test_cpulist_x2apic_id_in_xapic_mode_refused),
        cmocka_unit_test(test_cpulist_incomplete_madt_not_used),
        cmocka_unit_test(test_madt_xapic_x2apic_pairs_summarised),
        cmocka_unit_test(test_madt_placeholders_summarised),
        cmocka_unit_test(test_fuzz_rsdt_set),
        cmocka_unit_test(test_fuzz_xsdt_set),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
