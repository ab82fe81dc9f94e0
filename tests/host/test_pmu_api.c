/* The PMU programming API (pmu/pmu.h) and its per-kind backends, the event tables (pmu/events.h).
 *
 * Two harnesses:
 *  - a recording hw_access ("rec") that keeps MSRs in a small table and logs every access, for what the API
 *    must write where (MSR numbers, values, order) and what it must refuse without touching hardware;
 *  - the register-level PMU model (emul/model/pmu_model.h), for behaviour: counting, RDMSR vs RDPMC,
 *    overflow status, write semantics - for synthetic PMUs of every kind and for every CPU in tests/host/data.
 * Expected values come from the manuals named next to them (SDM Vol.3B ch.21, AMD APM Vol.2 13.2, the KNC PMU
 * document), never from running the code. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/cpu_ident.h"
#include "pmu/cpuid_dump.h"
#include "pmu/events.h"
#include "pmu/kind.h"
#include "pmu/pmu.h"
#include "pmu/pmu_caps.h"
#include "pmu/pmu_msr.h"
#include "emul/model/pmu_model.h"
#include "tests/host/support/test_data.h"

/* ------------------------------------------------------------------------------------------------------ */
/* Synthetic CPUs: CPUID tables run through the real discovery, so the caps are what the kernel would see. */

#define INTEL_EBX 0x756e6547u /* "Genu" */
#define INTEL_EDX 0x49656e69u /* "ineI" */
#define INTEL_ECX 0x6c65746eu /* "ntel" */
#define AMD_EBX 0x68747541u   /* "Auth" */
#define AMD_EDX 0x69746e65u   /* "enti" */
#define AMD_ECX 0x444d4163u   /* "cAMD" */

static struct cpuid_dump syn;

static void discover(struct pmu_caps *c)
{
    struct cpuid_source src;
    struct cpu_ident id;
    cpuid_dump_source(&syn, &src);
    cpu_ident_decode(&id, &src);
    pmu_discover(c, &id, &src);
}

/* SDM Vol.2A CPUID.0AH: EAX = version | gp << 8 | width << 16 | len << 24; EDX = fixed | fixed width << 5 |
 * AnyThread deprecation << 15; ECX (v5+) = fixed-counter bitmap. Family 6 model 0x55 (a Skylake server:
 * its number matters to no quirk). `pdcm` sets CPUID.1:ECX[15]. */
static void intel_caps(struct pmu_caps *c, u32 version, u32 gp, u32 width, u32 nfixed, u32 fixed_bitmap,
                       u32 fixed_width, bool any_deprecated, bool pdcm)
{
    cpuid_dump_init(&syn);
    cpuid_dump_set(&syn, 0, 0, 0x0a, INTEL_EBX, INTEL_ECX, INTEL_EDX);
    cpuid_dump_set(&syn, 1, 0, 0x00050654, 0, pdcm ? 1u << 15 : 0, 0);
    cpuid_dump_set(&syn, 0x0a, 0, version | gp << 8 | width << 16 | 7u << 24, 0, fixed_bitmap,
                   nfixed | fixed_width << 5 | (any_deprecated ? 1u << 15 : 0));
    discover(c);
    assert_int_equal(c->kind, PMU_KIND_INTEL_ARCH);
    assert_int_equal(c->version, version);
}

/* Arch perfmon v6 with CPUID leaf 23H (SDM Vol.2A CPUID.23H; CPUID.(7,1):EAX[8] ArchPerfmonExt): GP bitmap
 * 0x3ff = 10 GP counters (GP 8 and 9 programmed through the v6 MSR aliases, as Linux does on v6), fixed bitmap 0x7. */
static void intel_v6_caps(struct pmu_caps *c)
{
    cpuid_dump_init(&syn);
    cpuid_dump_set(&syn, 0, 0, 0x23, INTEL_EBX, INTEL_ECX, INTEL_EDX);
    cpuid_dump_set(&syn, 1, 0, 0x000c06f2, 0, 0, 0);
    cpuid_dump_set(&syn, 7, 0, 1, 0, 0, 0);
    cpuid_dump_set(&syn, 7, 1, 1u << 8, 0, 0, 0);
    cpuid_dump_set(&syn, 0x0a, 0, 6 | 10u << 8 | 48u << 16 | 7u << 24, 0, 0, 3 | 48u << 5 | 1u << 15);
    cpuid_dump_set(&syn, 0x23, 0, 1u << 1, 0, 0, 0);
    cpuid_dump_set(&syn, 0x23, 1, 0x3ff, 0x7, 0, 0);
    discover(c);
    assert_int_equal(c->kind, PMU_KIND_INTEL_ARCH);
    assert_int_equal(c->version, 6);
    assert_int_equal(c->gp_mask, 0x3ff);
}

/* AMD APM Vol.3 CPUID Fn0000_0001 EAX: family = base (0xF) + extended family. Fn8000_0001 ECX[23]
 * PerfCtrExtCore; Fn8000_0022 EAX[0] PerfMonV2, EBX[3:0] core counters. */
static void amd_caps(struct pmu_caps *c, u32 family, bool core_ext, bool v2, u32 v2_counters)
{
    cpuid_dump_init(&syn);
    cpuid_dump_set(&syn, 0, 0, 1, AMD_EBX, AMD_ECX, AMD_EDX);
    u32 sig = family >= 0xf ? (0xfu << 8) | ((family - 0xf) << 20) : family << 8;
    cpuid_dump_set(&syn, 1, 0, sig, 0, 0, 0);
    cpuid_dump_set(&syn, 0x80000000, 0, v2 ? 0x80000022 : 0x80000001, 0, 0, 0);
    cpuid_dump_set(&syn, 0x80000001, 0, 0, 0, core_ext ? 1u << 23 : 0, 0);
    if (v2)
        cpuid_dump_set(&syn, 0x80000022, 0, 1, v2_counters, 0, 0);
    discover(c);
    assert_int_equal(c->family, family);
}

/* KNC PMU document: family 0x0B model 1 (same signature as tests/host/data/knc_synthetic.txt). */
static void knc_caps(struct pmu_caps *c)
{
    cpuid_dump_init(&syn);
    cpuid_dump_set(&syn, 0, 0, 1, INTEL_EBX, INTEL_ECX, INTEL_EDX);
    cpuid_dump_set(&syn, 1, 0, 0x00000b11, 0, 0, 0);
    discover(c);
    assert_int_equal(c->kind, PMU_KIND_KNC);
}

/* The named synthetic PMUs every behavioural test runs on. */
enum syn_kind {
    SYN_INTEL_V1,   /* 2 x 40-bit GP, no fixed, no global control (e.g. Core Solo/Duo, Yonah) */
    SYN_INTEL_V2,   /* 2 GP + 3 fixed, 40 bits (Core 2) */
    SYN_INTEL_V3,   /* 4 GP + 3 fixed, 48 bits, AnyThread (Nehalem/Westmere) */
    SYN_INTEL_V4FW, /* 4 GP + 3 fixed, 48 bits, status set/reset, full-width writes (Skylake) */
    SYN_INTEL_V5,   /* 8 GP, fixed bitmap 0,1,3 (hole at 2), AnyThread deprecated, full-width writes */
    SYN_INTEL_V6,   /* 10 GP (8, 9 through the v6 aliases), 3 fixed, no FW_WRITE for the legacy ones */
    SYN_AMD_LEGACY, /* K8: 4 counters at C001_0000, no global control, 8-bit events */
    SYN_AMD_CORE_EXT, /* family 15h: 6 interleaved counters */
    SYN_AMD_V2,     /* family 19h PerfMonV2, 6 counters */
    SYN_KNC,
    SYN_COUNT
};
static const char *const syn_names[SYN_COUNT] = {"intel v1", "intel v2", "intel v3", "intel v4 fw", "intel v5", "intel v6",
                                                 "amd legacy", "amd core-ext", "amd perfmon v2", "knc"};

static void syn_caps(struct pmu_caps *c, enum syn_kind k)
{
    switch (k) {
    case SYN_INTEL_V1:
        intel_caps(c, 1, 2, 40, 0, 0, 0, false, false);
        break;
    case SYN_INTEL_V2:
        intel_caps(c, 2, 2, 40, 3, 0, 40, false, false);
        break;
    case SYN_INTEL_V3:
        intel_caps(c, 3, 4, 48, 3, 0, 48, false, false);
        break;
    case SYN_INTEL_V4FW:
        intel_caps(c, 4, 4, 48, 3, 0, 48, false, true);
        pmu_caps_apply_perf_capabilities(c, 1u << 13); /* SDM: PERF_CAPABILITIES[13] FW_WRITE */
        break;
    case SYN_INTEL_V5:
        intel_caps(c, 5, 8, 48, 0, 0xb, 48, true, true);
        pmu_caps_apply_perf_capabilities(c, 1u << 13);
        break;
    case SYN_INTEL_V6:
        intel_v6_caps(c);
        break;
    case SYN_AMD_LEGACY:
        amd_caps(c, 0xf, false, false, 0);
        assert_int_equal(c->kind, PMU_KIND_AMD_LEGACY);
        break;
    case SYN_AMD_CORE_EXT:
        amd_caps(c, 0x15, true, false, 0);
        assert_int_equal(c->kind, PMU_KIND_AMD_CORE_EXT);
        break;
    case SYN_AMD_V2:
        amd_caps(c, 0x19, true, true, 6);
        assert_int_equal(c->kind, PMU_KIND_AMD_PERFMON_V2);
        break;
    case SYN_KNC:
    default:
        knc_caps(c);
        break;
    }
}

/* ------------------------------------------------------------------------------------------------------ */
/* The recording hw_access. */

#define REC_MSRS 128
#define REC_LOG 512

struct rec_access {
    char kind; /* 'r' rdmsr, 'w' wrmsr, 'p' rdpmc */
    u32 idx;
    u64 val;
};

