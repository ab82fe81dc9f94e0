/* Suite "boot": what the loader handed over, and the long-mode environment each CPU runs in. */
#include <string.h>

#include "kernel/boot_state.h"
#include "kernel/percpu.h"
#include "kernel/timing.h"
#include "kernel/x86.h"
#include "harness/framework.h"

static void boot_info_check(struct check *c)
{
    check_note(c, "loader", "%s", boot_state()->info.has_loader ? boot_state()->info.loader : "(none)");
    for (u32 i = 0; i < boot_state()->info.problem_count && i < BOOT_PROBLEMS_MAX; i++) {
        char key[16];
        k_snprintf(key, sizeof(key), "problem %u", i + 1);
        check_note(c, key, "%s", boot_state()->info.problems[i]);
    }
    expect_true(c, "protocol", boot_state()->info.protocol != BOOT_PROTO_UNKNOWN, "multiboot1 or multiboot2", "%s",
                boot_protocol_name(boot_state()->info.protocol));
    expect_eq_dec(c, "problems", 0, boot_state()->info.problem_count);
}

/* The image must sit inside RAM the loader reports as available (Multiboot mmap type 1). */
static void memory_map_check(struct check *c)
{
    u64 start = (u64)__image_start, end = (u64)__image_end, avail = 0;
    bool inside = false;
    for (u32 i = 0; i < boot_state()->info.mmap_count; i++) {
        const struct mem_region *r = &boot_state()->info.mmap[i];
        if (r->type != MEM_AVAILABLE)
            continue;
        avail += r->length;
        if (start >= r->base && end <= r->base + r->length)
            inside = true;
    }
    check_note(c, "regions", "%u", boot_state()->info.mmap_count);
    check_note(c, "available_kib", "%llu", (unsigned long long)(avail >> 10));
    if (!expect_true(c, "memory map present", boot_state()->info.mmap_count > 0, "at least one region", "%u regions",
                     boot_state()->info.mmap_count))
        return;
    expect_true(c, "image in available RAM", inside, "inside one available region", "image 0x%llx-0x%llx %s",
                (unsigned long long)start, (unsigned long long)end, inside ? "inside" : "outside every one");
}

/* SDM Vol.3A 10.8.5: long mode active means CR0.PG, CR4.PAE, EFER.LME and EFER.LMA all set. CR0.CD/NW clear:
 * SDM Vol.3A 12.5.1 Table 12-5 normal cache mode. */
static void long_mode_check(struct check *c)
{
    u64 efer = rdmsr(MSR_EFER);
    expect_eq(c, "EFER.LMA", 1, (efer & EFER_LMA) != 0);
    expect_eq(c, "EFER.LME", 1, (efer & EFER_LME) != 0);
    expect_eq(c, "CR0.PG", 1, (read_cr0() & CR0_PG) != 0);
    /* boot/long_mode.inc clears CD and NW: counts of the events suite (and every timing) assume caching. */
    expect_eq(c, "CR0.CD/NW (caching enabled)", 0, (read_cr0() & (CR0_CD | CR0_NW)) >> 29);
    expect_eq(c, "CR4.PAE", 1, (read_cr4() & CR4_PAE) != 0);
    struct cpu *cpu = this_cpu();
    u64 cs_desc = cpu->gdt[read_cs() >> 3];
    expect_eq(c, "CS.L", 1, (cs_desc >> 53) & 1); /* SDM Vol.3A 3.4.5: L flag */
}

/* Walk the live page tables for one linear address; returns the leaf entry (0 if not present). */
static u64 leaf_entry(u64 va, u32 *level)
{
    const u64 *table = (const u64 *)(read_cr3() & ~0xFFFull);
    for (int shift = 39; shift >= 12; shift -= 9) {
        u64 e = table[(va >> shift) & 511];
        *level = (u32)shift;
        if (!(e & 1) || shift == 12 || (e & BIT(7)))
            return e & 1 ? e : 0;
        table = (const u64 *)(e & 0x000FFFFFFFFFF000ull);
    }
    return 0;
}

/* The identity map covers 0..4 GiB; the APIC and IOAPIC pages are uncached (PCD|PWT, SDM Vol.3A 12.4.1). */
static void paging_check(struct check *c)
{
    static const struct {
        const char *what;
        u64 va;
        bool uncached;
    } probes[] = {
        {"page 0x0", 0x0, false},
        {"kernel 0x100000", 0x100000, false},
        {"top 0xFFFFF000", 0xFFFFF000ull, true},
        {"IOAPIC 0xFEC00000", 0xFEC00000ull, true},
        {"LAPIC 0xFEE00000", 0xFEE00000ull, true},
    };
    for (u32 i = 0; i < ARRAY_SIZE(probes); i++) {
        u32 level = 0;
        u64 e = leaf_entry(probes[i].va, &level);
        u64 frame = level == 21 ? e & 0x000FFFFFFFE00000ull : e & 0x000FFFFFFFFFF000ull;
        u64 mask = level == 21 ? 0x1FFFFFull : 0xFFFull;
        char what[48];
        k_snprintf(what, sizeof(what), "%s identity", probes[i].what);
        expect_eq(c, what, probes[i].va & ~mask, e ? frame : ~0ull);
        k_snprintf(what, sizeof(what), "%s PCD|PWT", probes[i].what);
        expect_eq(c, what, probes[i].uncached ? 3 : 0, (e >> 3) & 3);
    }
}

