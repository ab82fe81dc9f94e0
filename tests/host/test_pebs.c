/* PEBS: discovery (pmu/pebs.c) on real CPUID dumps and each emulated kind, the record sizes, the model's assist
 * (emul/model/pebs_model.c, driven through pmu_model.c) writing records into a host buffer that lbr_decode's sibling
 * pebs_decode reads back in every format and suite pebs's comparison (tests/pebs/portable/pebs_judge.c) accepts, the
 * buffer interrupt, and which events each part samples. The comparison's own cases (an eventing IP off by one, a
 * missing record, records not evenly spaced) are in tests/pebs/host/test_pebs_judge.c. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "emul/emul.h"
#include "emul/model/pmu_model.h"
#include "lib/cpu_ident.h"
#include "pmu/cpuid_dump.h"
#include "pmu/events.h"
#include "pmu/pebs.h"
#include "pmu/pmu_msr.h"
#include "tests/host/support/test_data.h"
#include "tests/pebs/portable/pebs_judge.h"

static struct cpuid_dump dump;

static void discover_dump(const char *file, u64 perf_caps, int misc_rc, u64 misc, struct pebs_caps *out)
{
    struct cpuid_source src;
    struct pmu_caps caps;
    test_dump_discover(&dump, file, 0, perf_caps, &src, &caps);
    pebs_discover(&caps, &src, misc_rc, misc, out);
}

static void test_discover(void **state)
{
    (void)state;
    struct pebs_caps c;
    /* Skylake client, format 3 (PERF_CAPABILITIES 0x33c5 as Linux reports Skylake's): PMC0-3, 200-byte records. */
    discover_dump("intel_skylake_000506E3.txt", 0x33c5, 0, 0, &c);
    assert_true(c.present);
    assert_int_equal(c.format, 3);
    assert_int_equal(c.basic_size, 0xc8);
    assert_int_equal(c.counters, 0xf);
    assert_int_equal(pebs_reset_offset(&c, 2), 0x50);
    /* PEBS_UNAVAIL set: none, with the reason. */
    discover_dump("intel_skylake_000506E3.txt", 0x33c5, 0, MISC_ENABLE_PEBS_UNAVAIL, &c);
    assert_false(c.present);
    assert_non_null(strstr(c.why_none, "PEBS_UNAVAIL"));
    /* Alder Lake-P, format 4 with the baseline: every counter, fixed ones from bit 32, resets at 0x80. */
    discover_dump("intel_alderlake_p_hybrid_000906A4.txt", 0x4000 | 0x400 | 0xc0, 0, 0, &c);
    assert_true(c.present && c.adaptive);
    assert_int_equal(c.basic_size, 0x20);
    assert_int_equal(c.counters >> 32 & 0x7, 0x7);
    assert_int_equal(pebs_reset_offset(&c, 33), 0x88);
    /* Format 5: the fixed resets move to 0x140. */
    discover_dump("intel_meteorlake_hybrid_000A06A4.txt", 0x4000 | 0x500 | 0xc0, 0, 0, &c);
    assert_int_equal(pebs_reset_offset(&c, 32), 0x140);
    /* AMD: none. */
    discover_dump("amd_zen4_genoa_00A10F11.txt", 0, 0, 0, &c);
    assert_false(c.present);
    /* Adaptive sizes: the groups (kvm-unit-tests pmu_pebs.c's sizes: 32, +32, +144, +256, +24 per LBR entry). */
    assert_int_equal(pebs_record_size(&(struct pebs_caps){.format = 4, .adaptive = true, .basic_size = 0x20},
                                      PEBS_CFG_MEMINFO | PEBS_CFG_GP | PEBS_CFG_XMMS | PEBS_CFG_LBRS | 7ull << 24, true),
                     32 + 32 + 144 + 256 + 8 * 24);
    /* Every emulated kind: as it presents itself. */
    static const struct { const char *k; bool present; u32 format; bool adaptive; } want[] = {
        {"intel-v1", false, 0, false}, {"intel-v2", true, 0, false}, {"intel-v3", true, 1, false},
        {"intel-v4", true, 3, false},  {"intel-v5", true, 4, true},  {"intel-v6", true, 5, true},
        {"adl", true, 4, true},        {"mtl", true, 5, true},       {"amd-v2", false, 0, false}, {"knc", false, 0, false}};
    for (u32 i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        pmu_emul_pebs(pmu_emul_kind_find(want[i].k), 0, &c);
        assert_int_equal(c.present, want[i].present);
        if (c.present) {
            assert_int_equal(c.format, want[i].format);
            assert_int_equal(c.adaptive, want[i].adaptive);
        }
    }
}