struct rec {
    u32 msr[REC_MSRS];
    u64 val[REC_MSRS];
    u32 n;
    u32 fail_msr; /* accesses to this MSR return HW_GP (0: none) */
    struct rec_access log[REC_LOG];
    u32 nlog;
    u64 rdpmc_value;
};

static u64 *rec_slot(struct rec *r, u32 msr)
{
    for (u32 i = 0; i < r->n; i++)
        if (r->msr[i] == msr)
            return &r->val[i];
    assert_true(r->n < REC_MSRS);
    r->msr[r->n] = msr;
    r->val[r->n] = 0;
    return &r->val[r->n++];
}

static void rec_log(struct rec *r, char kind, u32 idx, u64 val)
{
    assert_true(r->nlog < REC_LOG);
    r->log[r->nlog++] = (struct rec_access){kind, idx, val};
}

static int rec_rdmsr(void *ctx, u32 msr, u64 *val)
{
    struct rec *r = ctx;
    rec_log(r, 'r', msr, 0);
    if (msr == r->fail_msr) {
        *val = 0;
        return HW_GP;
    }
    *val = *rec_slot(r, msr);
    return 0;
}

static int rec_wrmsr(void *ctx, u32 msr, u64 val)
{
    struct rec *r = ctx;
    rec_log(r, 'w', msr, val);
    if (msr == r->fail_msr)
        return HW_GP;
    *rec_slot(r, msr) = val;
    return 0;
}

static int rec_rdpmc(void *ctx, u32 ecx, u64 *val)
{
    struct rec *r = ctx;
    rec_log(r, 'p', ecx, 0);
    *val = r->rdpmc_value;
    return 0;
}

static u32 rec_apic_read(void *ctx, u32 reg)
{
    (void)ctx, (void)reg;
    return 0;
}

static void rec_apic_write(void *ctx, u32 reg, u32 val)
{
    (void)ctx, (void)reg, (void)val;
}

static const struct hw_ops rec_ops = {rec_rdmsr, rec_wrmsr, rec_rdpmc, rec_apic_read, rec_apic_write};

static struct rec rec;
static struct hw_access rec_hw;
static struct pmu_caps caps;
static struct pmu pmu;

static void rec_setup(enum syn_kind k)
{
    memset(&rec, 0, sizeof(rec));
    memset(&rec_hw, 0, sizeof(rec_hw));
    rec_hw.ops = &rec_ops;
    rec_hw.ctx = &rec;
    syn_caps(&caps, k);
    assert_int_equal(pmu_init(&pmu, &caps, &rec_hw), 0);
}

static u64 rec_get(u32 msr)
{
    return *rec_slot(&rec, msr);
}

static void rec_set(u32 msr, u64 v)
{
    *rec_slot(&rec, msr) = v;
}

/* The last write, which must be to `msr`. */
static u64 rec_last_write(u32 msr)
{
    for (u32 i = rec.nlog; i-- > 0;)
        if (rec.log[i].kind == 'w') {
            assert_int_equal(rec.log[i].idx, msr);
            return rec.log[i].val;
        }
    fail_msg("no MSR write logged (expected one to 0x%x)", msr);
    return 0;
}

/* ------------------------------------------------------------------------------------------------------ */
/* Encoding: bit positions from SDM Vol.3B Figure 21-1/21-6 (Intel), APM Vol.2 Figure 13-7 (AMD), KNC PMU
 * Table 1-5: event 7:0, umask 15:8, USR 16, OS 17, E 18, INT 20, ANY 21, EN 22, INV 23, CMASK 31:24;
 * AMD EventSelect[11:8] at 35:32. */

static void test_encode_fields_every_kind(void **state)
{
    (void)state;
    for (int k = 0; k < SYN_COUNT; k++) {
        rec_setup((enum syn_kind)k);
        struct pmu_evsel e = {.event = 0xc0, .umask = 0x5a, .cmask = 0x03, .usr = true, .os = true, .edge = true,
                              .inv = true, .intr = true, .enable = true};
        u64 raw = 0;
        const char *why = "unset";
        assert_int_equal(pmu_evsel_encode(&pmu, &e, &raw, &why), 0);
        assert_null(why);
        /* 0xc0 | 0x5a<<8 | 1<<16 | 1<<17 | 1<<18 | 1<<20 | 1<<22 | 1<<23 | 3<<24 */
        if (raw != 0x03d75ac0ull)
            fail_msg("%s: raw 0x%llx", syn_names[k], (unsigned long long)raw);
        struct pmu_evsel back;
        pmu_evsel_decode(&pmu, raw, &back);
        assert_memory_equal(&back, &e, sizeof(e));

        /* Each flag alone lands on its own bit. */
        struct {
            struct pmu_evsel e;
            u64 bit;
        } one[] = {
            {{.usr = true}, 1ull << 16}, {{.os = true}, 1ull << 17},     {{.edge = true}, 1ull << 18},
            {{.intr = true}, 1ull << 20}, {{.enable = true}, 1ull << 22}, {{.inv = true}, 1ull << 23},
            {{.cmask = 0xff}, 0xffull << 24}, {{.umask = 0xff}, 0xffull << 8}, {{.event = 0xff}, 0xff},
        };
        for (size_t i = 0; i < ARRAY_SIZE(one); i++) {
            assert_int_equal(pmu_evsel_encode(&pmu, &one[i].e, &raw, NULL), 0);
            if (raw != one[i].bit)
                fail_msg("%s case %zu: 0x%llx", syn_names[k], i, (unsigned long long)raw);
        }
    }
}

static void test_encode_amd_12bit_event(void **state)
{
    (void)state;
    /* Linux amd_zen4_perfmon_event_map REF_CPU_CYCLES = 0x100000120: PMCx120 umask 0x01 -> bits 35:32 = 1,
     * 15:8 = 0x01, 7:0 = 0x20. */
    rec_setup(SYN_AMD_V2);
    struct pmu_evsel e = {.event = 0x120, .umask = 0x01};
    u64 raw;
    assert_int_equal(pmu_evsel_encode(&pmu, &e, &raw, NULL), 0);
    assert_int_equal(raw, 0x100000120ull);
    e.event = 0x1000;
    const char *why = NULL;
    assert_int_equal(pmu_evsel_encode(&pmu, &e, &raw, &why), PMU_EINVAL);
    assert_non_null(why);
    assert_int_equal(raw, 0);
    /* K8 (family 0Fh) has 8-bit event selects. */
    rec_setup(SYN_AMD_LEGACY);
    e.event = 0x120;
    assert_int_equal(pmu_evsel_encode(&pmu, &e, &raw, &why), PMU_EINVAL);
    assert_non_null(strstr(why, "8 bits"));
    /* Intel and KNC: 8 bits. */
    rec_setup(SYN_INTEL_V3);
    e.event = 0x100;
    assert_int_equal(pmu_evsel_encode(&pmu, &e, &raw, NULL), PMU_EINVAL);
    rec_setup(SYN_KNC);
    assert_int_equal(pmu_evsel_encode(&pmu, &e, &raw, NULL), PMU_EINVAL);
}

/* AnyThread: Intel v3+ (SDM Vol.3B 21.2.3), refused when CPUID.0AH:EDX[15] deprecates it; AMD has no such
 * bit; KNC bit 21 is the thread-count mode (Table 1-5). */
static void test_anythread_legality(void **state)
{
    (void)state;
    static const struct {
        enum syn_kind k;
        bool legal;
    } cases[] = {
        {SYN_INTEL_V1, false}, {SYN_INTEL_V2, false}, {SYN_INTEL_V3, true},      {SYN_INTEL_V4FW, true},
        {SYN_INTEL_V5, false}, {SYN_INTEL_V6, false},  {SYN_AMD_LEGACY, false}, {SYN_AMD_CORE_EXT, false}, {SYN_AMD_V2, false},
        {SYN_KNC, true},
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        rec_setup(cases[i].k);
        struct pmu_evsel e = {.event = 0x3c, .any_thread = true, .os = true};
        u64 raw = 0;
        int r = pmu_evsel_encode(&pmu, &e, &raw, NULL);
        if ((r == 0) != cases[i].legal)
            fail_msg("%s: encode AnyThread returned 0x%x", syn_names[cases[i].k], r);
        if (cases[i].legal)
            assert_int_equal(raw, 0x3c | 1ull << 17 | 1ull << 21);
        /* The raw path refuses it too, without touching the hardware. */
        rec.nlog = 0;
        r = pmu.be->select_write(&pmu, 0, 0x3c | 1ull << 17 | 1ull << 21);
        if ((r == 0) != cases[i].legal)
            fail_msg("%s: raw select write with AnyThread returned 0x%x", syn_names[cases[i].k], r);
        if (!cases[i].legal)
            assert_int_equal(rec.nlog, 0);
        /* Fixed counters (Intel v2+): the same rule for the ANY bit of the 4-bit field. */
        if (caps.num_fixed) {
            r = pmu_program_fixed(&pmu, 0, PMU_FIXED_OS | PMU_FIXED_ANY);
            if ((r == 0) != cases[i].legal)
                fail_msg("%s: fixed ANY returned 0x%x", syn_names[cases[i].k], r);
        }
    }
}

