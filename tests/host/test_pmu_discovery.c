/* PMU discovery (pmu/) and CPU identification (lib/cpu_ident.c) on CPUID dumps of real CPUs
 * (tests/host/data, PROVENANCE.md) and on synthetic CPUID tables for the corner cases.
 * Every expected value comes from a manual, datasheet or the Linux source named next to it, never from
 * running the decoder. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cpu_ident.h"
#include "pmu/cpuid_dump.h"
#include "pmu/pmu_caps.h"
#include "pmu/pmu_msr.h"
#include "lib/uarch.h"
#include "tests/host/support/test_data.h"

static struct cpuid_dump dump;
static struct cpu_ident id;
static struct pmu_caps caps;

static void discover_from_dump(void)
{
    struct cpuid_source src;
    cpuid_dump_source(&dump, &src);
    cpu_ident_decode(&id, &src);
    pmu_discover(&caps, &id, &src);
}

static void decode_file(const char *file, unsigned cpu)
{
    test_dump_load(&dump, file, cpu);
    discover_from_dump();
}

static bool has_quirk(const char *needle)
{
    for (u32 i = 0; i < caps.num_quirks; i++)
        if (strstr(caps.quirks[i], needle))
            return true;
    return false;
}

static void expect_no_quirks(void)
{
    if (caps.num_quirks)
        fail_msg("unexpected quirk: %s", caps.quirks[0]);
}

/* SDM Vol.4 Table 2-2 / SDM Vol.3B ch.21: the architectural MSRs every intel_arch PMU of `version` has. */
static void expect_intel_msrs(u32 version)
{
    assert_int_equal(caps.msrs.evtsel0, 0x186);
    assert_int_equal(caps.msrs.ctr0, 0xc1);
    assert_int_equal(caps.msrs.stride, 1);
    assert_int_equal(caps.msrs.global_ctrl, version >= 2 ? 0x38f : 0);
    assert_int_equal(caps.msrs.global_status, version >= 2 ? 0x38e : 0);
    assert_int_equal(caps.msrs.global_status_reset, version >= 2 ? 0x390 : 0);
    assert_int_equal(caps.msrs.global_status_set, version >= 4 ? 0x391 : 0);
    assert_int_equal(caps.msrs.global_inuse, version >= 4 ? 0x392 : 0);
    assert_int_equal(caps.msrs.fixed_ctr0, caps.num_fixed ? 0x309 : 0);
    assert_int_equal(caps.msrs.fixed_ctr_ctrl, caps.num_fixed ? 0x38d : 0);
    /* GP counters at IA32_PERFEVTSELi / IA32_PMCi: 0-9 below v6 (pmu_msr.h MSR_IA32_ARCH_GP_MAX), 0-7 on v6 */
    assert_int_equal(caps.msrs.legacy_gp, MIN(caps.num_gp, version >= 6 ? 8u : 10u));
    assert_int_equal(caps.msrs.v6_gp_ctr0, version >= 6 ? 0x1900 : 0);
    assert_int_equal(caps.msrs.v6_stride, version >= 6 ? 4 : 0);
}

static void expect_intel(u32 version, u32 gp, u32 gp_width, u32 fixed_mask, u32 fixed_width)
{
    assert_int_equal(caps.kind, PMU_KIND_INTEL_ARCH);
    assert_int_equal(caps.version, version);
    assert_int_equal(caps.num_gp, gp);
    assert_int_equal(caps.gp_width, gp_width);
    assert_int_equal(caps.fixed_mask, fixed_mask);
    assert_int_equal(caps.fixed_width, fixed_width);
    expect_intel_msrs(version);
}

/* The seven architectural events of SDM Vol.3B "Pre-defined Architectural Performance Events" (0..6). */
#define AE_ALL7 0x7fu

/* ---- real CPUs ------------------------------------------------------------------------------------- */

/* Core 2 Extreme X6800 (Conroe, family 6 model 0x0F). SDM Vol.3B "Performance Monitoring for Processors Based
 * on Intel Core Microarchitecture": architectural perfmon v2, two 40-bit general-purpose counters and three
 * 40-bit fixed counters. Its CPUID.0AH.EDX is 0: the Linux quirk "v2 perfmon does not report fixed-purpose
 * events, so assume at least 3" applies. */
static void test_core2_conroe(void **state)
{
    (void)state;
    decode_file("intel_core2_conroe_000006F6.txt", 0);
    assert_string_equal(id.vendor_string, "GenuineIntel");
    assert_int_equal(id.family, 6);
    assert_int_equal(id.model, 0x0f);
    assert_int_equal(id.stepping, 6);
    assert_string_equal(id.uarch, "Core 2 (Merom)");
    expect_intel(2, 2, 40, 0x7, 40);
    assert_int_equal(caps.num_fixed, 3);
    assert_int_equal(caps.arch_events, AE_ALL7);
    assert_true(has_quirk("0 fixed counters on perfmon v2-v4: assumed 3"));
    assert_true(has_quirk("fixed counter width 0"));
    assert_true(has_quirk("Merom")); /* Linux intel_clovertown_quirk: PEBS off on model 0x0F */
    assert_true(caps.pdcm);
    assert_int_equal(caps.msrs.perf_capabilities, 0x345);
}

/* Core i7-990X (Gulftown, Westmere-EP, 6/0x2C). CPUID.0AH (fields: SDM Vol.2A CPUID leaf 0AH) of this part:
 * version 3, 4 GP counters of 48 bits, 3 fixed counters of 48 bits, 7 events with reference cycles
 * unavailable. SDM: Westmere supports architectural perfmon v3. */
static void test_westmere(void **state)
{
    (void)state;
    decode_file("intel_westmere_gulftown_000206C2.txt", 0);
    assert_int_equal(id.model, 0x2c);
    assert_string_equal(id.uarch, "Westmere-EP");
    expect_intel(3, 4, 48, 0x7, 48);
    assert_int_equal(caps.arch_events_len, 7);
    assert_int_equal(caps.arch_events, AE_ALL7 & ~(1u << PMU_AE_REF_CYCLES));
    expect_no_quirks();
    /* The second thread of the same core decodes identically (PMU state is per logical processor). */
    decode_file("intel_westmere_gulftown_000206C2.txt", 1);
    expect_intel(3, 4, 48, 0x7, 48);
}

/* Core i5-2400 (Sandy Bridge, 6/0x2A, 4 cores, no Hyper-Threading). SDM Vol.3B "Performance Monitoring for
 * Processors Based on Intel Microarchitecture Code Name Sandy Bridge": v3, 8 GP counters per core when
 * Hyper-Threading is off or absent (4 per thread with it), 48 bits; 3 fixed counters. */