/* A host buffer standing for memory: the DS area at its start, the PEBS buffer after. */
static u8 mem[0x10000];
#define DS_AT 0x1000ull
#define BUF_AT 0x2000ull

static bool mem_read(void *ctx, u64 addr, void *buf, u32 len)
{
    (void)ctx;
    if (addr < DS_AT || addr + len > DS_AT + sizeof(mem) - 0x1000)
        return false;
    memcpy(buf, mem + (addr - DS_AT), len);
    return true;
}

static bool mem_write(void *ctx, u64 addr, const void *buf, u32 len)
{
    (void)ctx;
    if (addr < DS_AT || addr + len > DS_AT + sizeof(mem) - 0x1000)
        return false;
    memcpy(mem + (addr - DS_AT), buf, len);
    return true;
}

static u64 ds_get(u32 off)
{
    u64 v;
    memcpy(&v, mem + off, 8);
    return v;
}

static void ds_put(u32 off, u64 v)
{
    memcpy(mem + off, &v, 8);
}

/* 300 instructions at 0x400000 + 4i, RAX = i after instruction i; counter 0 samples every `period` with PEBS. */
static struct pmu_model m;
static u64 rip[301]; /* one more: the instruction after the last counted one */
static u16 ev[300];

static bool rax_is_index(u32 i, u64 *rax)
{
    *rax = i;
    return true;
}

static u32 run_model(const char *kind, const char *pebs, u64 period, u64 cfg, bool adaptive, u32 faults, u32 threshold,
                     struct pebs_record *rec, u32 max, struct pebs_caps *pc)
{
    struct pmu_emul_kind k;
    const char *why = NULL;
    assert_true(pmu_emul_kind_with_pebs(pmu_emul_kind_find(kind), pebs, &k, &why));
    struct pmu_caps caps;
    pmu_emul_caps(&k, 0, &caps);
    pmu_emul_pebs(&k, 0, pc);
    assert_true(pc->present);
    pmu_model_init(&m, &caps, MODEL_APIC_STRICT_EDGE);
    static const struct pebs_model_mem mm = {mem_read, mem_write, NULL};
    pmu_model_set_pebs(&m, pc, &mm);
    pmu_model_set_faults(&m, faults);
    struct hw_access hw;
    pmu_model_access(&m, &hw);
    memset(mem, 0, sizeof(mem));
    u32 size = pebs_record_size(pc, cfg, adaptive);
    u64 absmax = BUF_AT + (0x8000 / size) * size;
    ds_put(DS_PEBS_BASE, BUF_AT);
    ds_put(DS_PEBS_INDEX, BUF_AT);
    ds_put(DS_PEBS_ABS_MAX, absmax);
    ds_put(DS_PEBS_THRESHOLD, threshold ? BUF_AT + threshold * size : absmax + size);
    ds_put(DS_PEBS_RESET_GP, (0 - period) & 0xffffffffffffull);
    /* GP 0: instructions (C0H) at USR and OS, Adaptive_Record as asked. */
    assert_int_equal(hw_wrmsr(&hw, MSR_IA32_PERFEVTSEL0, 0x4300c0 | (adaptive ? PEBS_EVSEL_ADAPTIVE : 0)), 0);
    assert_int_equal(hw_wrmsr(&hw, MSR_IA32_A_PMC0, (0 - period) & 0xffffffffffffull), 0);
    assert_int_equal(hw_wrmsr(&hw, MSR_IA32_DS_AREA, DS_AT), 0);
    if (pc->adaptive)
        assert_int_equal(hw_wrmsr(&hw, MSR_PEBS_DATA_CFG, cfg), 0);
    assert_int_equal(hw_wrmsr(&hw, MSR_IA32_PEBS_ENABLE, 1), 0);
    assert_int_equal(hw_wrmsr(&hw, MSR_IA32_PERF_GLOBAL_CTRL, 1), 0);
    rip[300] = 0x400000 + 4 * 300;
    for (u32 i = 0; i < 300; i++) {
        rip[i] = 0x400000 + 4 * i;
        ev[i] = (u16)i;
        struct pebs_model_insn in = {rip[i], rip[i] + 4, 0x202, 1000 + i, {i}};
        pmu_model_set_insn(&m, &in);
        pmu_model_count(&m, 0xc0, 0, 1);
    }
    u64 index = ds_get(DS_PEBS_INDEX);
    u32 n = 0;
    for (u64 at = BUF_AT; at < index && n < max;) {
        const char *w;
        assert_true(pebs_decode(pc, mem + (at - DS_AT), index - at, &rec[n], &w));
        at += rec[n++].size;
    }
    return n;
}