/* Reserved select bits come from the capabilities and are refused before any write. */
static void test_reserved_select_bits(void **state)
{
    (void)state;
    rec_setup(SYN_INTEL_V1);
    u64 r1 = pmu_evsel_reserved(&pmu);
    assert_true(r1 & (1ull << 21));          /* SDM Figure 21-1: bit 21 reserved before v3 */
    assert_true(r1 & (1ull << 32));          /* no TSX bits before Haswell (v3) */
    assert_int_equal(r1 & 0xffffffffull & ~(1ull << 21), 0);
    rec_setup(SYN_INTEL_V3);
    u64 r3 = pmu_evsel_reserved(&pmu);
    assert_false(r3 & (1ull << 21));
    assert_false(r3 & (3ull << 32)); /* IN_TX / IN_TXCP: legal on TSX parts, not enumerated in pmu_caps */
    assert_true(r3 & (1ull << 63));
    rec_setup(SYN_AMD_CORE_EXT);
    u64 ra = pmu_evsel_reserved(&pmu);
    /* APM Vol.2 Figure 13-7: 19 and 21 reserved, 35:32 EventSelect[11:8], 41:40 HG_ONLY, 63:42 reserved */
    assert_true(ra & (1ull << 19));
    assert_true(ra & (1ull << 21));
    assert_false(ra & (0xfull << 32));
    assert_false(ra & (3ull << 40));
    assert_true(ra & (1ull << 42));
    rec_setup(SYN_AMD_LEGACY); /* K8: 8-bit events, bit 19 is PC (Athlon optimization guide Figure 11) */
    assert_true(pmu_evsel_reserved(&pmu) & (0xfull << 32));
    assert_false(pmu_evsel_reserved(&pmu) & (1ull << 19));
    rec_setup(SYN_KNC);
    u64 rk = pmu_evsel_reserved(&pmu);
    assert_true(rk & (1ull << 19)); /* Table 1-5: 19 reserved; 32-bit register */
    assert_true(rk & (1ull << 32));
    assert_false(rk & (1ull << 21));

    for (int k = 0; k < SYN_COUNT; k++) {
        rec_setup((enum syn_kind)k);
        u64 res = pmu_evsel_reserved(&pmu);
        for (u32 bit = 0; bit < 64; bit++) {
            if (!((res >> bit) & 1))
                continue;
            rec.nlog = 0;
            int r = pmu.be->select_write(&pmu, 0, (1ull << bit) | 0x3c);
            if (r != PMU_EINVAL || rec.nlog)
                fail_msg("%s: reserved bit %u accepted (r=0x%x, %u accesses)", syn_names[k], bit, r, rec.nlog);
        }
        /* A select for a counter that does not exist. */
        assert_int_equal(pmu.be->select_write(&pmu, caps.num_gp, 0x3c), PMU_EINVAL);
        struct pmu_evsel e = {.event = 0x3c, .os = true};
        assert_int_equal(pmu_program_gp(&pmu, 31, &e), PMU_EINVAL);
    }
}

/* Where things go: MSR numbers per kind (SDM Vol.4 Table 2-2; APM Vol.2 13.2; KNC Table 1-2). */
static void test_select_and_counter_msrs(void **state)
{
    (void)state;
    static const struct {
        enum syn_kind k;
        u32 gp;
        u32 sel, ctr;
    } cases[] = {
        {SYN_INTEL_V3, 3, 0x189, 0xc4},           {SYN_AMD_LEGACY, 2, 0xc0010002, 0xc0010006},
        {SYN_AMD_CORE_EXT, 5, 0xc001020a, 0xc001020b}, {SYN_AMD_V2, 1, 0xc0010202, 0xc0010203},
        {SYN_KNC, 1, 0x29, 0x21},
        /* v6 aliases (Linux msr-index.h MSR_IA32_PMC_V6_GP0_CTR 0x1900, CFG_A 0x1901, stride 4): GP 9 */
        {SYN_INTEL_V6, 9, 0x1900 + 9 * 4 + 1, 0x1900 + 9 * 4},
        {SYN_INTEL_V6, 7, 0x18d, 0xc8},
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        rec_setup(cases[i].k);
        struct pmu_evsel e = {.event = 0x12, .usr = true};
        assert_int_equal(pmu_program_gp(&pmu, cases[i].gp, &e), 0);
        assert_int_equal(rec_last_write(cases[i].sel), 0x12 | 1ull << 16);
        assert_int_equal(pmu.be->counter_write(&pmu, PMU_GP(cases[i].gp), 0x1234), 0);
        assert_int_equal(rec_last_write(cases[i].ctr), 0x1234);
        u64 v;
        rec_set(cases[i].ctr, 0x777);
        assert_int_equal(pmu.be->counter_read(&pmu, PMU_GP(cases[i].gp), &v), 0);
        assert_int_equal(v, 0x777);
    }
}

/* RDPMC ECX: Intel GP i -> i, fixed i -> (1 << 30) | i (SDM Vol.2B RDPMC); AMD i -> i (APM Vol.3 RDPMC);
 * KNC 0/1 (Table 1-1). */
static void test_rdpmc_index(void **state)
{
    (void)state;
    rec_setup(SYN_INTEL_V4FW);
    assert_int_equal(pmu.be->rdpmc_index(&pmu, PMU_GP(3)), 3);
    assert_int_equal(pmu.be->rdpmc_index(&pmu, PMU_FIXED(0)), 0x40000000u);
    assert_int_equal(pmu.be->rdpmc_index(&pmu, PMU_FIXED(2)), 0x40000002u);
    u64 v;
    rec.rdpmc_value = 99;
    assert_int_equal(pmu.be->counter_rdpmc(&pmu, PMU_FIXED(1), &v), 0);
    assert_int_equal(rec.log[rec.nlog - 1].kind, 'p');
    assert_int_equal(rec.log[rec.nlog - 1].idx, 0x40000001u);
    assert_int_equal(v, 99);
    assert_int_equal(pmu.be->counter_rdpmc(&pmu, PMU_FIXED(3), &v), PMU_EINVAL); /* 3 fixed counters */
    rec_setup(SYN_AMD_CORE_EXT);
    assert_int_equal(pmu.be->rdpmc_index(&pmu, PMU_GP(5)), 5);
    assert_int_equal(pmu.be->counter_rdpmc(&pmu, PMU_GP(6), &v), PMU_EINVAL);
    rec_setup(SYN_KNC);
    assert_int_equal(pmu.be->rdpmc_index(&pmu, PMU_GP(1)), 1);
    assert_int_equal(pmu.be->counter_rdpmc(&pmu, PMU_GP(2), &v), PMU_EINVAL);
}

/* Counter writes: IA32_PMCx takes EAX sign-extended (SDM Vol.3B 21.2.6); with FW_WRITE the full value goes
 * to IA32_A_PMCx (0x4C1 + x); fixed, AMD and KNC counters take their full width. */
static void test_counter_write_semantics(void **state)
{
    (void)state;
    rec_setup(SYN_INTEL_V3); /* 48-bit, no FW_WRITE */
    assert_int_equal(pmu_max_period(&pmu, PMU_GP(0)), 1ull << 31);
    assert_int_equal(pmu_preload(&pmu, PMU_GP(1), 1ull << 31), 0);
    assert_int_equal(rec_last_write(0xc2), 0x80000000ull); /* EAX only: sign extension makes 2^48 - 2^31 */
    assert_int_equal(pmu_preload(&pmu, PMU_GP(1), 100), 0);
    assert_int_equal(rec_last_write(0xc2), 0xffffff9cull); /* -100 in EAX */
    rec.nlog = 0;
    assert_int_equal(pmu_preload(&pmu, PMU_GP(1), (1ull << 31) + 1), PMU_EINVAL);
    assert_int_equal(pmu_preload(&pmu, PMU_GP(1), 0), PMU_EINVAL);
    /* values the sign-extending write cannot produce are refused, not silently changed */
    assert_int_equal(pmu.be->counter_write(&pmu, PMU_GP(0), 0x100000000ull), PMU_EINVAL);
    assert_int_equal(pmu.be->counter_write(&pmu, PMU_GP(0), 0x80000000ull), PMU_EINVAL);
    assert_int_equal(pmu.be->counter_write(&pmu, PMU_GP(0), 1ull << 48), PMU_EINVAL); /* beyond the width */
    assert_int_equal(rec.nlog, 0);
    assert_int_equal(pmu.be->counter_write(&pmu, PMU_GP(0), 0xffff80000000ull), 0);
    assert_int_equal(rec_last_write(0xc1), 0x80000000ull);
    /* fixed counters: full width at 0x309 + i */
    assert_int_equal(pmu_max_period(&pmu, PMU_FIXED(2)), (1ull << 48) - 1);
    assert_int_equal(pmu_preload(&pmu, PMU_FIXED(2), 1ull << 40), 0);
    assert_int_equal(rec_last_write(0x30b), (1ull << 48) - (1ull << 40));

    rec_setup(SYN_INTEL_V4FW);
    assert_int_equal(pmu_max_period(&pmu, PMU_GP(0)), (1ull << 48) - 1);
    assert_int_equal(pmu_preload(&pmu, PMU_GP(2), 1ull << 40), 0);
    assert_int_equal(rec_last_write(0x4c3), (1ull << 48) - (1ull << 40));

    rec_setup(SYN_INTEL_V6); /* GP 0-7 legacy (no FW_WRITE): 2^31; GP 8+ through the full-width alias */
    assert_int_equal(pmu_max_period(&pmu, PMU_GP(7)), 1ull << 31);
    assert_int_equal(pmu_max_period(&pmu, PMU_GP(8)), (1ull << 48) - 1);
    assert_int_equal(pmu_preload(&pmu, PMU_GP(8), 1ull << 40), 0);
    assert_int_equal(rec_last_write(0x1920), (1ull << 48) - (1ull << 40));

    rec_setup(SYN_AMD_CORE_EXT);
    assert_int_equal(pmu_preload(&pmu, PMU_GP(4), 1ull << 40), 0);
    assert_int_equal(rec_last_write(0xc0010209), (1ull << 48) - (1ull << 40));
    assert_int_equal(pmu.be->counter_write(&pmu, PMU_GP(0), 1ull << 48), PMU_EINVAL);

    rec_setup(SYN_KNC); /* 40 bits written whole (KNC PMU 1.4.3) */
    assert_int_equal(pmu_preload(&pmu, PMU_GP(1), 1ull << 35), 0);
    assert_int_equal(rec_last_write(0x21), (1ull << 40) - (1ull << 35));
    assert_int_equal(pmu_max_period(&pmu, PMU_GP(0)), (1ull << 40) - 1);
    assert_int_equal(pmu.be->counter_write(&pmu, PMU_GP(0), 1ull << 40), PMU_EINVAL);
}

/* Global enable: GLOBAL_CTRL where it exists (Intel v2+ 0x38F, AMD PerfMonV2 C000_0301, KNC 0x2F); else the
 * EN bit (22) of each select, read-modify-write. */