static void test_sandybridge(void **state)
{
    (void)state;
    decode_file("intel_sandybridge_000206A7.txt", 0);
    assert_string_equal(id.uarch, "Sandy Bridge");
    expect_intel(3, 8, 48, 0x7, 48);
    assert_int_equal(caps.arch_events, AE_ALL7);
    expect_no_quirks();
}

/* Core i5-6400T (Skylake, 6/0x5E, no Hyper-Threading). SDM Vol.3B "6th Generation ... Skylake": architectural
 * perfmon v4; 4 GP counters per thread with Hyper-Threading, 8 without; 48 bits; 3 fixed counters. */
static void test_skylake(void **state)
{
    (void)state;
    decode_file("intel_skylake_000506E3.txt", 0);
    assert_int_equal(id.model, 0x5e);
    assert_string_equal(id.uarch, "Skylake");
    expect_intel(4, 8, 48, 0x7, 48);
    assert_false(caps.anythread_deprecated);
    expect_no_quirks();
}

/* Core i7-1065G7 (Ice Lake, 6/0x7E, Hyper-Threading on). SDM Vol.3B "10th Generation ... Ice Lake": perfmon
 * v5, 8 GP counters per logical processor, 4 fixed counters (fixed counter 3 = TOPDOWN.SLOTS, so 8
 * architectural events incl. topdown slots), AnyThread deprecated. */
static void test_icelake(void **state)
{
    (void)state;
    decode_file("intel_icelake_000706E5.txt", 0);
    assert_int_equal(id.model, 0x7e);
    expect_intel(5, 8, 48, 0xf, 48);
    assert_int_equal(caps.num_fixed, 4);
    assert_true(caps.anythread_deprecated);
    assert_int_equal(caps.arch_events_len, 8);
    assert_int_equal(caps.arch_events, 0xff);
    assert_false(caps.ext_leaf);
    expect_no_quirks();
}

/* Core i3-1220P (Alder Lake-P, 6/0x9A): 2 Golden Cove P-cores + 8 Gracemont E-cores. Per Linux intel_pmu_init
 * (Alder Lake hybrid) CPUID.0AH enumerates what both share (6 GP, 3 fixed); the P-core has 8 GP and 4 fixed
 * counters, the E-core 6 GP and 3 fixed; both perfmon v5, 48-bit. Core types per SDM CPUID leaf 1AH: 0x40
 * Core, 0x20 Atom. The dump keeps logical CPU #0 (P-core) and #9 (E-core) as its CPUs 0 and 1. */
static void test_alderlake_hybrid(void **state)
{
    (void)state;
    decode_file("intel_alderlake_p_hybrid_000906A4.txt", 0);
    assert_true(id.hybrid);
    assert_int_equal(id.core_type, 0x40);
    assert_string_equal(cpu_core_type_name(id.core_type), "Core");
    assert_int_equal(caps.core_type, 0x40);
    expect_intel(5, 8, 48, 0xf, 48);
    assert_int_equal(caps.gp_mask, 0xff);
    assert_true(has_quirk("P-core has 2 more GP and 1 more fixed"));

    decode_file("intel_alderlake_p_hybrid_000906A4.txt", 1);
    assert_true(id.hybrid);
    assert_int_equal(id.core_type, 0x20);
    assert_string_equal(cpu_core_type_name(id.core_type), "Atom");
    expect_intel(5, 6, 48, 0x7, 48);
    expect_no_quirks();
}

/* Core i7-1370P (Raptor Lake-P, 6/0xBA), all 20 threads: 6 Raptor Cove P-cores (12 threads) and 8 Gracemont
 * E-cores. Model 0xBA is in Linux intel_pmu_init's Alder/Raptor Lake hybrid case: CPUID.0AH (EAX 0x07300605,
 * EDX 0x8603) lists what both kinds share, 6 GP and 3 fixed; the P-core has 8 GP and 4 fixed counters. */
static void test_raptorlake_p_hybrid(void **state)
{
    (void)state;
    for (unsigned cpu = 0; cpu < 20; cpu++) {
        decode_file("intel_raptorlake_p_hybrid_000B06A2.txt", cpu);
        assert_true(id.hybrid);
        if (cpu < 12) { /* logical CPUs #0-#11: P-core threads ("allcpu: ... Thread 0/1", CPUID.1AH 0x40000001) */
            assert_int_equal(cpu_ident_kind(&id), 0x40000001);
            expect_intel(5, 8, 48, 0xf, 48);
            assert_true(has_quirk("P-core has 2 more GP and 1 more fixed"));
        } else { /* #12-#19: E-cores, CPUID.1AH 0x20000001 */
            assert_int_equal(cpu_ident_kind(&id), 0x20000001);
            expect_intel(5, 6, 48, 0x7, 48);
            expect_no_quirks();
        }
    }
    assert_string_equal(id.uarch, "Raptor Lake-P (Raptor Cove / Gracemont)");
}

/* Core i9-12900K (Alder Lake-S, 6/0x97) with its E-cores disabled: CPUID.0AH then lists all P-core counters
 * (8 GP, 4 fixed) while the hybrid bit stays set; Linux intel_pmu_init ("Quirk: For some Alder Lake machine,
 * when all E-cores are disabled in a BIOS ...") must not widen them again. */
static void test_alderlake_ecores_disabled(void **state)
{
    (void)state;
    decode_file("intel_alderlake_s_ecores_off_00090672.txt", 0);
    assert_true(id.hybrid);
    expect_intel(5, 8, 48, 0xf, 48);
    assert_true(has_quirk("not widened"));
}

/* Core Ultra 5 125H (Meteor Lake, 6/0xAA): Redwood Cove P-cores and Crestmont E-cores enumerate their own
 * counters in CPUID leaf 23H (SDM CPUID "Architectural Performance Monitoring Extended Leaf"; Linux
 * update_pmu_cap): P-core 8 GP + fixed 0-3, E-core 8 GP + fixed 0-2. Leaf 23H.3 lists the events: the P-core
 * has the topdown events, Crestmont only the 7 classic ones. */
static void test_meteorlake_leaf23(void **state)
{
    (void)state;
    decode_file("intel_meteorlake_hybrid_000A06A4.txt", 0);
    assert_int_equal(id.core_type, 0x40);
    assert_true(caps.ext_leaf);
    assert_true(caps.ext_subleaves & (1u << 1));
    expect_intel(5, 8, 48, 0xf, 48);
    assert_true(caps.arch_events & (1u << PMU_AE_TOPDOWN_SLOTS));
    assert_int_equal(caps.arch_events & AE_ALL7, AE_ALL7);
    expect_no_quirks(); /* leaf 23H is per core type: the Alder Lake widening must not apply */

    decode_file("intel_meteorlake_hybrid_000A06A4.txt", 1);
    assert_int_equal(id.core_type, 0x20);
    assert_true(caps.ext_leaf);
    expect_intel(5, 8, 48, 0x7, 48);
    assert_int_equal(caps.arch_events, AE_ALL7);
}

