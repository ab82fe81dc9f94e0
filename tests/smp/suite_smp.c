/* Suite "smp": every enumerated hardware thread came online; IDs agree across the MADT, CPUID and the APIC;
 * topology; CPUID feature leaves agree with the boot CPU (per core type on hybrid parts). */
#include <string.h>

#include "apic/apic.h"
#include "kernel/cpuid_hw.h"
#include "kernel/enumerate.h"
#include "kernel/boot_state.h"
#include "emul/kernel/pmu_emul.h"
#include "harness/report.h"
#include "kernel/smp.h"
#include "kernel/timing.h"
#include "tests/smp/portable/topology.h"
#include "kernel/x86.h"
#include "harness/test_util.h"
#include "tests/smp/portable/features_compare.h"
#include "harness/framework.h"
#include "kernel/percpu_array.h"

static void enumeration_check(struct check *c)
{
    check_note(c, "source", "%s", smp.enumeration);
    if (smp.enumeration_note[0])
        check_note(c, "note", "%s", smp.enumeration_note);
    if (g_acpi.has_rsdp)
        check_note(c, "rsdp", "%s at 0x%llx, revision %u", g_acpi.rsdp_source,
                   (unsigned long long)g_acpi.rsdp.phys, g_acpi.rsdp.revision);
    if (g_acpi.has_madt)
        check_note(c, "madt", "%u processor entries: %u enabled, %u online-capable, %u absent; APIC at 0x%llx",
                   g_acpi.madt.cpu_total, g_acpi.madt.cpu_enabled, g_acpi.madt.cpu_online_capable,
                   g_acpi.madt.cpu_absent, (unsigned long long)g_acpi.madt.lapic_addr);
    /* An MADT that is present but not trusted (walk stopped at a malformed entry) leaves the boot CPU only:
     * that must show as a failure, not pass because a table exists. */
    expect_true(c, "CPU list", !strcmp(smp.enumeration, "ACPI MADT") || !strcmp(smp.enumeration, "cpus= option"),
                "from the ACPI MADT or cpus=", "%s", smp.enumeration);
    for (u32 i = 0; i < g_cpu_list.refused_count && i < CPU_LIST_REFUSED_MAX; i++) {
        char key[16];
        k_snprintf(key, sizeof(key), "refused %u", i + 1);
        check_note(c, key, "APIC ID 0x%x listed but not startable in %s mode", g_cpu_list.refused_ids[i],
                   apic_mode_name(apic_mode()));
    }
    expect_eq_dec(c, "listed CPUs that cannot be started", 0, g_cpu_list.refused_count);
    /* A CPU that is not tested is a finding, never a silent omission: entries past what this build keeps. */
    char ids[96] = "";
    struct strbuf sb;
    sb_init(&sb, ids, sizeof(ids));
    for (u32 i = 0; i < smp.dropped && i < ARRAY_SIZE(smp.dropped_ids); i++)
        sb_printf(&sb, "%s0x%x", i ? " " : "", smp.dropped_ids[i]);
    u32 unkept = g_acpi.has_madt ? g_acpi.madt.cpu_total - g_acpi.madt.cpu_count : 0;
    if (smp.dropped || unkept)
        check_note(c, "not tested", "%u APs past the %u CPUs whose state fits (APIC IDs %s%s); %u MADT processor "
                   "entries beyond the %u it keeps", smp.dropped, smp.capacity, ids, smp.dropped > 8 ? " ..." : "",
                   unkept, ACPI_MAX_CPUS);
    if (smp.dropped)
        check_note(c, "why they do not fit", "%s", smp.dropped_why);
    expect_eq_dec(c, "listed CPUs not tested (beyond this build's limits)", 0, smp.dropped + unkept);
}