static void test_global_set(void **state)
{
    (void)state;
    static const struct {
        enum syn_kind k;
        u32 msr;
        u64 bits;
    } with[] = {
        {SYN_INTEL_V2, 0x38f, 0x3 | 0x7ull << 32},
        {SYN_AMD_V2, 0xc0000301, 0x3f},
        {SYN_KNC, 0x2f, 0x3},
    };
    for (size_t i = 0; i < ARRAY_SIZE(with); i++) {
        rec_setup(with[i].k);
        assert_int_equal(pmu.be->global_set(&pmu, with[i].bits), 0);
        assert_int_equal(rec_last_write(with[i].msr), with[i].bits);
        u64 got;
        assert_int_equal(pmu.be->global_get(&pmu, &got), 0);
        assert_int_equal(got, with[i].bits);
        rec.nlog = 0;
        assert_int_equal(pmu.be->global_set(&pmu, with[i].bits << 1 | 1ull << 40), PMU_EINVAL);
        assert_int_equal(rec.nlog, 0);
    }
    static const struct {
        enum syn_kind k;
        u32 sel0, stride;
    } without[] = {{SYN_INTEL_V1, 0x186, 1}, {SYN_AMD_LEGACY, 0xc0010000, 1}, {SYN_AMD_CORE_EXT, 0xc0010200, 2}};
    for (size_t i = 0; i < ARRAY_SIZE(without); i++) {
        rec_setup(without[i].k);
        rec_set(without[i].sel0, 0x0301c0); /* programmed, not enabled */
        rec_set(without[i].sel0 + without[i].stride, 0x0301c4 | 1ull << 22);
        assert_int_equal(pmu.be->global_set(&pmu, 0x1), 0);
        assert_int_equal(rec_get(without[i].sel0), 0x0301c0 | 1ull << 22);
        assert_int_equal(rec_get(without[i].sel0 + without[i].stride), 0x0301c4);
        u64 got;
        assert_int_equal(pmu.be->global_get(&pmu, &got), 0);
        assert_int_equal(got, 0x1);
        assert_int_equal(pmu.be->global_set(&pmu, 0), 0);
        assert_int_equal(rec_get(without[i].sel0), 0x0301c0);
        assert_false(pmu_has_global_ctrl(&pmu));
    }
}

/* Overflow status per kind. */
static void test_status_registers(void **state)
{
    (void)state;
    u64 st;
    /* No status register: Intel v1 (SDM Vol.3B 21.2.1), AMD legacy / PerfCtrExtCore (APM Vol.2 13.2.1). */
    static const enum syn_kind none[] = {SYN_INTEL_V1, SYN_AMD_LEGACY, SYN_AMD_CORE_EXT};
    for (size_t i = 0; i < ARRAY_SIZE(none); i++) {
        rec_setup(none[i]);
        assert_false(pmu_has_status(&pmu));
        assert_int_equal(pmu.be->status_read(&pmu, &st), PMU_ENOTSUP);
        assert_int_equal(pmu.be->status_clear(&pmu, 1), PMU_ENOTSUP);
        assert_int_equal(pmu.be->status_set(&pmu, 1), PMU_ENOTSUP);
        assert_int_equal(rec.nlog, 0);
    }
    /* Intel v2: read 0x38E, clear through OVF_CTRL 0x390, no STATUS_SET (v4+). */
    rec_setup(SYN_INTEL_V2);
    rec_set(0x38e, 0x2 | 1ull << 33);
    assert_int_equal(pmu.be->status_read(&pmu, &st), 0);
    assert_int_equal(st, 0x2 | 1ull << 33);
    assert_int_equal(pmu.be->status_clear(&pmu, 0x2 | 1ull << 33 | 1ull << 63), 0);
    assert_int_equal(rec_last_write(0x390), 0x2 | 1ull << 33 | 1ull << 63);
    assert_int_equal(pmu.be->status_set(&pmu, 1), PMU_ENOTSUP);
    assert_int_equal(pmu.be->status_clear(&pmu, 1ull << 2), PMU_EINVAL);   /* GP 2 does not exist */
    assert_int_equal(pmu.be->status_clear(&pmu, 1ull << 59), PMU_EINVAL);  /* CTR_Frz is v4+ */
    /* Intel v4: STATUS_RESET (still 0x390) and STATUS_SET 0x391 (SDM Vol.3B 21.2.4.2). */
    rec_setup(SYN_INTEL_V4FW);
    assert_int_equal(pmu.be->status_set(&pmu, 1ull << 34 | 1ull << 59), 0);
    assert_int_equal(rec_last_write(0x391), 1ull << 34 | 1ull << 59);
    assert_int_equal(pmu.be->status_clear(&pmu, 1ull << 34 | 1ull << 59), 0);
    assert_int_equal(rec_last_write(0x390), 1ull << 34 | 1ull << 59);
    /* AMD PerfMonV2: STATUS C000_0300, CLR C000_0302, SET C000_0303 (APM Vol.2 13.2.2). */
    rec_setup(SYN_AMD_V2);
    rec_set(0xc0000300, 0x20);
    assert_int_equal(pmu.be->status_read(&pmu, &st), 0);
    assert_int_equal(st, 0x20);
    assert_int_equal(pmu.be->status_clear(&pmu, 0x20), 0);
    assert_int_equal(rec_last_write(0xc0000302), 0x20);
    assert_int_equal(pmu.be->status_set(&pmu, 0x4), 0);
    assert_int_equal(rec_last_write(0xc0000303), 0x4);
    assert_int_equal(pmu.be->status_clear(&pmu, 0x40), PMU_EINVAL);
    /* KNC: STATUS 0x2D, OVF_CTRL 0x2E write-1-to-clear, bits 1:0 only, no set register. */
    rec_setup(SYN_KNC);
    assert_int_equal(pmu.be->status_clear(&pmu, 0x3), 0);
    assert_int_equal(rec_last_write(0x2e), 0x3);
    assert_int_equal(pmu.be->status_clear(&pmu, 0x4), PMU_EINVAL);
    assert_int_equal(pmu.be->status_set(&pmu, 1), PMU_ENOTSUP);
}

/* IA32_FIXED_CTR_CTRL: fixed counter i owns bits 4i+3:4i (SDM Vol.3B 21.2.2); the other fields survive. */
static void test_fixed_ctrl_fields(void **state)
{
    (void)state;
    rec_setup(SYN_INTEL_V3);
    rec_set(0x38d, 0x0b0);
    assert_int_equal(pmu_program_fixed(&pmu, 2, PMU_FIXED_OS | PMU_FIXED_USR | PMU_FIXED_PMI), 0);
    assert_int_equal(rec_get(0x38d), 0xbb0);
    assert_int_equal(pmu_program_fixed(&pmu, 1, 0), 0);
    assert_int_equal(rec_get(0x38d), 0xb00);
    assert_int_equal(pmu_program_fixed(&pmu, 3, PMU_FIXED_OS), PMU_EINVAL); /* 3 fixed counters */
    assert_int_equal(pmu_program_fixed(&pmu, 0, 0x10), PMU_EINVAL);
    /* v5 bitmap 0,1,3: counter 2 is a hole, 3 exists (SDM CPUID.0AH.ECX). */
    rec_setup(SYN_INTEL_V5);
    assert_int_equal(pmu.counters >> 32, 0xb);
    assert_int_equal(pmu_program_fixed(&pmu, 2, PMU_FIXED_OS), PMU_EINVAL);
    assert_int_equal(pmu_program_fixed(&pmu, 3, PMU_FIXED_OS), 0);
    assert_int_equal(rec_get(0x38d), 0x1000);
    assert_int_equal(pmu_preload(&pmu, PMU_FIXED(2), 10), PMU_EINVAL);
    assert_int_equal(pmu_preload(&pmu, PMU_FIXED(3), 10), 0);
    assert_int_equal(rec_last_write(0x30c), (1ull << 48) - 10);
    /* No fixed counters at all. */
    rec_setup(SYN_INTEL_V1);
    assert_int_equal(pmu_program_fixed(&pmu, 0, PMU_FIXED_OS), PMU_ENOTSUP);
    rec_setup(SYN_AMD_V2);
    assert_int_equal(pmu_program_fixed(&pmu, 0, PMU_FIXED_OS), PMU_ENOTSUP);
    /* Reserved bits of the control registers. */
    rec_setup(SYN_INTEL_V2);
    u64 fr = pmu_fixed_ctrl_reserved(&pmu);
    assert_int_equal(fr & 0xfff, 0x444); /* ANY (bit 2 of each field) arrives with v3 */
    assert_true(fr & (1ull << 12));
    assert_int_equal(pmu_global_ctrl_reserved(&pmu) & 0x7000000ffull, 0x0fcull);
}

/* pmu_reset: global enable off first, selects, fixed control, counters, status cleared last. */
static void test_reset_order(void **state)
{
    (void)state;
    rec_setup(SYN_INTEL_V4FW);
    rec_set(0x38f, 0xf);                         /* SDM: GLOBAL_CTRL resets with every GP enable set */
    rec_set(0x38e, 0x1 | 1ull << 32 | 1ull << 63); /* status with CondChgd */
    rec_set(0x186, 0x43003c);
    assert_int_equal(pmu_reset(&pmu), 0);
    assert_int_equal(rec.log[0].kind, 'w');
    assert_int_equal(rec.log[0].idx, 0x38f);
    assert_int_equal(rec.log[0].val, 0);
    assert_int_equal(rec_get(0x186), 0);
    assert_int_equal(rec_get(0x38d), 0);
    assert_int_equal(rec_get(0x4c1), 0); /* FW_WRITE: the counters are zeroed through IA32_A_PMCx */
    assert_int_equal(rec_get(0x309), 0);
    assert_int_equal(rec_last_write(0x390), 0x1 | 1ull << 32 | 1ull << 63);
    u32 first_sel = 0, last_ctr = 0;
    for (u32 i = 0; i < rec.nlog; i++) {
        if (rec.log[i].kind == 'w' && rec.log[i].idx == 0x186 && !first_sel)
            first_sel = i;
        if (rec.log[i].kind == 'w' && (rec.log[i].idx == 0x4c4 || rec.log[i].idx == 0x30b))
            last_ctr = i;
    }
    assert_true(first_sel > 0 && first_sel < last_ctr);
    /* v1: no global control, the select writes (EN = 0) come first; no status to clear. */
    rec_setup(SYN_INTEL_V1);
    rec_set(0x186, 0x43003c);
    assert_int_equal(pmu_reset(&pmu), 0);
    assert_int_equal(rec.log[0].idx, 0x186);
    assert_int_equal(rec_get(0x186), 0);
    /* An access that faults: reported, the rest still done. */
    rec_setup(SYN_INTEL_V3);
    rec.fail_msr = 0x187;
    rec_set(0xc4, 5);
    assert_int_equal(pmu_reset(&pmu), HW_GP);
    assert_int_equal(rec_get(0xc4), 0);
}