/* The fields pmu_enum/consistent compares (tests/pmu_enum/suite_pmu_enum.c), of CPU `cpu` of `file`. */
struct pmu_summary {
    u32 kind, version, gp_mask, gp_width, fixed_mask, fixed_width, arch_events;
};
static struct pmu_summary summary(const char *file, unsigned cpu)
{
    decode_file(file, cpu);
    return (struct pmu_summary){cpu_ident_kind(&id), caps.version, (u32)caps.gp_mask, caps.gp_width,
                                (u32)caps.fixed_mask, caps.fixed_width, caps.arch_events};
}

/* Core Ultra 9 285H (Arrow Lake-H, 6/0xC5): three kinds of core, CPUID.1AH:EAX 0x40000003 Lion Cove (P-cores),
 * 0x20000003 Skymont (E-cores) and 0x20000002 Crestmont (low-power E-cores). The core type alone (0x20) does not
 * tell the two Atom kinds apart, and their counters differ (leaf 23H.1: fixed 0-2 and 4-6 against 0-2; 23H.3
 * events), so threads are grouped by the whole EAX (cpu_ident_kind; Linux find_hybrid_pmu_for_cpu() by native
 * model ID). */
static void test_arrowlake_h_atom_kinds(void **state)
{
    (void)state;
    const char *f = "intel_arrowlake_h_hybrid_000C0652.txt";
    struct pmu_summary e1 = summary(f, 2), e2 = summary(f, 3), lp = summary(f, 4);
    assert_string_equal(id.uarch, "Arrow Lake-H (Lion Cove / Skymont / Crestmont LP)");
    assert_int_equal(e1.kind, 0x20000003);
    assert_int_equal(lp.kind, 0x20000002);
    assert_int_equal(e1.kind >> 24, lp.kind >> 24); /* one core type, */
    assert_int_not_equal(e1.kind, lp.kind);          /* two kinds */
    assert_memory_equal(&e1, &e2, sizeof(e1));       /* threads of one kind: one PMU */
    assert_int_equal(e1.gp_mask, 0xff);
    assert_int_equal(e1.fixed_mask, 0x77);
    assert_int_equal(lp.gp_mask, 0xff);
    assert_int_equal(lp.fixed_mask, 0x7);
    assert_int_not_equal(e1.arch_events, lp.arch_events);
}

/* Its Lion Cove P-cores: CPUID.0AH version 5 with 8 GP counters (EAX 0x07300805), leaf 23H.1 GP bitmap 0x3FF and
 * fixed bitmap 0xF (Linux update_pmu_cap() takes cntr_mask64 / fixed_cntr_mask64 from them). Below v6 there are no
 * MSR aliases: all ten are IA32_PERFEVTSELi / IA32_PMCi (Linux x86_pmu_config_addr / x86_pmu_event_addr = base + i
 * below v6; pmu_msr.h MSR_IA32_ARCH_GP_MAX), so legacy_gp is 10, not 8. */
static void test_arrowlake_h_lion_cove(void **state)
{
    (void)state;
    const char *f = "intel_arrowlake_h_hybrid_000C0652.txt";
    struct pmu_summary p1 = summary(f, 1), p0 = summary(f, 0);
    assert_int_equal(p0.kind, 0x40000003);
    assert_memory_equal(&p0, &p1, sizeof(p0));
    assert_int_equal(p0.version, 5);
    assert_int_equal(p0.gp_mask, 0x3ff);
    assert_int_equal(caps.num_gp, 10);
    assert_int_equal(p0.gp_width, 48);
    assert_int_equal(p0.fixed_mask, 0xf);
    assert_true(caps.ext_leaf);
    assert_int_equal(caps.msrs.evtsel0, 0x186);
    assert_int_equal(caps.msrs.ctr0, 0xc1);
    assert_int_equal(caps.msrs.legacy_gp, 10);
    assert_int_equal(caps.msrs.v6_stride, 0);
    expect_no_quirks();
}

/* Core Ultra 7 265U (Arrow Lake-U, 6/0xB5): Meteor Lake's cores. CPUID.1AH:EAX 0x40000002 Redwood Cove and
 * 0x20000002 Crestmont on both the E-cores and the low-power E-cores ("Intel Atom LP" in the dump), as on the
 * Core Ultra 5 125H (Meteor Lake) dump: the name lib/uarch.c gives 0xB5 follows. */
static void test_arrowlake_u_is_meteor_lake(void **state)
{
    (void)state;
    const char *f = "intel_arrowlake_u_hybrid_000B0650.txt";
    struct pmu_summary p = summary(f, 0), e = summary(f, 1), lp = summary(f, 2);
    assert_string_equal(id.uarch, "Arrow Lake-U (Redwood Cove / Crestmont)");
    assert_int_equal(p.kind, 0x40000002);
    assert_int_equal(e.kind, 0x20000002);
    assert_memory_equal(&e, &lp, sizeof(e)); /* E and LP E-cores: one kind, one PMU */
    struct pmu_summary mp = summary("intel_meteorlake_hybrid_000A06A4.txt", 0);
    struct pmu_summary me = summary("intel_meteorlake_hybrid_000A06A4.txt", 1);
    assert_memory_equal(&p, &mp, sizeof(p));
    assert_memory_equal(&e, &me, sizeof(e));
}

/* Atom C3958 (Denverton, Goldmont, 6/0x5F). SDM Vol.3B "Performance Monitoring for Goldmont
 * Microarchitecture": architectural perfmon v4, 4 GP counters and 3 fixed counters, 48 bits. */
static void test_goldmont(void **state)
{
    (void)state;
    decode_file("intel_denverton_000506F1.txt", 0);
    assert_string_equal(id.uarch, "Atom Goldmont-D (Denverton)");
    expect_intel(4, 4, 48, 0x7, 48);
    expect_no_quirks();
}

/* Xeon Phi 7210 (Knights Landing, 6/0x57). SDM Vol.3B "Performance Monitoring (Knights Landing)": perfmon v3
 * with 2 GP counters per thread and 3 fixed counters, 40 bits (the Silvermont-derived core). */
static void test_knights_landing(void **state)
{
    (void)state;
    decode_file("intel_knights_landing_00050671.txt", 0);
    assert_int_equal(id.model, 0x57);
    assert_string_equal(id.uarch, "Knights Landing (Xeon Phi)");
    expect_intel(3, 2, 40, 0x7, 40);
    expect_no_quirks();
}