static void test_model_every_format(void **state)
{
    (void)state;
    static const char *const fmts[] = {"0", "1", "2", "3", "4", "4a", "5a"};
    struct pebs_record rec[32];
    struct pebs_caps pc;
    struct pebs_stream s = {rip, 301, ev, 300, rax_is_index};
    for (u32 f = 0; f < sizeof(fmts) / sizeof(fmts[0]); f++) {
        bool adaptive = fmts[f][1] == 'a';
        u64 cfg = adaptive ? PEBS_CFG_GP | PEBS_CFG_LBRS | 3ull << 24 : 0;
        u32 n = run_model("intel-v6", fmts[f], 29, cfg, adaptive, 0, 0, rec, 32, &pc);
        struct pebs_judgement j;
        if (!pebs_judge(&s, 29, rec, n, 0, pc.trap, true, &j))
            fail_msg("format %s: record %d: %s", fmts[f], j.bad, j.why);
        assert_int_equal(j.d, 30); /* armed by the overflow, written on the next event */
        assert_int_equal(n, 10);
        assert_int_equal(j.rax_checked, pc.format < 4 || adaptive ? 10 : 0);
        assert_false(m.global_status >> 62 & 1); /* threshold never reached */
        if (adaptive) {
            assert_int_equal(rec[0].group, cfg);
            assert_int_equal(rec[0].lbr_entries, 4);
            assert_int_equal(rec[0].lbr_nonzero, 0);
            assert_int_equal(rec[0].applicable, 1);
        }
    }
}

static void test_model_faults_and_threshold(void **state)
{
    (void)state;
    struct pebs_record rec[32];
    struct pebs_caps pc;
    struct pebs_stream s = {rip, 301, ev, 300, rax_is_index};
    struct pebs_judgement j;
    u32 n = run_model("intel-v4", "3", 29, 0, false, PMU_FAULT_PEBS_EVENTING_IP, 0, rec, 32, &pc);
    assert_false(pebs_judge(&s, 29, rec, n, 0, pc.trap, true, &j));
    n = run_model("intel-v4", "3", 29, 0, false, PMU_FAULT_PEBS_MISSING_RECORD, 0, rec, 32, &pc);
    assert_false(pebs_judge(&s, 29, rec, n, 0, pc.trap, true, &j));
    assert_int_equal(j.bad, 2);
    /* The threshold: OvfBuffer and the PMI line at the third record. */
    n = run_model("intel-v4", "3", 29, 0, false, 0, 3, rec, 32, &pc);
    assert_int_equal(n, 10);
    assert_true(m.global_status >> 62 & 1);
    assert_int_equal(m.apic.st.line_rises, 1);
    /* The LBR leak fault fills the adaptive LBR group with another context's branches. */
    u64 cfg = PEBS_CFG_LBRS | 7ull << 24;
    n = run_model("intel-v6", "5a", 29, cfg, true, PMU_FAULT_PEBS_LBR_LEAK, 0, rec, 32, &pc);
    assert_int_equal(rec[0].lbr_nonzero, 8);
    /* Without Adaptive_Record: basic records, format field 0. */
    n = run_model("intel-v6", "5a", 29, cfg, false, 0, 0, rec, 32, &pc);
    assert_int_equal(rec[0].size, 0x20);
    assert_int_equal(rec[0].group, 0);
}