static void test_init_rejects(void **state)
{
    (void)state;
    struct pmu_caps c;
    memset(&c, 0, sizeof(c));
    c.kind = PMU_KIND_NONE;
    struct pmu p;
    assert_int_equal(pmu_init(&p, &c, &rec_hw), PMU_ENOTSUP);
    assert_non_null(p.error);
    syn_caps(&c, SYN_INTEL_V3);
    c.gp_width = 65;
    assert_int_equal(pmu_init(&p, &c, &rec_hw), PMU_EINVAL);
    assert_non_null(strstr(p.error, "width"));
    assert_string_equal(pmu_strerror(HW_GP), "#GP");
    assert_string_equal(pmu_strerror(PMU_ENOTSUP), "not supported by this PMU");
}

/* ------------------------------------------------------------------------------------------------------ */
/* Event tables. */

static void test_intel_arch_event_codes(void **state)
{
    (void)state;
    /* SDM Vol.3B Table 21-1. */
    static const struct {
        enum pmu_arch_event ae;
        u16 event;
        u8 umask;
    } t[] = {
        {PMU_AE_CORE_CYCLES, 0x3c, 0x00},     {PMU_AE_INSTRUCTIONS, 0xc0, 0x00},    {PMU_AE_REF_CYCLES, 0x3c, 0x01},
        {PMU_AE_LLC_REFERENCES, 0x2e, 0x4f},  {PMU_AE_LLC_MISSES, 0x2e, 0x41},      {PMU_AE_BRANCHES, 0xc4, 0x00},
        {PMU_AE_BRANCH_MISSES, 0xc5, 0x00},   {PMU_AE_TOPDOWN_SLOTS, 0xa4, 0x01},   {PMU_AE_TOPDOWN_BACKEND, 0xa4, 0x02},
        {PMU_AE_TOPDOWN_BAD_SPEC, 0x73, 0x00}, {PMU_AE_TOPDOWN_FRONTEND, 0x9c, 0x01}, {PMU_AE_TOPDOWN_RETIRING, 0xc2, 0x02},
        {PMU_AE_LBR_INSERTS, 0xe4, 0x01},
    };
    assert_int_equal(ARRAY_SIZE(t), PMU_AE_COUNT);
    for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
        const struct pmu_event *e = &pmu_intel_arch_events[t[i].ae];
        if (e->event != t[i].event || e->umask != t[i].umask)
            fail_msg("arch event %d: %02x/%02x", t[i].ae, e->event, e->umask);
        assert_string_equal(e->name, pmu_arch_event_name(t[i].ae));
        assert_non_null(strstr(e->source, "Table 21-1"));
    }
    /* SDM Table 21-2: fixed 0 instructions, 1 core cycles, 2 reference cycles, 3 topdown slots. */
    assert_int_equal(pmu_intel_fixed_event(0), PMU_AE_INSTRUCTIONS);
    assert_int_equal(pmu_intel_fixed_event(1), PMU_AE_CORE_CYCLES);
    assert_int_equal(pmu_intel_fixed_event(2), PMU_AE_REF_CYCLES);
    assert_int_equal(pmu_intel_fixed_event(3), PMU_AE_TOPDOWN_SLOTS);
    assert_int_equal(pmu_intel_fixed_event(9), PMU_AE_COUNT);
}

static void test_generic_events_per_kind(void **state)
{
    (void)state;
    static const struct {
        enum syn_kind k;
        u16 ev[PMU_EV_COUNT];
    } t[] = {
        /* SDM Table 21-1 */
        {SYN_INTEL_V3, {0x3c, 0xc0, 0xc4, 0xc5}},
        /* Linux amd_perfmon_event_map: 0x76 cycles, 0xc0 instructions, 0xc2 branches, 0xc3 misses */
        {SYN_AMD_LEGACY, {0x76, 0xc0, 0xc2, 0xc3}},
        {SYN_AMD_V2, {0x76, 0xc0, 0xc2, 0xc3}},
        /* KNC Table 1-6: CPU_CLK_UNHALTED 0x2A, INSTRUCTIONS_EXECUTED 0x16, BRANCHES 0x12, BRANCHES_MISPREDICTED
         * 0x2B */
        {SYN_KNC, {0x2a, 0x16, 0x12, 0x2b}},
    };
    for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
        syn_caps(&caps, t[i].k);
        for (int ev = 0; ev < PMU_EV_COUNT; ev++) {
            const char *why = "unset";
            const struct pmu_event *e = pmu_event_generic(&caps, (enum pmu_generic_event)ev, &why);
            if (!e)
                fail_msg("%s %s: %s", syn_names[t[i].k], pmu_generic_event_name((enum pmu_generic_event)ev), why);
            assert_null(why);
            assert_int_equal(e->event, t[i].ev[ev]);
            assert_int_equal(e->umask, 0);
            assert_non_null(e->source);
        }
    }
    /* An architectural event CPUID marks unavailable is not offered. */
    syn_caps(&caps, SYN_INTEL_V3);
    caps.arch_events &= ~BIT(PMU_AE_BRANCH_MISSES);
    const char *why = NULL;
    assert_null(pmu_event_generic(&caps, PMU_EV_BRANCH_MISSES, &why));
    assert_non_null(strstr(why, "unavailable"));
}

static void test_knc_table_has_seed_events(void **state)
{
    (void)state;
    /* The tuning guide's Table 5 events (KNC PMU 327357-001 Table 1-6 UMASK / code). */
    static const struct {
        const char *name;
        u8 umask;
        u16 event;
    } t[] = {
        {"CPU_CLK_UNHALTED", 0x00, 0x2a},           {"INSTRUCTIONS_EXECUTED", 0x00, 0x16},
        {"VPU_ELEMENTS_ACTIVE", 0x20, 0x18},        {"VPU_INSTRUCTIONS_EXECUTED", 0x20, 0x16},
        {"DATA_READ_OR_WRITE", 0x00, 0x28},         {"DATA_READ_MISS_OR_WRITE_MISS", 0x00, 0x29},
        {"L1_DATA_HIT_INFLIGHT_PF1", 0x00, 0x20},   {"EXEC_STAGE_CYCLES", 0x00, 0x2e},
        {"DATA_PAGE_WALK", 0x00, 0x02},             {"LONG_DATA_PAGE_WALK", 0x00, 0x3a},
        {"L2_DATA_READ_MISS_CACHE_FILL", 0x10, 0xf1}, {"L2_DATA_WRITE_MISS_CACHE_FILL", 0x10, 0xf2},
        {"L2_DATA_READ_MISS_MEM_FILL", 0x10, 0xf6}, {"L2_DATA_WRITE_MISS_MEM_FILL", 0x10, 0xf7},
        {"L2_VICTIM_REQ_WITH_DATA", 0x10, 0xd7},    {"SNP_HITM_L2", 0x10, 0xe7},
    };
    syn_caps(&caps, SYN_KNC);
    for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
        const struct pmu_event *e = pmu_event_find(&caps, t[i].name);
        if (!e)
            fail_msg("%s missing from the KNC table", t[i].name);
        assert_int_equal(e->event, t[i].event);
        assert_int_equal(e->umask, t[i].umask);
        assert_non_null(strstr(e->source, "Table 1-6"));
    }
    assert_null(pmu_event_find(&caps, "HWP_L2MISS")); /* tuning guide §5.4 uses it; not in the KNC PMU table */
    /* No two entries share a name or an (event, umask) pair. */
    for (size_t i = 0; i < pmu_knc_events_len; i++)
        for (size_t j = i + 1; j < pmu_knc_events_len; j++) {
            assert_true(strcmp(pmu_knc_events[i].name, pmu_knc_events[j].name) != 0);
            assert_false(pmu_knc_events[i].event == pmu_knc_events[j].event &&
                         pmu_knc_events[i].umask == pmu_knc_events[j].umask);
        }
    /* Every table entry encodes on its own PMU kind. */
    rec_setup(SYN_KNC);
    for (size_t i = 0; i < pmu_knc_events_len; i++) {
        struct pmu_evsel base = {.os = true, .usr = true}, e;
        u64 raw;
        pmu_event_to_evsel(&pmu_knc_events[i], &base, &e);
        assert_int_equal(pmu_evsel_encode(&pmu, &e, &raw, NULL), 0);
        assert_int_equal(raw & 0xffff, (u64)pmu_knc_events[i].umask << 8 | pmu_knc_events[i].event);
    }
    rec_setup(SYN_AMD_V2);
    for (size_t i = 0; i < pmu_amd_events_len; i++) {
        struct pmu_evsel base = {0}, e;
        u64 raw;
        pmu_event_to_evsel(&pmu_amd_events[i], &base, &e);
        assert_int_equal(pmu_evsel_encode(&pmu, &e, &raw, NULL), 0);
    }
    /* Family filter: the Zen PMCx060 encoding is not offered to a K8. */
    syn_caps(&caps, SYN_AMD_LEGACY);
    assert_null(pmu_event_find(&caps, "l2_cache_accesses"));
    assert_non_null(pmu_event_find(&caps, "l2_requests"));
}