/* Athlon 64 X2 3800+ (K8, family 0xF). AMD APM Vol.2 13.2: four PerfEvtSel/PerfCtr pairs at
 * C001_0000-3/C001_0004-7, 48-bit counters; no PerfCtrExtCore (CPUID 8000_0001 ECX[23] = 0 on K8). */
static void test_amd_k8(void **state)
{
    (void)state;
    decode_file("amd_k8_manchester_00020FB1.txt", 0);
    assert_string_equal(id.vendor_string, "AuthenticAMD");
    assert_int_equal(id.family, 0xf);
    assert_string_equal(id.uarch, "K8 (Hammer)");
    assert_int_equal(caps.kind, PMU_KIND_AMD_LEGACY);
    assert_int_equal(caps.num_gp, 4);
    assert_int_equal(caps.gp_width, 48);
    assert_int_equal(caps.msrs.evtsel0, 0xc0010000);
    assert_int_equal(caps.msrs.ctr0, 0xc0010004);
    assert_int_equal(caps.msrs.stride, 1);
    assert_int_equal(caps.msrs.global_ctrl, 0);
}

/* Ryzen 9 PRO 3900 (Zen 2, family 0x17 model 0x71). AMD PPR for Family 17h: PerfCtrExtCore, 6 core counters
 * PerfEvtSel0-5/PerfCtr0-5 at C001_0200-B (interleaved), 48 bits; PerfMonV2 arrived with Zen 4. */
static void test_amd_zen2(void **state)
{
    (void)state;
    decode_file("amd_zen2_matisse_00870F10.txt", 0);
    assert_int_equal(id.family, 0x17);
    assert_int_equal(id.model, 0x71);
    assert_string_equal(id.uarch, "Zen 2");
    assert_int_equal(caps.kind, PMU_KIND_AMD_CORE_EXT);
    assert_int_equal(caps.num_gp, 6);
    assert_int_equal(caps.gp_width, 48);
    assert_int_equal(caps.msrs.evtsel0, 0xc0010200);
    assert_int_equal(caps.msrs.ctr0, 0xc0010201);
    assert_int_equal(caps.msrs.stride, 2);
    assert_int_equal(caps.msrs.global_ctrl, 0);
    expect_no_quirks();
}

/* EPYC 9124 (Zen 4 Genoa, family 0x19 model 0x11). AMD PPR for Family 19h Model 11h: PerfMonV2 with 6 core
 * counters (CPUID 8000_0022 EBX[3:0]), global control/status at C000_0301/C000_0300, status clear/set at
 * C000_0302/C000_0303 (Linux msr-index.h MSR_AMD64_PERF_CNTR_GLOBAL_*). */
static void test_amd_zen4_perfmon_v2(void **state)
{
    (void)state;
    decode_file("amd_zen4_genoa_00A10F11.txt", 0);
    assert_int_equal(id.family, 0x19);
    assert_string_equal(id.uarch, "Zen 4");
    assert_int_equal(caps.kind, PMU_KIND_AMD_PERFMON_V2);
    assert_int_equal(caps.num_gp, 6);
    assert_int_equal(caps.gp_width, 48);
    assert_int_equal(caps.msrs.evtsel0, 0xc0010200);
    assert_int_equal(caps.msrs.stride, 2);
    assert_int_equal(caps.msrs.global_ctrl, 0xc0000301);
    assert_int_equal(caps.msrs.global_status, 0xc0000300);
    assert_int_equal(caps.msrs.global_status_reset, 0xc0000302);
    assert_int_equal(caps.msrs.global_status_set, 0xc0000303);
    assert_true(caps.amd_lbr_v2); /* Zen 4 introduced LbrExtV2 (8000_0022 EAX[1]) */
    expect_no_quirks();
}

/* Ryzen AI 7 PRO 360 (Strix Point, family 0x1A model 0x24), all 16 threads: 3 Zen 5 and 5 Zen 5c cores
 * (CPUID 80000026H core type; AIDA's "AMD P-core" / "AMD E-core"). Both kinds enumerate the same PMU: PerfMonV2
 * (8000_0022 EAX 0x7: PerfMonV2, LbrExtV2, LbrAndPmcFreeze) with 6 core counters (EBX[3:0] = 6), 48-bit. */
static void test_amd_zen5_strix_point(void **state)
{
    (void)state;
    for (unsigned cpu = 0; cpu < 16; cpu += 6) { /* cpu0: Zen 5, cpu6 and cpu12: Zen 5c */
        decode_file("amd_zen5_strixpoint_00B20F40.txt", cpu);
        assert_int_equal(id.family, 0x1a);
        assert_string_equal(id.uarch, "Zen 5");
        assert_false(id.hybrid); /* CPUID.(7,0):EDX[15] is Intel's hybrid bit: clear */
        assert_int_equal(caps.kind, PMU_KIND_AMD_PERFMON_V2);
        assert_int_equal(caps.num_gp, 6);
        assert_int_equal(caps.gp_width, 48);
        assert_true(caps.amd_lbr_v2);
        assert_int_equal(caps.amd_lbr_depth, 16);
        expect_no_quirks();
    }
}

/* Knights Corner (synthetic dump, family 0x0B model 0x01): KNC PMU 327357-001 Table 1-2 - 2 x 40-bit counters at
 * 0x20/0x21, selects 0x28/0x29, SPFLT 0x2C, global status 0x2D (RO), overflow control 0x2E (WO), global
 * control 0x2F. */
static void test_knights_corner(void **state)
{
    (void)state;
    decode_file("knc_synthetic.txt", 0);
    assert_int_equal(id.family, 0x0b);
    assert_int_equal(id.model, 0x01);
    assert_int_equal(caps.kind, PMU_KIND_KNC);
    assert_int_equal(caps.num_gp, 2);
    assert_int_equal(caps.gp_width, 40);
    assert_int_equal(caps.num_fixed, 0);
    assert_int_equal(caps.msrs.ctr0, 0x20);
    assert_int_equal(caps.msrs.evtsel0, 0x28);
    assert_int_equal(caps.msrs.spflt_ctrl, 0x2c);
    assert_int_equal(caps.msrs.global_status, 0x2d);
    assert_int_equal(caps.msrs.global_status_reset, 0x2e);
    assert_int_equal(caps.msrs.global_ctrl, 0x2f);
    expect_no_quirks();
}

/* This machine's KVM guest (`cpuid -r`, 2 vCPUs): the dump shows it - KVM here gives no vPMU, CPUID.0AH = 0.
 * Hypervisor signature "KVMKVMKVM" (KVM's CPUID 0x40000000). */