/* Which event and counters each part samples (pmu/pebs.c's table, from Linux's constraint tables and intel/perfmon). */
static void test_pebs_events(void **state)
{
    (void)state;
    struct pebs_caps c;
    struct pebs_event e;
    const char *why;
    struct cpuid_source src;
    struct pmu_caps caps;
    /* Skylake: INST_RETIRED.PREC_DIST on PMC1, precise; branches ALL_BRANCHES_PEBS on PMC0-3. */
    test_dump_discover(&dump, "intel_skylake_000506E3.txt", 0, 0x33c5, &src, &caps);
    pebs_discover(&caps, &src, 0, 0, &c);
    assert_true(pebs_event_for(&caps, &c, PMU_EV_INSTRUCTIONS, &e, &why));
    assert_int_equal(e.event, 0xc0);
    assert_int_equal(e.umask, 0x01);
    assert_int_equal(e.counters, 0x2);
    assert_true(e.precise);
    assert_true(pebs_event_for(&caps, &c, PMU_EV_BRANCHES, &e, &why));
    assert_int_equal(e.umask, 0x04);
    assert_int_equal(e.counters, 0xf);
    assert_false(e.precise);
    /* Alder Lake P-core (Golden Cove): instructions not on GP 0, fixed 0 included; the E-core: GP 0 too. */
    test_dump_discover(&dump, "intel_alderlake_p_hybrid_000906A4.txt", 0, 0x44c0, &src, &caps);
    pebs_discover(&caps, &src, 0, 0, &c);
    assert_true(pebs_event_for(&caps, &c, PMU_EV_INSTRUCTIONS, &e, &why));
    assert_false(e.counters & 1);
    assert_true(e.counters >> 32 & 1);
    test_dump_discover(&dump, "intel_alderlake_p_hybrid_000906A4.txt", 1, 0x44c0, &src, &caps);
    pebs_discover(&caps, &src, 0, 0, &c);
    assert_true(pebs_event_for(&caps, &c, PMU_EV_INSTRUCTIONS, &e, &why));
    assert_true(e.counters & 1);
    /* Westmere: INST_RETIRED.ANY_P and BR_INST_RETIRED.ALL_BRANCHES (C4H/04H) on PMC0-3. */
    test_dump_discover(&dump, "intel_westmere_gulftown_000206C2.txt", 0, 0x1c3, &src, &caps);
    pebs_discover(&caps, &src, 0, 0, &c);
    assert_true(pebs_event_for(&caps, &c, PMU_EV_BRANCHES, &e, &why));
    assert_int_equal(e.umask, 0x04);
    assert_int_equal(e.counters, 0xf);
    /* Core 2 (format 0): instructions on PMC0, no branches. */
    test_dump_discover(&dump, "intel_core2_conroe_000006F6.txt", 0, 0x0, &src, &caps);
    pebs_discover(&caps, &src, 0, 0, &c);
    assert_true(c.present);
    assert_true(pebs_event_for(&caps, &c, PMU_EV_INSTRUCTIONS, &e, &why));
    assert_int_equal(e.counters, 1);
    assert_false(pebs_event_for(&caps, &c, PMU_EV_BRANCHES, &e, &why));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_discover),
        cmocka_unit_test(test_model_every_format),
        cmocka_unit_test(test_model_faults_and_threshold),
        cmocka_unit_test(test_pebs_events),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