/* ACPI 6.5 5.2: every table used had a valid checksum and length, every MADT entry fit the table. */
static void acpi_tables_check(struct check *c)
{
    for (u32 i = 0; i < g_acpi.problems.count && i < ARRAY_SIZE(g_acpi.problems.msg); i++) {
        char key[16];
        k_snprintf(key, sizeof(key), "problem %u", i + 1);
        check_note(c, key, "%s", g_acpi.problems.msg[i]);
    }
    if (!g_acpi.has_rsdp)
        return check_skip(c, "%s", g_acpi.no_rsdp);
    expect_eq_dec(c, "ACPI problems", 0, g_acpi.problems.count);
}

static const char *state_name(enum cpu_state s)
{
    switch (s) {
    case CPU_ONLINE:
        return "online";
    case CPU_PENDING:
        return "pending";
    case CPU_NO_ANSWER:
        return "did not arrive";
    case CPU_UNRESPONSIVE:
        return "stopped answering";
    case CPU_NO_MEMORY:
        return "not started: no available memory for its stacks";
    default:
        return "absent";
    }
}

/* Every CPU we tried to start arrived within ap_timeout_ms; listed-but-disabled CPUs are only noted. */
static void online_check(struct check *c)
{
    u32 online = smp_online_count();
    check_note(c, "mode", "%s, init delay %llu us (%s), AP timeout %u ms",
               smp.mode == SMP_SERIAL ? "serial" : "parallel", (unsigned long long)smp.init_delay_us,
               smp.init_delay_auto ? "by CPU family" : "init_delay_us=", smp.ap_timeout_ms);
    if (smp.count > 1) {
        u64 slowest = 0;
        u32 late = 0;
        for (u32 i = 1; i < smp.count; i++) {
            const struct smp_cpu_info *ci = &smp.cpu[i];
            if (ci->state == CPU_ONLINE) {
                u64 us = tsc_to_us(ci->arrival_tsc - smp.first_init_tsc);
                slowest = MAX(slowest, us);
                late += ci->arrival_tsc > smp.all_online_tsc;
                report_debug("cpu%u APIC ID %u arrived %llu us after the first INIT", i, ci->apic_id,
                             (unsigned long long)us);
            } else {
                /* A run of CPUs in the same state with consecutive APIC IDs is one line (288 vCPUs in 32 MiB leave
                 * 120 without memory: a line each outgrew the check's evidence). */
                u32 j = i;
                while (j + 1 < smp.count && smp.cpu[j + 1].state == ci->state &&
                       smp.cpu[j + 1].apic_id == ci->apic_id + (j + 1 - i))
                    j++;
                char key[40];
                if (j == i) {
                    k_snprintf(key, sizeof(key), "apic id %u", ci->apic_id);
                    check_note(c, key, "cpu%u %s", i, state_name(ci->state));
                } else {
                    k_snprintf(key, sizeof(key), "apic ids %u..%u", ci->apic_id, smp.cpu[j].apic_id);
                    check_note(c, key, "cpu%u..cpu%u (%u CPUs) %s", i, j, j - i + 1, state_name(ci->state));
                }
                i = j;
            }
        }
        check_note(c, "bring_up_us", "%llu (first INIT to all online)",
                   (unsigned long long)tsc_to_us(smp.all_online_tsc - smp.first_init_tsc));
        check_note(c, "slowest_arrival_us", "%llu", (unsigned long long)slowest);
        if (late) /* they answer and are tested; the header's count was taken before they came */
            check_note(c, "arrived after the wait", "%u APs came online after the arrival wait ended (their SIPI "
                       "was answered late: %s)", late,
                       boot_state()->ident.hypervisor_bit ? "vCPUs not scheduled" : "slow firmware or microcode on the way");
        check_note(c, "arrival wait",
                   "%llu ms; %s", (unsigned long long)tsc_to_us(smp.wait_tsc) / 1000,
                   !boot_state()->ident.hypervisor_bit
                       ? "bare metal: ap_timeout_ms from the SIPIs"
                   : smp.wait_extended
                       ? "hypervisor: past ap_timeout_ms while APs kept arriving; ends after ap_timeout_ms with none "
                         "(at most 20 x)"
                       : "hypervisor: within ap_timeout_ms (it would go on while APs kept arriving)");
    }
    for (u32 i = 0; i < smp.absent_count; i++) {
        char key[24];
        k_snprintf(key, sizeof(key), "absent %u", i + 1);
        check_note(c, key, "APIC ID %u listed but not enabled: not started (not a failure)", smp.absent_ids[i]);
    }
    if (!strcmp(smp.enumeration, "boot CPU only")) /* e.g. no RSDP under multiboot1: say what would find the rest */
        check_note(c, "boot CPU only", "%s", smp.enumeration_note);
    expect_eq_dec(c, "CPUs online", smp.count, online);
    expect_eq_dec(c, "APs with an unlisted APIC ID", 0, smp.strays);
}