/* AMD family 15h counter constraints. Each expected set is the PMC set Linux arch/x86/events/amd/core.c
 * amd_get_event_constraints_f15h() returns for that code (PMC0 0x01, PMC20 0x07, PMC3 0x08, PMC30 0x09, PMC50
 * 0x3F, PMC53 0x38, emptyconstraint 0), by its unit (code bits 7:4) or its listed exception. */
static const struct {
    u16 event;
    u8 umask;
    u32 counters;
} f15h[] = {
    {0x076, 0x00, 0x07}, /* CU: CPU clocks not halted, the cycles event pmuboot programs */
    {0x07d, 0x07, 0x07}, {0x07e, 0x07, 0x07}, /* CU: L2 requests, misses (l2_requests, l2_misses) */
    {0x0d0, 0x00, 0x07}, {0x0d1, 0x00, 0x07}, /* DE: decoder empty, dispatch stalls */
    {0x0c0, 0x00, 0x3f}, {0x0c2, 0x00, 0x3f}, {0x0c3, 0x00, 0x3f}, {0x0c4, 0x00, 0x3f}, /* EX_LS */
    {0x000, 0x11, 0x08}, {0x000, 0x01, 0x38}, {0x000, 0x10, 0x38}, /* FP 0x000: by unit-mask nibbles */
    {0x004, 0x03, 0x08}, {0x004, 0x02, 0x38}, {0x003, 0x00, 0x08}, {0x00b, 0x00, 0x08}, {0x00d, 0x00, 0x08},
    {0x010, 0x00, 0x38}, {0x01f, 0x00, 0x38}, /* FP default */
    {0x023, 0x00, 0x07}, {0x043, 0x00, 0x07}, {0x046, 0x00, 0x07}, {0x055, 0x00, 0x07},
    {0x02d, 0x00, 0x08}, {0x02e, 0x00, 0x09}, {0x031, 0x01, 0x07}, {0x031, 0x03, 0x00},
    {0x020, 0x00, 0x3f}, {0x040, 0x00, 0x3f}, {0x05f, 0x00, 0x3f}, /* LS, DC default */
    {0x1c0, 0x00, 0x38}, {0x1c1, 0x00, 0x3f}, /* EX 0x1C0 exception; 0x1C1's unit is EX_LS */
    {0x08f, 0x00, 0x01}, {0x187, 0x00, 0x01}, {0x188, 0x00, 0x01}, {0x087, 0x01, 0x07},
    {0x0db, 0x00, 0x3f}, {0x0df, 0x00, 0x3f}, {0x0da, 0x00, 0x07}, {0x1d6, 0x00, 0x3f}, {0x1d7, 0x00, 0x07},
    {0x1d8, 0x00, 0x3f},
    {0x0a0, 0x00, 0x00}, {0x0b5, 0x00, 0x00}, {0x0e0, 0x00, 0x00}, {0x1f0, 0x00, 0x00}, /* unused, NB */
};

static void expect_constraint(const struct pmu_caps *c, u16 event, u8 umask, u32 counters)
{
    struct pmu_gp_constraint k = pmu_event_gp_constraint(c, event, umask);
    if (k.counters != counters)
        fail_msg("family 0x%x event 0x%03x umask 0x%02x: counters 0x%x, expected 0x%x", c->family, event, umask,
                 k.counters, counters);
    if (counters == c->gp_mask)
        assert_null(k.source);
    else
        assert_non_null(strstr(k.source, "amd_get_event_constraints_f15h"));
}

static void test_f15h_counter_constraints(void **state)
{
    (void)state;
    syn_caps(&caps, SYN_AMD_CORE_EXT); /* family 15h, 6 counters */
    for (size_t i = 0; i < ARRAY_SIZE(f15h); i++)
        expect_constraint(&caps, f15h[i].event, f15h[i].umask, f15h[i].counters);
    /* The cycles event of pmuboot's table, looked up as the checks do. */
    const struct pmu_event *cyc = pmu_event_generic(&caps, PMU_EV_CYCLES, NULL);
    assert_int_equal(pmu_event_gp_constraint(&caps, cyc->event, cyc->umask).counters, 0x07);
    /* A family-15h guest offered only the four legacy counters: the same wiring, within those four. */
    amd_caps(&caps, 0x15, false, false, 0);
    assert_int_equal(caps.gp_mask, 0xf);
    expect_constraint(&caps, 0x076, 0x00, 0x07);
    expect_constraint(&caps, 0x1c0, 0x00, 0x08);
    expect_constraint(&caps, 0x0c0, 0x00, 0x0f);
}

/* Families without a constraint table get every GP counter for every code (Linux: amd_get_event_constraints
 * for 10h/16h and K8, the f17h pair constraint only merges counters; Intel and KNC tables here have none). */
static void test_other_families_unconstrained(void **state)
{
    (void)state;
    static const struct {
        u32 family;
        bool core_ext, v2;
    } amd[] = {{0xf, false, false}, {0x10, false, false}, {0x16, true, false}, {0x17, true, false},
               {0x19, true, true}};
    for (size_t i = 0; i < ARRAY_SIZE(amd); i++) {
        amd_caps(&caps, amd[i].family, amd[i].core_ext, amd[i].v2, 6);
        for (size_t j = 0; j < ARRAY_SIZE(f15h); j++)
            expect_constraint(&caps, f15h[j].event, f15h[j].umask, caps.gp_mask);
    }
    static const enum syn_kind others[] = {SYN_INTEL_V1, SYN_INTEL_V3, SYN_INTEL_V6, SYN_KNC};
    for (size_t i = 0; i < ARRAY_SIZE(others); i++) {
        syn_caps(&caps, others[i]);
        caps.family = 0x15; /* the family number alone does not make a constraint off AMD */
        for (size_t j = 0; j < ARRAY_SIZE(f15h); j++)
            expect_constraint(&caps, f15h[j].event, f15h[j].umask, caps.gp_mask);
    }
}

/* ------------------------------------------------------------------------------------------------------ */

/* ------------------------------------------------------------------------------------------------------ */
/* Behaviour against the register-level model. */

static struct pmu_model model;
static struct hw_access model_hw;

/* Bind `pmu` to a fresh model of `c`. */
static void model_setup(const struct pmu_caps *c)
{
    pmu_model_init(&model, c, MODEL_APIC_STRICT_EDGE);
    if (model.config_error)
        fail_msg("model cannot model these caps: %s", model.config_error);
    pmu_model_access(&model, &model_hw);
    int r = pmu_init(&pmu, &model.caps, &model_hw);
    if (r)
        fail_msg("pmu_init: %s", pmu.error);
}