static void test_kvm_guest_none(void **state)
{
    (void)state;
    for (unsigned cpu = 0; cpu < 2; cpu++) {
        decode_file("kvm_guest_this_host_cpuid_r.txt", cpu);
        assert_true(id.hypervisor_bit);
        assert_string_equal(id.hv_signature, "KVMKVMKVM");
        assert_int_equal(caps.kind, PMU_KIND_NONE);
        assert_non_null(strstr(caps.evidence, "CPUID.0AH EAX=0x00000000"));
        assert_int_equal(caps.num_gp, 0);
        assert_int_equal(caps.msrs.ctr0, 0);
    }
}

/* ---- synthetic CPUID tables ------------------------------------------------------------------------ */

#define GENU 0x756e6547u /* "Genu" */
#define INEI 0x49656e69u /* "ineI" */
#define NTEL 0x6c65746eu /* "ntel" */
#define AUTH 0x68747541u /* "Auth" */
#define ENTI 0x69746e65u /* "enti" */
#define CAMD 0x444d4163u /* "cAMD" */

/* SDM Vol.2A Table "Version Information": family 6 puts model[7:4] in the extended model field. */
static u32 sig6(u32 model, u32 stepping)
{
    return ((model >> 4) << 16) | (6u << 8) | ((model & 0xf) << 4) | stepping;
}

/* AMD APM Vol.3 E.3.2: family > 0xF is base 0xF plus extended family. */
static u32 sig_amd(u32 family, u32 model, u32 stepping)
{
    u32 base = family >= 0xf ? 0xf : family, ext = family >= 0xf ? family - 0xf : 0;
    return (ext << 20) | ((model >> 4) << 16) | (base << 8) | ((model & 0xf) << 4) | stepping;
}

static void synth_intel(u32 max_leaf, u32 model, bool hypervisor)
{
    cpuid_dump_init(&dump);
    cpuid_dump_set(&dump, 0, 0, max_leaf, GENU, NTEL, INEI);
    cpuid_dump_set(&dump, 1, 0, sig6(model, 1), 0, (1u << 15) | (hypervisor ? 1u << 31 : 0), 0);
}

static void synth_amd(u32 family, u32 model, u32 max_ext, u32 ext1_ecx, bool hypervisor)
{
    cpuid_dump_init(&dump);
    cpuid_dump_set(&dump, 0, 0, 0x10, AUTH, CAMD, ENTI);
    cpuid_dump_set(&dump, 1, 0, sig_amd(family, model, 0), 0, hypervisor ? 1u << 31 : 0, 0);
    cpuid_dump_set(&dump, 0x80000000, 0, max_ext, AUTH, CAMD, ENTI);
    cpuid_dump_set(&dump, 0x80000001, 0, sig_amd(family, model, 0), 0, ext1_ecx, 0);
}

/* Perfmon v1 (Core Solo/Duo "Yonah", 6/0x0E): 2 GP counters, no fixed counters and no global control MSRs
 * (SDM Vol.3B "Architectural Performance Monitoring Version 1"). */
static void test_synthetic_v1(void **state)
{
    (void)state;
    synth_intel(0xa, 0x0e, false);
    cpuid_dump_set(&dump, 0xa, 0, 0x07280201, 0, 0, 0);
    discover_from_dump();
    assert_string_equal(id.uarch, "Core (Yonah)");
    expect_intel(1, 2, 40, 0, 0);
    assert_int_equal(caps.num_fixed, 0);
    expect_no_quirks();
}

/* v2 with EDX = 0: bare metal assumes 3 fixed counters; under a hypervisor Linux assumes none. */
static void test_synthetic_v2_edx_zero(void **state)
{
    (void)state;
    synth_intel(0xa, 0x17, false);
    cpuid_dump_set(&dump, 0xa, 0, 0x07280202, 0, 0, 0);
    discover_from_dump();
    expect_intel(2, 2, 40, 0x7, 40);
    assert_true(has_quirk("assumed 3"));

    synth_intel(0xa, 0x17, true);
    cpuid_dump_set(&dump, 0xa, 0, 0x07280202, 0, 0, 0);
    discover_from_dump();
    expect_intel(2, 2, 40, 0, 0);
    assert_true(has_quirk("under a hypervisor"));
}

/* v5: fixed counter i exists if ECX[i] or EDX[4:0] > i (SDM CPUID leaf 0AH). */
static void test_synthetic_v5_fixed_bitmap_holes(void **state)
{
    (void)state;
    synth_intel(0xa, 0x7e, false);
    cpuid_dump_set(&dump, 0xa, 0, 0x07300805, 0, 0x5, 0x00006000 | (48u << 5)); /* ECX: fixed 0 and 2 only */
    discover_from_dump();
    expect_intel(5, 8, 48, 0x5, 48);
    assert_int_equal(caps.num_fixed, 3); /* the MSR range spans index 0..2, counter 1 is a hole */

    synth_intel(0xa, 0x7e, false);
    cpuid_dump_set(&dump, 0xa, 0, 0x07300805, 0, 0x8, 2u | (48u << 5)); /* EDX says 2, ECX adds fixed 3 */
    discover_from_dump();
    assert_int_equal(caps.fixed_mask, 0xb);
    assert_int_equal(caps.num_fixed, 4);
}

/* A version newer than 6 is decoded with the v6 rules (incl. the v6 MSR aliases) and flagged. */
static void test_synthetic_unknown_v7(void **state)
{
    (void)state;
    synth_intel(0xa, 0xcc, false);
    cpuid_dump_set(&dump, 0xa, 0, 0x08300807, 0, 0xf, 0x8604);
    discover_from_dump();
    assert_true(caps.version_beyond_known);
    assert_true(has_quirk("newer than 6"));
    expect_intel(7, 8, 48, 0xf, 48);
    assert_int_equal(caps.msrs.v6_gp_cfg_a0, 0x1901);
    assert_int_equal(caps.msrs.v6_fixed_ctr0, 0x1980);

    synth_intel(0xa, 0xcc, false);
    cpuid_dump_set(&dump, 0xa, 0, 0x08300806, 0, 0xf, 0x8604);
    discover_from_dump();
    assert_false(caps.version_beyond_known);
    expect_intel(6, 8, 48, 0xf, 48);
    expect_no_quirks();
}

/* EBX vector length 5 < 7: events 5 and 6 are unavailable whatever EBX says (only `length` bits count). */
static void test_synthetic_short_event_vector(void **state)
{
    (void)state;
    synth_intel(0xa, 0x2a, false);
    cpuid_dump_set(&dump, 0xa, 0, 0x05300403, 0x00000002, 0, 0x603);
    discover_from_dump();
    assert_int_equal(caps.arch_events_len, 5);
    assert_int_equal(caps.arch_events, 0x1d); /* 0,2,3,4: bit 1 (instructions) marked unavailable */
    assert_true(has_quirk("length < 7"));
}