static void descriptors_check(struct check *c)
{
    struct cpu *cpu = this_cpu();
    struct {
        u16 limit;
        u64 base;
    } PACKED idtr;
    u16 tr;
    asm volatile("sidt %0" : "=m"(idtr));
    asm volatile("str %0" : "=r"(tr));
    expect_eq(c, "IDT limit", 256 * 16 - 1, idtr.limit);
    expect_eq(c, "TR", SEL_TSS, tr);
    expect_eq(c, "GS base", (u64)cpu, rdmsr(MSR_GS_BASE));
    const u8 *gates = (const u8 *)idtr.base;
    u32 present = 0;
    for (u32 v = 0; v < 32; v++)
        present += (gates[v * 16 + 5] >> 7) & 1;
    expect_eq_dec(c, "present exception gates", 32, present);
    expect_eq_dec(c, "#DF gate IST", IST_DF, gates[8 * 16 + 4] & 7);
    expect_true(c, "TSS IST1 stack", cpu->tss.ist[0] != 0, "non-zero", "0x%llx",
                (unsigned long long)cpu->tss.ist[0]);
}

/* The TSC frequency and the clocks it was measured against (kernel/timing.c, lib/clock_select.c): every source
 * with its state and measurement, the choice, and how the others agree with it. Fails when nothing trustworthy
 * measured the TSC (no clock ticks, only CPUID 16H's nominal frequency) or when trusted clocks disagree. */
static void clocks_check(struct check *c)
{
    for (u32 i = 0; i < CLOCK_COUNT; i++) {
        const struct clock_meas *m = &timing.meas[i];
        if (m->state == CLOCK_OK && timing.counters[i].present)
            check_note(c, clock_name(i), "%llu Hz, uncertainty %llu ppm (spread %llu ppm); %s",
                       (unsigned long long)m->tsc_hz, (unsigned long long)m->uncertainty_ppm,
                       (unsigned long long)m->spread_ppm, m->note);
        else if (m->state == CLOCK_OK)
            check_note(c, clock_name(i), "%llu Hz; %s", (unsigned long long)m->tsc_hz, m->note);
        else
            check_note(c, clock_name(i), "%s: %s", clock_state_name(m->state), m->note);
    }
    for (u32 i = 0; i < timing.problems.count && i < ACPI_PROBLEMS_MAX; i++) {
        char key[24];
        k_snprintf(key, sizeof(key), "table problem %u", i + 1);
        check_note(c, key, "%s", timing.problems.msg[i]);
    }
    check_note(c, "tsc", "%llu Hz from %s", (unsigned long long)timing.tsc_hz, timing.choice.summary);
    check_note(c, "invariant TSC", "%s", timing.invariant ? "yes (CPUID 0x80000007 EDX[8])" : "no");
    if (timing.tsc_hz)
        check_note(c, "measuring took", "%llu ms", (unsigned long long)(timing.init_tsc / (timing.tsc_hz / 1000)));
    expect_true(c, "TSC frequency measured against a trusted clock",
                timing.tsc_hz && timing.source != CLOCK_CPUID16 && timing.source < CLOCK_COUNT,
                "HPET, PM timer, PIT or CPUID 15H", "%s%s%s", clock_name(timing.source),
                timing.choice.problem[0] ? ": " : "", timing.choice.problem);
    expect_eq_dec(c, "trusted clocks disagreeing with the chosen one", 0, timing.choice.disagree);
    expect_eq_dec(c, "FADT and HPET table problems", 0, timing.problems.count);
}

static const struct check_def boot_checks[] = {
    {"boot_info", boot_info_check, SCOPE_GLOBAL, NO_FAULT},
    {"memory_map", memory_map_check, SCOPE_GLOBAL, NO_FAULT},
    {"clocks", clocks_check, SCOPE_GLOBAL, NO_FAULT},
    {"long_mode", long_mode_check, SCOPE_PER_CPU, NO_FAULT},
    {"paging", paging_check, SCOPE_PER_CPU, NO_FAULT},
    {"descriptors", descriptors_check, SCOPE_PER_CPU, NO_FAULT},
};

const struct suite suite_boot = {"boot", "what the loader handed over; long mode, paging, descriptors per CPU",
                                 true, SUITE_CHECKS(boot_checks)};