/* One APIC ID per thread, and every source agrees: the MADT (or cpus=), CPUID.01H:EBX[31:24] (the low 8
 * bits of the initial APIC ID), CPUID.0BH:EDX (x2APIC ID), and the APIC ID register (SDM Vol.3A 11.4.6). */
static void identity_check(struct check *c)
{
    struct cpu *cpu = this_cpu();
    u32 listed = smp.cpu[cpu->index].apic_id;
    u32 a, b, cc, d;
    cpuid_count(1, 0, &a, &b, &cc, &d);
    expect_eq(c, "APIC ID register", listed, apic_id());
    /* SDM Vol.2A CPUID: EBX[31:24] is the initial APIC ID (its low 8 bits when the x2APIC ID is wider,
     * SDM Vol.3A 11.12.8); EBX[23:16] is an 8-bit count of addressable logical processor IDs. */
    u32 failures_before = c->failures;
    expect_eq(c, "CPUID.01H:EBX[31:24]", listed & 0xFF, b >> 24);
    bool ebx_bad = c->failures > failures_before;
    u32 x2id;
    if (cpuid_x2apic_id(&x2id))
        expect_eq(c, "CPUID.0BH:EDX", listed, x2id);
    else
        check_note(c, "CPUID.0BH", "absent or invalid on this CPU");
    if (ebx_bad && failures_before == 0 && c->failures == 1)
        todo_if_qemu_cpuid1_overflow(c, b, listed);
}

/* Feature leaves compared with a reference thread: the boot CPU, or on hybrid parts the first thread of the same
 * kind (the whole CPUID.1AH:EAX). Bits that legitimately differ per thread are masked out (tests/smp/portable/features_compare.c,
 * each mask with its source). Under pmu=emulated the leaves are the ones this thread presents to the PMU code
 * (pmu_emul_cpuid: the kind's PMU leaves, a hybrid kind's core type included, over the real CPU's), so the threads
 * are grouped by the emulated kind of core, and the verdict is marked [emulated PMU]. */
#define MAX_CORE_KINDS 8
static struct {
    bool valid;
    u32 cpu_index;
    struct features_snapshot f;
} references[MAX_CORE_KINDS];