static void test_synthetic_zero_width(void **state)
{
    (void)state;
    synth_intel(0xa, 0x2a, false);
    cpuid_dump_set(&dump, 0xa, 0, 0x07000403, 0, 0, 0x003);
    discover_from_dump();
    assert_int_equal(caps.gp_width, 32);
    assert_int_equal(caps.fixed_width, 32);
    assert_true(has_quirk("GP counter width 0"));
    assert_true(has_quirk("fixed counter width 0"));
}

/* Synthetic Raptor Lake (6/0xB7) threads: the E-core keeps CPUID.0AH's counts, the P-core is widened, a
 * non-hybrid Raptor Lake is left alone. */
static void test_synthetic_hybrid(void **state)
{
    (void)state;
    for (int t = 0; t < 3; t++) {
        synth_intel(0x20, 0xb7, false);
        cpuid_dump_set(&dump, 7, 0, 0, 0, 0, t < 2 ? 1u << 15 : 0);
        cpuid_dump_set(&dump, 0xa, 0, 0x07300605, 0, 0x7, 0x8603);
        cpuid_dump_set(&dump, 0x1a, 0, t == 0 ? 0x20000001 : 0x40000001, 0, 0, 0);
        discover_from_dump();
        assert_int_equal(caps.hybrid, t < 2);
        assert_int_equal(caps.num_gp, t == 1 ? 8 : 6);
        assert_int_equal(caps.fixed_mask, t == 1 ? 0xf : 0x7);
    }
}

/* Leaf 23H: counter bitmaps may have holes; without CPUID.(7,1):EAX[8] the leaf is ignored. */
static void test_synthetic_leaf23(void **state)
{
    (void)state;
    synth_intel(0x23, 0xc6, false);
    cpuid_dump_set(&dump, 7, 0, 1, 0, 0, 0); /* EAX: highest subleaf of leaf 7 */
    cpuid_dump_set(&dump, 7, 1, 1u << 8, 0, 0, 0);
    cpuid_dump_set(&dump, 0xa, 0, 0x08300806, 0, 0xf, 0x8604);
    cpuid_dump_set(&dump, 0x23, 0, 0xf, 0x3, 0, 0); /* subleaves 0-3, UMASK2 and EQ */
    cpuid_dump_set(&dump, 0x23, 1, 0x0f0f, 0x17, 0, 0);
    cpuid_dump_set(&dump, 0x23, 3, 0x1fff, 0, 0, 0);
    discover_from_dump();
    assert_true(caps.ext_leaf);
    assert_true(caps.umask2);
    assert_true(caps.eq_bit);
    assert_false(caps.rdpmc_user_disable);
    assert_int_equal(caps.gp_mask, 0x0f0f);
    assert_int_equal(caps.num_gp, 12);
    assert_int_equal(caps.fixed_mask, 0x17);
    assert_int_equal(caps.num_fixed, 5);
    assert_int_equal(caps.arch_events, 0x1fff);

    assert_int_equal(caps.msrs.legacy_gp, 8); /* v6: GP 8-11 through the aliases */

    /* The same bitmap under version 5: no aliases, and no IA32_PMCi beyond 9 (pmu_msr.h MSR_IA32_ARCH_GP_MAX):
     * the counters from 10 on have no address and are left out, flagged. */
    cpuid_dump_set(&dump, 0xa, 0, 0x08300805, 0, 0xf, 0x8604);
    discover_from_dump();
    assert_int_equal(caps.gp_mask, 0x030f);
    assert_int_equal(caps.num_gp, 10);
    assert_int_equal(caps.msrs.legacy_gp, 10);
    assert_true(has_quirk("beyond 10"));
    cpuid_dump_set(&dump, 0xa, 0, 0x08300806, 0, 0xf, 0x8604);

    cpuid_dump_set(&dump, 7, 1, 0, 0, 0, 0); /* ArchPerfmonExt clear: leaf 23H must not be used */
    discover_from_dump();
    assert_false(caps.ext_leaf);
    assert_int_equal(caps.num_gp, 8);

    cpuid_dump_set(&dump, 7, 1, 1u << 8, 0, 0, 0);
    cpuid_dump_set(&dump, 7, 0, 0, 0, 0, 0); /* leaf 7 has no subleaf 1: its contents do not count */
    discover_from_dump();
    assert_false(caps.ext_leaf);

    synth_intel(0x20, 0xc6, false); /* feature bit set but the leaf is beyond the max leaf */
    cpuid_dump_set(&dump, 7, 0, 1, 0, 0, 0);
    cpuid_dump_set(&dump, 7, 1, 1u << 8, 0, 0, 0);
    cpuid_dump_set(&dump, 0xa, 0, 0x08300806, 0, 0xf, 0x8604);
    discover_from_dump();
    assert_false(caps.ext_leaf);
    assert_true(has_quirk("max leaf < 0x23"));
}

/* QEMU TCG: every CPU model reports CPUID.0AH = 0, no PerfCtrExtCore and no leaf 0x80000022
 * (QEMU target/i386/cpu.c cpu_x86_cpuid). Both vendors must come out as kind none with the CPUID facts as the
 * reason. */
static void test_synthetic_none_tcg_like(void **state)
{
    (void)state;
    synth_intel(0xd, 0x55, true);
    cpuid_dump_set(&dump, 0xa, 0, 0, 0, 0, 0);
    discover_from_dump();
    assert_int_equal(caps.kind, PMU_KIND_NONE);
    assert_string_equal(caps.evidence, "CPUID.0AH EAX=0x00000000 EBX=0x00000000 ECX=0x00000000 EDX=0x00000000; "
                                       "version 0 with 0 GP counters: no architectural perfmon; CPUID.1:ECX.PDCM=1");

    synth_amd(0x17, 0x01, 0x8000001f, 0, true); /* EPYC model under TCG: hypervisor bit, nothing enumerated */
    discover_from_dump();
    assert_int_equal(caps.kind, PMU_KIND_NONE);
    assert_non_null(strstr(caps.evidence, "PerfCtrExtCore[23]=0"));
    assert_non_null(strstr(caps.evidence, "no leaf 0x80000022"));
    assert_non_null(strstr(caps.evidence, "K7 probe")); /* pmu_probe_amd_legacy: test_pmu_against_manuals */
    assert_int_equal(caps.msrs.ctr0, 0);

    synth_intel(0x7, 0x55, false); /* max leaf below 0x0A */
    discover_from_dump();
    assert_int_equal(caps.kind, PMU_KIND_NONE);
    assert_non_null(strstr(caps.evidence, "max basic CPUID leaf 0x7"));

    synth_intel(0xd, 0x55, false); /* leaf 0x0A in range but missing from the dump */
    discover_from_dump();
    assert_int_equal(caps.kind, PMU_KIND_NONE);
    assert_non_null(strstr(caps.evidence, "missing"));

    cpuid_dump_init(&dump); /* an empty source: no vendor at all */
    discover_from_dump();
    assert_int_equal(caps.kind, PMU_KIND_NONE);
    assert_non_null(strstr(caps.evidence, "no CPUID vendor"));
}