/* Every step names what failed and where, so one scenario can run over many PMUs. */
#define CHECK_RC(label, call)                                                                                  \
    do {                                                                                                       \
        int rc_ = (call);                                                                                      \
        if (rc_)                                                                                               \
            fail_msg("%s: %s returned 0x%x (%s)", label, #call, rc_, pmu_strerror(rc_));                       \
    } while (0)
#define CHECK_EQ(label, what, got, want)                                                                       \
    do {                                                                                                       \
        unsigned long long g_ = (got), w_ = (want);                                                            \
        if (g_ != w_)                                                                                          \
            fail_msg("%s: %s = 0x%llx, expected 0x%llx", label, what, g_, w_);                                 \
    } while (0)

/* The event a GP counter is programmed with: the architectural/generic instructions event. */
static struct pmu_evsel gp_evsel(bool intr)
{
    const struct pmu_event *ev = pmu_event_generic(pmu.caps, PMU_EV_INSTRUCTIONS, NULL);
    if (!ev)
        ev = pmu_event_generic(pmu.caps, PMU_EV_CYCLES, NULL);
    assert_non_null(ev);
    struct pmu_evsel base = {.usr = true, .os = true, .intr = intr, .enable = true}, e;
    pmu_event_to_evsel(ev, &base, &e);
    return e;
}

static void program_counter(const char *label, u32 bit, bool intr)
{
    if (PMU_IS_FIXED(bit)) {
        CHECK_RC(label, pmu_program_fixed(&pmu, bit - PMU_FIXED_BIT,
                                          PMU_FIXED_OS | PMU_FIXED_USR | (intr ? PMU_FIXED_PMI : 0)));
    } else {
        struct pmu_evsel e = gp_evsel(intr);
        CHECK_RC(label, pmu_program_gp(&pmu, bit, &e));
    }
}

/* Overflowed counters, from the status register or (without one) from the counters' top bits. */
static u64 overflowed(const char *label, u64 armed)
{
    u64 st = 0;
    if (pmu_has_status(&pmu)) {
        CHECK_RC(label, pmu.be->status_read(&pmu, &st));
        return st & pmu.counters;
    }
    assert_int_equal(pmu.be->status_read(&pmu, &st), PMU_ENOTSUP);
    CHECK_RC(label, pmu_sign_overflow(&pmu, armed, &st));
    return st;
}

/* One counter through its whole life: reset, program, preload, count to one event short of the overflow,
 * overflow on the next event, status bit (exactly that one), clear, stop. */
static void counter_scenario(const char *who, u32 bit)
{
    char label[160];
    snprintf(label, sizeof(label), "%s, counter bit %u", who, bit);
    u64 mask = pmu_counter_mask(&pmu, bit);
    CHECK_RC(label, pmu_reset(&pmu));
    CHECK_EQ(label, "counter after reset", pmu_model_counter(&model, bit), 0);
    program_counter(label, bit, true);
    u64 period = pmu_max_period(&pmu, bit) < 1000 ? pmu_max_period(&pmu, bit) : 1000;
    CHECK_RC(label, pmu_preload(&pmu, bit, period));
    u64 v = 0, want = (0 - period) & mask; /* 2^w - period */
    CHECK_RC(label, pmu.be->counter_read(&pmu, bit, &v));
    CHECK_EQ(label, "RDMSR after preload", v, want);
    CHECK_RC(label, pmu.be->counter_rdpmc(&pmu, bit, &v));
    CHECK_EQ(label, "RDPMC after preload", v, want);
    CHECK_RC(label, pmu.be->global_set(&pmu, 1ull << bit));
    CHECK_EQ(label, "events counted", pmu_model_tick(&model, bit, period - 1), period - 1);
    CHECK_EQ(label, "overflow one event early", overflowed(label, 1ull << bit), 0);
    CHECK_RC(label, pmu.be->counter_read(&pmu, bit, &v));
    CHECK_EQ(label, "RDMSR one event short", v, mask);
    CHECK_EQ(label, "events counted", pmu_model_tick(&model, bit, 1), 1);
    CHECK_EQ(label, "overflow bits", overflowed(label, 1ull << bit), 1ull << bit);
    CHECK_RC(label, pmu.be->counter_read(&pmu, bit, &v));
    CHECK_EQ(label, "RDMSR after the wrap", v, 0);
    CHECK_RC(label, pmu.be->counter_rdpmc(&pmu, bit, &v));
    CHECK_EQ(label, "RDPMC after the wrap", v, 0);
    if (pmu_has_status(&pmu)) {
        CHECK_RC(label, pmu.be->status_clear(&pmu, 1ull << bit));
        CHECK_EQ(label, "overflow bits after clear", overflowed(label, 1ull << bit), 0);
    }
    /* Stopped: nothing counts. */
    CHECK_RC(label, pmu.be->global_set(&pmu, 0));
    CHECK_EQ(label, "events counted while stopped", pmu_model_tick(&model, bit, 5), 0);
    CHECK_RC(label, pmu.be->counter_read(&pmu, bit, &v));
    CHECK_EQ(label, "counter while stopped", v, 0);
}

/* Counting real events: the generic instructions event, n of them, seen through RDMSR and RDPMC on GP 0 and
 * (Intel v2+) fixed counter 0, which counts instructions retired (SDM Table 21-2). */
static void count_scenario(const char *who)
{
    char label[160];
    snprintf(label, sizeof(label), "%s, counting", who);
    CHECK_RC(label, pmu_reset(&pmu));
    u32 gp = (u32)__builtin_ctzll(pmu.counters);
    struct pmu_evsel e = gp_evsel(false);
    CHECK_RC(label, pmu_program_gp(&pmu, gp, &e));
    u64 run = 1ull << gp;
    bool fixed0 = pmu_counter_exists(&pmu, PMU_FIXED(0)) && e.event == 0xc0 && e.umask == 0;
    if (fixed0) {
        CHECK_RC(label, pmu_program_fixed(&pmu, 0, PMU_FIXED_OS | PMU_FIXED_USR));
        run |= 1ull << PMU_FIXED(0);
    }
    pmu_model_count(&model, e.event, e.umask, 1234); /* not yet enabled globally where that exists */
    u64 expect_before = pmu_has_global_ctrl(&pmu) ? 0 : 1234; /* without global control EN alone counts */
    u64 v;
    CHECK_RC(label, pmu.be->counter_read(&pmu, gp, &v));
    CHECK_EQ(label, "counted before global enable", v, expect_before);
    CHECK_RC(label, pmu.be->global_set(&pmu, run));
    u64 got;
    CHECK_RC(label, pmu.be->global_get(&pmu, &got));
    CHECK_EQ(label, "global enable read back", got & pmu.counters, run);
    pmu_model_count(&model, e.event, e.umask, 1000);
    pmu_model_count(&model, e.event ^ 0x1, e.umask, 77); /* another event: not counted */
    CHECK_RC(label, pmu.be->counter_read(&pmu, gp, &v));
    CHECK_EQ(label, "GP RDMSR", v, expect_before + 1000);
    CHECK_RC(label, pmu.be->counter_rdpmc(&pmu, gp, &v));
    CHECK_EQ(label, "GP RDPMC", v, expect_before + 1000);
    if (fixed0) {
        CHECK_RC(label, pmu.be->counter_read(&pmu, PMU_FIXED(0), &v));
        CHECK_EQ(label, "fixed 0 RDMSR", v, 1000);
        CHECK_RC(label, pmu.be->counter_rdpmc(&pmu, PMU_FIXED(0), &v));
        CHECK_EQ(label, "fixed 0 RDPMC", v, 1000);
    }
    /* OS-only counting at CPL 3 counts nothing (SDM Figure 21-1 USR/OS). */
    CHECK_RC(label, pmu_reset(&pmu));
    e.usr = false;
    CHECK_RC(label, pmu_program_gp(&pmu, gp, &e));
    CHECK_RC(label, pmu.be->global_set(&pmu, 1ull << gp));
    model.cpl = 3;
    pmu_model_count(&model, e.event, e.umask, 10);
    model.cpl = 0;
    pmu_model_count(&model, e.event, e.umask, 3);
    CHECK_RC(label, pmu.be->counter_read(&pmu, gp, &v));
    CHECK_EQ(label, "OS-only counter after 10 user + 3 kernel events", v, 3);
}

/* A bit the API calls reserved, written straight to the modelled hardware: Intel/KNC fault (#GP) and the
 * register keeps its value; AMD accepts the write (pmu_reserved_faults). */
static void expect_reserved(const char *label, const char *reg, u32 msr, u32 b)
{
    u64 before = 0, back = 0;
    assert_int_equal(hw_rdmsr(&model_hw, msr, &before), 0);
    int r = hw_wrmsr(&model_hw, msr, 1ull << b);
    if (pmu_reserved_faults(&pmu) ? r != HW_GP : r != 0)
        fail_msg("%s: %s bit %u called reserved but the model's WRMSR returned 0x%x", label, reg, b, r);
    assert_int_equal(hw_rdmsr(&model_hw, msr, &back), 0);
    if (pmu_reserved_faults(&pmu) && back != before)
        fail_msg("%s: %s changed by a faulting write of reserved bit %u", label, reg, b);
}

/* The bits pmu_evsel_reserved / pmu_fixed_ctrl_reserved / pmu_global_ctrl_reserved call reserved must
 * be refused by the modelled hardware, and what pmu_reset leaves must be the documented start state. */
static void reserved_and_reset_scenario(const char *who)
{
    char label[160];
    snprintf(label, sizeof(label), "%s, reserved bits", who);
    const struct pmu_msrs *m = &pmu.caps->msrs;
    u64 res = pmu_evsel_reserved(&pmu);
    for (u32 b = 0; b < 64; b++)
        if ((res >> b) & 1)
            expect_reserved(label, "select", m->evtsel0, b);
    u64 fres = pmu_fixed_ctrl_reserved(&pmu);
    for (u32 b = 0; b < 64 && m->fixed_ctr_ctrl; b++)
        if ((fres >> b) & 1)
            expect_reserved(label, "FIXED_CTR_CTRL", m->fixed_ctr_ctrl, b);
    u64 gres = pmu_global_ctrl_reserved(&pmu);
    for (u32 b = 0; b < 64 && m->global_ctrl; b++)
        if ((gres >> b) & 1)
            expect_reserved(label, "global control", m->global_ctrl, b);

    snprintf(label, sizeof(label), "%s, reset", who);
    /* Dirty everything, then reset. */
    for (u32 bit = 0; bit < 64; bit++)
        if (pmu_counter_exists(&pmu, bit)) {
            program_counter(label, bit, true);
            CHECK_RC(label, pmu_preload(&pmu, bit, 1));
        }
    CHECK_RC(label, pmu.be->global_set(&pmu, pmu.counters));
    for (u32 bit = 0; bit < 64; bit++)
        if (pmu_counter_exists(&pmu, bit))
            pmu_model_tick(&model, bit, 1); /* every counter overflows */
    model.reset_condchgd = true;
    CHECK_RC(label, pmu_reset(&pmu));
    u64 v;
    for (u32 bit = 0; bit < 64; bit++)
        if (pmu_counter_exists(&pmu, bit)) {
            CHECK_EQ(label, "counter", pmu_model_counter(&model, bit), 0);
            if (!PMU_IS_FIXED(bit)) {
                CHECK_RC(label, pmu.be->select_read(&pmu, bit, &v));
                CHECK_EQ(label, "select", v, 0);
            }
        }
    if (m->global_ctrl)
        CHECK_EQ(label, "global control", model.global_ctrl, 0);
    if (m->fixed_ctr_ctrl)
        CHECK_EQ(label, "fixed control", model.fixed_ctrl, 0);
    if (pmu_has_status(&pmu)) {
        CHECK_RC(label, pmu.be->status_read(&pmu, &v));
        CHECK_EQ(label, "status", v, 0);
    }
    /* And from the power-up state (Intel GLOBAL_CTRL: every GP enable set, SDM 325462-079US; CondChgd may be set). */
    pmu_model_reset(&model);
    CHECK_RC(label, pmu_reset(&pmu));
    if (m->global_ctrl)
        CHECK_EQ(label, "global control after power-up + pmu_reset", model.global_ctrl, 0);
    if (pmu_has_status(&pmu)) {
        CHECK_RC(label, pmu.be->status_read(&pmu, &v));
        CHECK_EQ(label, "status after power-up + pmu_reset", v, 0);
    }
    model.reset_condchgd = false;
}

/* All counters at once: simultaneous overflows all show, and clearing one leaves the others. */
static void simultaneous_scenario(const char *who)
{
    char label[160];
    snprintf(label, sizeof(label), "%s, simultaneous overflows", who);
    CHECK_RC(label, pmu_reset(&pmu));
    for (u32 bit = 0; bit < 64; bit++)
        if (pmu_counter_exists(&pmu, bit)) {
            program_counter(label, bit, true);
            CHECK_RC(label, pmu_preload(&pmu, bit, 2));
        }
    CHECK_RC(label, pmu.be->global_set(&pmu, pmu.counters));
    for (u32 bit = 0; bit < 64; bit++)
        if (pmu_counter_exists(&pmu, bit))
            pmu_model_tick(&model, bit, 2);
    CHECK_EQ(label, "overflow bits", overflowed(label, pmu.counters), pmu.counters);
    if (pmu_has_status(&pmu)) {
        u64 first = pmu.counters & (0 - pmu.counters);
        CHECK_RC(label, pmu.be->status_clear(&pmu, first));
        CHECK_EQ(label, "overflow bits after clearing the lowest", overflowed(label, pmu.counters),
                 pmu.counters & ~first);
    }
}

static void all_scenarios(const char *who)
{
    for (u32 bit = 0; bit < 64; bit++)
        if (pmu_counter_exists(&pmu, bit))
            counter_scenario(who, bit);
    count_scenario(who);
    simultaneous_scenario(who);
    reserved_and_reset_scenario(who);
}

static void test_model_every_kind(void **state)
{
    (void)state;
    for (int k = 0; k < SYN_COUNT; k++) {
        syn_caps(&caps, (enum syn_kind)k);
        model_setup(&caps);
        all_scenarios(syn_names[k]);
    }
}

/* Sign-extended vs full-width writes, observed in the counter (SDM Vol.3B 21.2.6). */
static void test_model_write_width(void **state)
{
    (void)state;
    u64 v;
    syn_caps(&caps, SYN_INTEL_V3); /* 48-bit, no FW_WRITE */
    model_setup(&caps);
    CHECK_RC("v3", pmu_preload(&pmu, PMU_GP(0), 1ull << 31));
    CHECK_RC("v3", pmu.be->counter_read(&pmu, PMU_GP(0), &v));
    assert_int_equal(v, (1ull << 48) - (1ull << 31));
    assert_int_equal(pmu_preload(&pmu, PMU_GP(0), (1ull << 31) + 1), PMU_EINVAL);
    /* EAX bit 31 clear: the upper bits become 0 */
    CHECK_RC("v3", pmu.be->counter_write(&pmu, PMU_GP(1), 0x7fffffff));
    assert_int_equal(pmu_model_counter(&model, PMU_GP(1)), 0x7fffffff);

    syn_caps(&caps, SYN_INTEL_V4FW);
    model_setup(&caps);
    CHECK_RC("v4 fw", pmu_preload(&pmu, PMU_GP(0), 1ull << 40));
    assert_int_equal(pmu_model_counter(&model, PMU_GP(0)), (1ull << 48) - (1ull << 40));
    CHECK_RC("v4 fw", pmu.be->counter_write(&pmu, PMU_GP(1), 0x100000000ull)); /* not a sign extension */
    CHECK_RC("v4 fw", pmu.be->counter_read(&pmu, PMU_GP(1), &v));
    assert_int_equal(v, 0x100000000ull);
    /* The legacy address keeps sign-extending even with FW_WRITE (SDM 21.2.6). */
    assert_int_equal(hw_wrmsr(&model_hw, MSR_IA32_PMC0 + 2, 0x80000000ull), 0);
    assert_int_equal(pmu_model_counter(&model, PMU_GP(2)), 0xffff80000000ull);
}

/* AnyThread where legal reaches the hardware; where not, the API refuses before it does. */
static void test_model_anythread(void **state)
{
    (void)state;
    syn_caps(&caps, SYN_INTEL_V3);
    model_setup(&caps);
    struct pmu_evsel e = gp_evsel(false);
    e.any_thread = true;
    CHECK_RC("v3", pmu_program_gp(&pmu, 0, &e));
    assert_true(model.gp_sel[0] & (1ull << 21));
    CHECK_RC("v3", pmu_program_fixed(&pmu, 1, PMU_FIXED_OS | PMU_FIXED_ANY));
    assert_int_equal((model.fixed_ctrl >> 4) & 0xf, PMU_FIXED_OS | PMU_FIXED_ANY);
    syn_caps(&caps, SYN_INTEL_V5);
    model_setup(&caps);
    u64 before = model.st.accesses;
    assert_int_equal(pmu_program_gp(&pmu, 0, &e), PMU_EINVAL);
    assert_int_equal(pmu_program_fixed(&pmu, 0, PMU_FIXED_OS | PMU_FIXED_ANY), PMU_EINVAL);
    assert_int_equal(model.st.accesses, before);
    syn_caps(&caps, SYN_KNC);
    model_setup(&caps);
    struct pmu_evsel k = gp_evsel(false);
    k.any_thread = true;
    CHECK_RC("knc", pmu_program_gp(&pmu, 1, &k));
    assert_true(model.gp_sel[1] & (1ull << 21));
}

/* Intel v4 STATUS_SET and AMD PerfMonV2 STATUS_SET make a status bit appear without an overflow. */
static void test_model_status_set(void **state)
{
    (void)state;
    static const enum syn_kind ks[] = {SYN_INTEL_V4FW, SYN_INTEL_V5, SYN_AMD_V2};
    for (size_t i = 0; i < ARRAY_SIZE(ks); i++) {
        syn_caps(&caps, ks[i]);
        model_setup(&caps);
        CHECK_RC(syn_names[ks[i]], pmu_reset(&pmu));
        u64 hi = 1ull << (63 - __builtin_clzll(pmu.counters));
        CHECK_RC(syn_names[ks[i]], pmu.be->status_set(&pmu, hi | 1));
        u64 st;
        CHECK_RC(syn_names[ks[i]], pmu.be->status_read(&pmu, &st));
        assert_int_equal(st, hi | 1);
        CHECK_RC(syn_names[ks[i]], pmu.be->status_clear(&pmu, hi));
        CHECK_RC(syn_names[ks[i]], pmu.be->status_read(&pmu, &st));
        assert_int_equal(st, 1);
    }
}

/* Every CPU of every dump in tests/host/data: discover -> model from those caps -> the API drives it.
 * Intel parts with PDCM also run with PERF_CAPABILITIES.FW_WRITE applied (the MSR value is not in a CPUID
 * dump; both write paths must work wherever the CPUID says the PMU exists). */
/* Where the dumps are: $PMUBOOT_TEST_DATA, tests/host/data, or relative to the binary (as test_data_read). */
static DIR *open_data_dir(char *path, size_t size)
{
    const char *env = getenv("PMUBOOT_TEST_DATA");
    DIR *d;
    snprintf(path, size, "%s", env ? env : "tests/host/data");
    if ((d = opendir(path)))
        return d;
    char exe[2048];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n <= 0)
        return NULL;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash)
        *slash = '\0';
    snprintf(path, size, "%s/../../tests/host/data", exe);
    return opendir(path);
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_model_every_dump(void **state)
{
    (void)state;
    static struct cpuid_dump d;
    char path[4096];
    DIR *dir = open_data_dir(path, sizeof(path));
    if (!dir)
        fail_msg("cannot open %s (run from the repository root or set PMUBOOT_TEST_DATA)", path);
    char *names[256];
    size_t n = 0;
    struct dirent *de;
    while ((de = readdir(dir)) && n < ARRAY_SIZE(names)) {
        size_t l = strlen(de->d_name);
        if (l > 4 && !strcmp(de->d_name + l - 4, ".txt"))
            names[n++] = strdup(de->d_name);
    }
    closedir(dir);
    qsort(names, n, sizeof(names[0]), name_cmp);
    assert_true(n >= 10); /* the dumps the discovery helper collected (PROVENANCE.md) */
    u32 programmed = 0, skipped = 0;
    for (size_t f = 0; f < n; f++) {
        size_t len;
        char *text = test_data_read(names[f], &len);
        assert_non_null(text);
        for (u32 cpu = 0;; cpu++) {
            if (!cpuid_dump_parse(&d, text, len, cpu))
                fail_msg("%s:%u: %s", names[f], d.err_line, d.err);
            struct cpuid_source src;
            struct cpu_ident id;
            cpuid_dump_source(&d, &src);
            cpu_ident_decode(&id, &src);
            pmu_discover(&caps, &id, &src);
            for (int fw = 0; fw < 2; fw++) {
                if (!pmu_kind_present(caps.kind)) {
                    skipped++;
                    break;
                }
                if (fw && !(pmu_kind_get(caps.kind)->full_width_alias0 && caps.pdcm))
                    break;
                if (fw)
                    pmu_caps_apply_perf_capabilities(&caps, 1u << 13);
                char who[200];
                snprintf(who, sizeof(who), "%s cpu %u (%s v%u%s)", names[f], cpu, pmu_kind_name(caps.kind),
                         caps.version, fw ? ", FW_WRITE" : "");
                model_setup(&caps);
                all_scenarios(who);
                programmed++;
            }
            if (cpu + 1 >= d.cpus_seen)
                break;
        }
        free(text);
        free(names[f]);
    }
    print_message("# %u PMU configurations from %zu dumps driven through the model, %u CPUs without a PMU\n",
                  programmed, n, skipped);
    assert_true(programmed > 0);
}