static void features_check(struct check *c)
{
    struct features_snapshot now;
    const struct cpuid_source *src = &cpuid_hw;
    if (g_pmu_emulated) {
        src = pmu_emul_cpuid();
        pmu_emul_mark_use();
    }
    features_read(src, &now);
    u32 slot = 0;
    while (slot < MAX_CORE_KINDS && references[slot].valid && references[slot].f.kind != now.kind)
        slot++;
    if (slot == MAX_CORE_KINDS)
        return check_fail(c, "more than %u core kinds (CPUID.1AH:EAX values)", MAX_CORE_KINDS);
    if (!references[slot].valid) {
        references[slot].valid = true;
        references[slot].cpu_index = this_cpu()->index;
        references[slot].f = now;
    }
    check_note(c, "reference", "cpu%u (CPUID.1AH:EAX 0x%08x%s)", references[slot].cpu_index, now.kind,
               now.kind ? ": core type and native model" : ": not hybrid");
    struct features_diff diffs[8];
    u32 differing = features_compare(&references[slot].f, &now, diffs, ARRAY_SIZE(diffs));
    static const char regs[4][4] = {"EAX", "EBX", "ECX", "EDX"};
    for (u32 i = 0; i < MIN(differing, ARRAY_SIZE(diffs)); i++) {
        const struct features_probe *p = &features_probes[diffs[i].probe];
        char what[32];
        k_snprintf(what, sizeof(what), "CPUID.%s:%s", p->name, regs[diffs[i].reg]);
        check_note(c, what, "reference 0x%08x, this CPU 0x%08x (compared bits 0x%08x)", diffs[i].reference,
                   diffs[i].value, p->mask[diffs[i].reg]);
    }
    expect_eq_dec(c, "registers differing from the reference", 0, differing);
}

/* The topology table: each thread's IDs decoded from its own CPUID; every (package, die, ..., SMT) tuple
 * must be unique and every thread must use the same decoding source. */
PER_CPU_ARRAY(struct topology, topo);
PER_CPU_ARRAY(bool, topo_online);
static void collect_topology(void *arg)
{
    (void)arg;
    topology_decode(&topo[this_cpu()->index], &cpuid_hw);
}

static void topology_check(struct check *c)
{
    u32 n = 0, dup = 0, mixed = 0;
    for (u32 i = 0; i < smp.count; i++)
        if (smp.cpu[i].state == CPU_ONLINE && smp_run_on(i, collect_topology, NULL, 1000))
            n++;
    report_comment("topology (%s): cpu apic_id package die tile module core smt core_type", topo[0].source);
    for (u32 i = 0; i < smp.count; i++) {
        topo_online[i] = smp.cpu[i].state == CPU_ONLINE;
        if (!topo_online[i])
            continue;
        const struct topology *t = &topo[i];
        report_comment("  cpu%-3u 0x%-6x %7u %3u %4u %6u %4u %3u 0x%02x", i, t->apic_id, t->id[TOPO_PACKAGE],
                       t->id[TOPO_DIE], t->id[TOPO_TILE], t->id[TOPO_MODULE], t->id[TOPO_CORE], t->id[TOPO_SMT],
                       t->core_type);
    }
    /* Shared with pmu-decode --checks (tests/smp/portable/topology.c). */
    topology_judge(topo, topo_online, smp.count, &dup, &mixed);
    check_note(c, "source", "%s", topo[0].source);
    check_note(c, "shifts", "smt %u, core %u, package %u", topo[0].shift[TOPO_SMT], topo[0].shift[TOPO_CORE],
               topo[0].shift[TOPO_PACKAGE]);
    expect_eq_dec(c, "threads decoded", smp_online_count(), n);
    expect_eq_dec(c, "threads sharing one topology ID", 0, dup);
    expect_eq_dec(c, "threads decoded from another source", 0, mixed);
}

static const struct check_def smp_checks[] = {
    {"enumeration", enumeration_check, SCOPE_GLOBAL, NO_FAULT},
    {"acpi_tables", acpi_tables_check, SCOPE_GLOBAL, NO_FAULT},
    {"online", online_check, SCOPE_GLOBAL, NO_FAULT},
    {"topology", topology_check, SCOPE_GLOBAL, NO_FAULT},
    {"identity", identity_check, SCOPE_PER_CPU, NO_FAULT},
    /* Compared with the first CPU of its core type, whose values it reads: after the concurrent phase. */
    {"features", features_check, SCOPE_PER_CPU, NO_FAULT, CPUS_OTHERS},
};

const struct suite suite_smp = {"smp", "every thread online, IDs consistent, topology, feature leaves", true,
                                SUITE_CHECKS(smp_checks)};