static void test_synthetic_amd_corner_cases(void **state)
{
    (void)state;
    synth_amd(5, 0x08, 0x80000005, 0, false); /* K6 (family 5): Linux amd_pmu_init needs family >= 6 */
    discover_from_dump();
    assert_int_equal(caps.kind, PMU_KIND_NONE);
    assert_non_null(strstr(caps.evidence, "family 0x5 < 6"));

    synth_amd(0x19, 0x61, 0x80000022, 1u << 23, false); /* PerfMonV2 reporting 0 core counters */
    cpuid_dump_set(&dump, 0x80000022, 0, 1, 0, 0, 0);
    discover_from_dump();
    assert_int_equal(caps.kind, PMU_KIND_AMD_PERFMON_V2);
    assert_int_equal(caps.num_gp, 6);
    assert_true(has_quirk("0 core counters"));

    synth_amd(0x19, 0x61, 0x80000022, 0, false); /* PerfMonV2 without PerfCtrExtCore */
    cpuid_dump_set(&dump, 0x80000022, 0, 1, 6, 0, 0);
    discover_from_dump();
    assert_int_equal(caps.kind, PMU_KIND_AMD_LEGACY);
    assert_true(has_quirk("without PerfCtrExtCore"));

    /* Hygon Dhyana (family 0x18) is Zen: same core-ext PMU */
    cpuid_dump_init(&dump);
    cpuid_dump_set(&dump, 0, 0, 0xd, 0x6f677948, 0x656e6975, 0x6e65476e); /* "HygonGenuine" */
    cpuid_dump_set(&dump, 1, 0, sig_amd(0x18, 0, 1), 0, 0, 0);
    cpuid_dump_set(&dump, 0x80000000, 0, 0x8000001f, 0, 0, 0);
    cpuid_dump_set(&dump, 0x80000001, 0, 0, 0, 1u << 23, 0);
    discover_from_dump();
    assert_string_equal(id.vendor_string, "HygonGenuine");
    assert_string_equal(id.uarch, "Hygon Dhyana (Zen)");
    assert_int_equal(caps.kind, PMU_KIND_AMD_CORE_EXT);
}

/* IA32_PERF_CAPABILITIES layout: SDM Vol.3B figure "Layout of IA32_PERF_CAPABILITIES MSR". */
static void test_perf_capabilities_decode(void **state)
{
    (void)state;
    struct pmu_perf_capabilities pc;
    u64 v = 0x5 | (1u << 6) | (1u << 7) | (4u << 8) | (1u << 12) | (1u << 13) | (1u << 14) | (1u << 15) |
            (1u << 16) | (1u << 17) | (1u << 19);
    pmu_perf_capabilities_decode(v, &pc);
    assert_int_equal(pc.lbr_format, 5);
    assert_true(pc.pebs_trap && pc.pebs_arch_regs);
    assert_int_equal(pc.pebs_record_format, 4);
    assert_true(pc.smm_freeze && pc.full_width_write && pc.pebs_baseline && pc.perf_metrics);
    assert_true(pc.pebs_output_pt && pc.pebs_timing_info && pc.rdpmc_metrics_clear);
    pmu_perf_capabilities_decode(1u << 18, &pc); /* bit 18 is reserved: decodes to nothing */
    assert_false(pc.full_width_write || pc.perf_metrics || pc.rdpmc_metrics_clear || pc.pebs_timing_info);

    decode_file("intel_skylake_000506E3.txt", 0);
    assert_true(caps.pdcm);
    assert_false(caps.has_perf_capabilities);
    assert_int_equal(caps.msrs.ctr0_full_width, 0);
    pmu_caps_apply_perf_capabilities(&caps, 1u << 13); /* FW_WRITE: IA32_A_PMC0 at 0x4C1 */
    assert_true(caps.has_perf_capabilities);
    assert_int_equal(caps.msrs.ctr0_full_width, 0x4c1);
    pmu_caps_apply_perf_capabilities(&caps, 0);
    assert_int_equal(caps.msrs.ctr0_full_width, 0);
}

static void describe(char *buf, size_t size)
{
    struct strbuf sb;
    sb_init(&sb, buf, size);
    pmu_caps_describe(&caps, &sb);
    assert_false(sb.truncated);
}

/* The summary: every line starts "pmu: ", none is empty, the reason for kind none is the evidence. */
static void test_describe(void **state)
{
    (void)state;
    static char buf[4096];
    decode_file("intel_core2_conroe_000006F6.txt", 0);
    describe(buf, sizeof(buf));
    assert_non_null(strstr(buf, "pmu: kind intel_arch: Intel architectural performance monitoring v2\n"));
    assert_non_null(strstr(buf, "pmu: fixed counters: 3 (mask 0x7), 40-bit; counter 0x309 + i, control 0x38d\n"));
    assert_non_null(strstr(buf, "pmu: quirk: CPUID.0AH.EDX reports 0 fixed counters"));
    for (const char *line = buf; *line;) {
        if (strncmp(line, "pmu: ", 5) != 0)
            fail_msg("line without the pmu: prefix: %s", line);
        const char *nl = strchr(line, '\n');
        assert_non_null(nl);
        assert_true(nl - line > 5);
        line = nl + 1;
    }

    decode_file("kvm_guest_this_host_cpuid_r.txt", 0);
    describe(buf, sizeof(buf));
    char want[400];
    snprintf(want, sizeof(want), "pmu: kind none: %s\n", caps.evidence);
    assert_string_equal(buf, want);

    decode_file("amd_zen4_genoa_00A10F11.txt", 0);
    describe(buf, sizeof(buf));
    assert_non_null(strstr(buf, "status set 0xc0000303"));
    assert_non_null(strstr(buf, "select 0xc0010200 + 2*i, counter 0xc0010201 + 2*i"));

    struct strbuf sb;
    sb_init(&sb, buf, sizeof(buf));
    cpu_ident_describe(&id, &sb);
    assert_non_null(
        strstr(buf, "cpu: AuthenticAMD family 0x19 model 0x11 stepping 0x1 (signature 0x00a10f11): Zen 4\n"));
    assert_non_null(strstr(buf, "brand: AMD EPYC 9124 16-Core Processor\n"));
}