#define MODEL_TESTS                                                                                            \
    cmocka_unit_test(test_model_every_kind), cmocka_unit_test(test_model_write_width),                       \
        cmocka_unit_test(test_model_anythread), cmocka_unit_test(test_model_status_set),                     \
        cmocka_unit_test(test_model_every_dump),

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_encode_fields_every_kind),
        cmocka_unit_test(test_encode_amd_12bit_event),
        cmocka_unit_test(test_anythread_legality),
        cmocka_unit_test(test_reserved_select_bits),
        cmocka_unit_test(test_select_and_counter_msrs),
        cmocka_unit_test(test_rdpmc_index),
        cmocka_unit_test(test_counter_write_semantics),
        cmocka_unit_test(test_global_set),
        cmocka_unit_test(test_status_registers),
        cmocka_unit_test(test_fixed_ctrl_fields),
        cmocka_unit_test(test_reset_order),
        cmocka_unit_test(test_init_rejects),
        cmocka_unit_test(test_intel_arch_event_codes),
        cmocka_unit_test(test_generic_events_per_kind),
        cmocka_unit_test(test_knc_table_has_seed_events),
        cmocka_unit_test(test_f15h_counter_constraints),
        cmocka_unit_test(test_other_families_unconstrained),
        MODEL_TESTS
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