/* MSR_SMI_COUNT (34H) on the real dumps: from Nehalem and Silvermont on (SDM Vol.4 ch.2), not on Core 2, AMD or
 * Knights Corner; a Bonnell Atom (6/0x1C) and Dunnington (6/0x1D) are after Nehalem's model number but not after
 * Nehalem. */
static void test_smi_count_msr(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        bool has;
    } cases[] = {
        {"intel_core2_conroe_000006F6.txt", false},    {"intel_westmere_gulftown_000206C2.txt", true},
        {"intel_sandybridge_000206A7.txt", true},      {"intel_skylake_000506E3.txt", true},
        {"intel_denverton_000506F1.txt", true},        {"intel_knights_landing_00050671.txt", true},
        {"intel_meteorlake_hybrid_000A06A4.txt", true}, {"intel_arrowlake_u_hybrid_000B0650.txt", true},
        {"amd_zen4_genoa_00A10F11.txt", false},        {"knc_synthetic.txt", false},
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        decode_file(cases[i].file, 0);
        if (cpu_has_smi_count(&id) != cases[i].has)
            fail_msg("%s: cpu_has_smi_count %d", cases[i].file, !cases[i].has);
    }
    struct cpu_ident x = {.vendor = VENDOR_INTEL, .family = 6, .model = 0x1c};
    assert_false(cpu_has_smi_count(&x));
    x.model = 0x1d;
    assert_false(cpu_has_smi_count(&x));
    x.model = 0x1a;
    assert_true(cpu_has_smi_count(&x));
    x.family = 0xf;
    assert_false(cpu_has_smi_count(&x));
    x.family = 19;
    assert_true(cpu_has_smi_count(&x));
}

/* Family/model table spot checks: Linux intel-family.h and amd.c bsp_init_amd(). */
static void test_uarch_table(void **state)
{
    (void)state;
    assert_string_equal(cpu_uarch_name(VENDOR_INTEL, 0x0b, 0x01), "Knights Corner (Xeon Phi coprocessor)");
    assert_string_equal(cpu_uarch_name(VENDOR_INTEL, 6, 0x85), "Knights Mill (Xeon Phi)");
    assert_string_equal(cpu_uarch_name(VENDOR_INTEL, 6, 0x8f), "Sapphire Rapids-X (Golden Cove)");
    assert_string_equal(cpu_uarch_name(VENDOR_INTEL, 6, 0xad), "Granite Rapids-X (Redwood Cove)");
    assert_string_equal(cpu_uarch_name(VENDOR_INTEL, 6, 0xaf), "Atom Crestmont-X (Sierra Forest)");
    assert_string_equal(cpu_uarch_name(VENDOR_INTEL, 6, 0xc6), "Arrow Lake (Lion Cove / Skymont)");
    assert_string_equal(cpu_uarch_name(VENDOR_INTEL, 6, 0xb5), "Arrow Lake-U (Redwood Cove / Crestmont)");
    assert_string_equal(cpu_uarch_name(VENDOR_INTEL, 6, 0xbd), "Lunar Lake-M (Lion Cove / Skymont)");
    assert_string_equal(cpu_uarch_name(VENDOR_INTEL, 6, 0x96), "Atom Tremont (Elkhart Lake)");
    assert_string_equal(cpu_uarch_name(VENDOR_INTEL, 6, 0xbe), "Atom Gracemont (Alder Lake-N)");
    assert_string_equal(cpu_uarch_name(VENDOR_INTEL, 6, 0x5c), "Atom Goldmont (Apollo Lake)");
    assert_string_equal(cpu_uarch_name(VENDOR_AMD, 0x1a, 0x44), "Zen 5");
    assert_string_equal(cpu_uarch_name(VENDOR_AMD, 0x19, 0x61), "Zen 4");
    assert_string_equal(cpu_uarch_name(VENDOR_AMD, 0x19, 0x21), "Zen 3");
    assert_string_equal(cpu_uarch_name(VENDOR_AMD, 0x17, 0x31), "Zen 2");
    assert_string_equal(cpu_uarch_name(VENDOR_AMD, 0x17, 0x08), "Zen / Zen+");
    assert_string_equal(cpu_uarch_name(VENDOR_AMD, 0x15, 0x02), "Piledriver (family 15h)");
    assert_string_equal(cpu_uarch_name(VENDOR_INTEL, 6, 0xff), "unknown");
    assert_string_equal(cpu_uarch_name(VENDOR_OTHER, 6, 0x5e), "unknown");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_core2_conroe),
        cmocka_unit_test(test_westmere),
        cmocka_unit_test(test_sandybridge),
        cmocka_unit_test(test_skylake),
        cmocka_unit_test(test_icelake),
        cmocka_unit_test(test_alderlake_hybrid),
        cmocka_unit_test(test_raptorlake_p_hybrid),
        cmocka_unit_test(test_alderlake_ecores_disabled),
        cmocka_unit_test(test_meteorlake_leaf23),
        cmocka_unit_test(test_arrowlake_h_atom_kinds),
        cmocka_unit_test(test_arrowlake_h_lion_cove),
        cmocka_unit_test(test_arrowlake_u_is_meteor_lake),
        cmocka_unit_test(test_smi_count_msr),
        cmocka_unit_test(test_goldmont),
        cmocka_unit_test(test_knights_landing),
        cmocka_unit_test(test_amd_k8),
        cmocka_unit_test(test_amd_zen2),
        cmocka_unit_test(test_amd_zen4_perfmon_v2),
        cmocka_unit_test(test_amd_zen5_strix_point),
        cmocka_unit_test(test_knights_corner),
        cmocka_unit_test(test_kvm_guest_none),
        cmocka_unit_test(test_synthetic_v1),
        cmocka_unit_test(test_synthetic_v2_edx_zero),
        cmocka_unit_test(test_synthetic_v5_fixed_bitmap_holes),
        cmocka_unit_test(test_synthetic_unknown_v7),
        cmocka_unit_test(test_synthetic_short_event_vector),
        cmocka_unit_test(test_synthetic_zero_width),
        cmocka_unit_test(test_synthetic_hybrid),
        cmocka_unit_test(test_synthetic_leaf23),
        cmocka_unit_test(test_synthetic_none_tcg_like),
        cmocka_unit_test(test_synthetic_amd_corner_cases),
        cmocka_unit_test(test_perf_capabilities_decode),
        cmocka_unit_test(test_describe),
        cmocka_unit_test(test_uarch_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
