/* tests/events/portable/events_expect.c: the counts of the event workloads by construction. References: hand counts of the
 * instructions listed in tests/events/events_workloads.asm for small n, the per-iteration body sizes read off the
 * listing, and the LFSR's maximal period (a maximal 16-bit LFSR emits 2^15 ones per period of 2^16 - 1). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "tests/events/portable/events_expect.h"
#include "tests/events/portable/events_spec.h"
#include "tests/events/portable/events_workloads.h"

static struct ew_counts get(enum ew_id w, u64 n)
{
    struct ew_counts c;
    assert_true(ew_expect(w, n, &c));
    return c;
}

/* Hand counts, n = 1 and n = 2, one row per workload: instructions, branches, conditional, taken, loads,
 * stores, flushes; conditional taken, not taken, near calls, indirect calls, relative calls, near returns,
 * relative jumps, indirect jumps, far. */
static void hand_counts(void **state)
{
    (void)state;
    static const struct {
        enum ew_id w;
        u64 n;
        u64 f[EWC_FIELDS];
    } rows[] = {
        /* straight n=1: mov cmp cmova lea shl sub xor jmp add ret */
        {EW_STRAIGHT, 1, {10, 2, 0, 2, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0}},
        /* loop n=1: mov xor test jz | add xor dec jnz(not taken) | ret */
        {EW_LOOP, 1, {9, 3, 2, 1, 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0}},
        {EW_LOOP, 2, {13, 4, 3, 2, 1, 0, 0, 1, 2, 0, 0, 0, 1, 0, 0, 0}},
        /* branches n=1: 4 | cmp je jne jmp inc dec jnz | ret; taken: jne jmp ret */
        {EW_BRANCHES, 1, {12, 6, 4, 3, 1, 0, 0, 1, 3, 0, 0, 0, 1, 1, 0, 0}},
        /* mem n=1: 6 | 9 | ret; loads 2 + ret */
        {EW_MEM, 1, {16, 3, 2, 1, 3, 1, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0}},
        /* clflush n=1: 9 | clflush add dec nop jnz | mfence mov | add add dec nop jnz | ret */
        {EW_CLFLUSH, 1, {22, 4, 3, 1, 2, 0, 1, 0, 3, 0, 0, 0, 1, 0, 0, 0}},
        /* lfsr n=1: first bit of 0xACE1 is 1: 5 | shr jnc(not taken) xor inc dec jnz | mov ret */
        {EW_LFSR, 1, {13, 4, 3, 1, 1, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0}},
        /* lfsr n=2: second bit is 0: + shr jnc(taken) dec jnz(taken back to the loop top) */
        {EW_LFSR, 2, {17, 6, 5, 3, 1, 0, 0, 2, 3, 0, 0, 0, 1, 0, 0, 0}},
        /* cycles n=1: mov mov mov test jz | 8 imul dec jnz | ret */
        {EW_CYCLES, 1, {16, 3, 2, 1, 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0}},
        {EW_REP_STOS, 300, {9, 1, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0}},
        /* n = 0: the JZ over the loop is taken */
        {EW_LOOP, 0, {5, 2, 1, 2, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0}},
        {EW_MEM, 0, {7, 2, 1, 2, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0}},
        {EW_CLFLUSH, 0, {10, 2, 1, 2, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0}},
        {EW_STRAIGHT, 0, {9, 2, 0, 2, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0}},
        /* calls n=1: lea lea mov xor test jz | call inc ret call inc ret jmp jmp mov push lea push retf dec
         * jnz(not taken) | ret; loads: the three RETs and the RETF; stores: the CALLs and PUSHes */
        {EW_CALLS, 1, {22, 10, 2, 7, 4, 4, 0, 0, 2, 2, 1, 1, 3, 1, 1, 1}},
        {EW_CALLS, 0, {7, 2, 1, 2, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0}},
    };
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        struct ew_counts c = get(rows[i].w, rows[i].n);
        for (int f = 0; f < EWC_FIELDS; f++)
            if (ew_field(&c, (enum ew_count_field)f) != rows[i].f[f])
                fail_msg("%s n=%llu %s: %llu, hand count %llu", ew_name(rows[i].w), (unsigned long long)rows[i].n,
                         ew_field_name((enum ew_count_field)f),
                         (unsigned long long)ew_field(&c, (enum ew_count_field)f), (unsigned long long)rows[i].f[f]);
    }
}

/* One more iteration adds exactly the loop body (read off the listing). */
static void per_iteration(void **state)
{
    (void)state;
    static const struct {
        enum ew_id w;
        u64 body, loads, stores;
    } rows[] = {
        {EW_STRAIGHT, 1, 0, 0}, {EW_LOOP, 4, 0, 0}, {EW_BRANCHES, 7, 0, 0}, {EW_MEM, 9, 2, 1},
        {EW_CLFLUSH, 10, 1, 0}, {EW_CYCLES, 10, 0, 0}, {EW_CALLS, 15, 3, 4},
    };
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
        for (u64 n = 1; n < 40; n++) {
            struct ew_counts a = get(rows[i].w, n), b = get(rows[i].w, n + 1);
            assert_int_equal(b.insns - a.insns, rows[i].body);
            assert_int_equal(b.loads - a.loads, rows[i].loads);
            assert_int_equal(b.stores - a.stores, rows[i].stores);
        }
}

/* Whatever n: conditional and taken never exceed branches, every unconditional branch is taken, and the branch
 * kinds partition the branches. */
static void consistency(void **state)
{
    (void)state;
    for (int w = 0; w < EW_COUNT; w++)
        for (u64 n = 0; n <= 300; n++) {
            struct ew_counts c;
            if (!ew_expect((enum ew_id)w, n, &c)) {
                assert_true(n > ew_max_n((enum ew_id)w));
                continue;
            }
            assert_true(c.cond <= c.branches);
            assert_true(c.taken <= c.branches);
            assert_true(c.taken + c.far >= c.branches - c.cond);
            assert_true(c.branches <= c.insns);
            assert_true(c.loads >= 1); /* the RET */
            /* Every branch of the workloads is one of the kinds, and the kinds add up. */
            assert_int_equal(c.cond_taken + c.cond_ntaken, c.cond);
            assert_int_equal(c.ind_calls + c.rel_calls, c.calls);
            assert_int_equal(c.cond + c.calls + c.rets + c.rel_jmps + c.ind_jmps + c.far, c.branches);
            assert_int_equal(c.cond_taken + c.calls + c.rets + c.rel_jmps + c.ind_jmps, c.taken);
        }
}

static void lfsr(void **state)
{
    (void)state;
    /* 0xACE1 shifted out LSB first, taps 0xB400 applied after each 1: 1 0 0 0 0 1 1 1 0 0 1 0 0 0 1 1 */
    assert_int_equal(ew_lfsr_ones(0), 0);
    assert_int_equal(ew_lfsr_ones(1), 1);
    assert_int_equal(ew_lfsr_ones(5), 1);
    assert_int_equal(ew_lfsr_ones(16), 7);
    assert_int_equal(ew_lfsr_ones(65535), 32768);
    assert_int_equal(ew_lfsr_ones(2 * 65535), 2 * 32768);
    struct ew_counts c = get(EW_LFSR, 16);
    assert_int_equal(c.ret, 7);
    assert_int_equal(c.insns, 4 * 16 + 2 * 7 + 7);
}

static void bounds(void **state)
{
    (void)state;
    struct ew_counts c;
    assert_false(ew_expect(EW_STRAIGHT, EW_STRAIGHT_MAX + 1, &c));
    assert_true(ew_expect(EW_STRAIGHT, EW_STRAIGHT_MAX, &c));
    assert_false(ew_expect(EW_CLFLUSH, EW_LINES_MAX + 1, &c));
    assert_false(ew_expect(EW_COUNT, 1, &c));
    assert_false(ew_expect((enum ew_id)-1, 1, &c));
    assert_false(ew_mem_exact(EW_REP_STOS));
    assert_false(ew_mem_exact(EW_CALLS));
    assert_true(ew_mem_exact(EW_MEM));
    assert_int_equal(ew_min_cycles(EW_CYCLES, 40), 320);
    assert_int_equal(ew_min_cycles(EW_LOOP, 40), 0);
    assert_string_equal(ew_name(EW_LFSR), "lfsr");
    assert_string_equal(ew_name(EW_COUNT), "?");
}

/* tests/events/portable/events_spec.c: which events each kind compares, and the small arithmetic of the counter checks. */
static void spec(void **state)
{
    (void)state;
    const struct ew_event *e[16];
    struct pmu_caps caps = {.kind = PMU_KIND_INTEL_ARCH, .arch_events = BIT(PMU_AE_INSTRUCTIONS)};
    assert_int_equal(ew_events_for(&caps, e, 16), 1); /* only what CPUID marks available */
    assert_string_equal(e[0]->event, "instructions");
    assert_int_equal(e[0]->judge, EWJ_EXACT);
    caps.arch_events = 0x7F;
    assert_int_equal(ew_events_for(&caps, e, 16), 6);
    assert_int_equal(ew_events_for(&caps, e, 2), 6); /* the count even when out is short */
    caps.kind = PMU_KIND_NONE;
    assert_int_equal(ew_events_for(&caps, e, 16), 0);
    caps.kind = PMU_KIND_AMD_PERFMON_V2;
    size_t n = ew_events_for(&caps, e, 16);
    bool taken = false;
    for (size_t i = 0; i < n; i++)
        taken |= e[i]->judge == EWJ_EXACT && e[i]->fields == (BIT(EWC_TAKEN) | BIT(EWC_FAR));
    assert_true(taken);
    caps.kind = PMU_KIND_KNC;
    n = ew_events_for(&caps, e, 16);
    u32 rw = 0;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(e[i]->event, "DATA_READ_OR_WRITE"))
            rw = e[i]->fields;
    assert_int_equal(rw, BIT(EWC_LOADS) | BIT(EWC_STORES));

    struct ew_counts c = get(EW_MEM, 10);
    assert_int_equal(ew_fields_sum(&c, BIT(EWC_LOADS) | BIT(EWC_STORES)), 21 + 10);
    assert_true(ew_filter_counts(true, false, 3));
    assert_false(ew_filter_counts(true, false, 0));
    assert_true(ew_filter_counts(false, true, 0));
    assert_false(ew_filter_counts(false, true, 3));
    assert_false(ew_workload_for(EW_REP_STOS, BIT(EWC_STORES)));
    assert_true(ew_workload_for(EW_REP_STOS, BIT(EWC_INSNS)));
    assert_false(ew_workload_for(EW_MEM, 0));

    s64 ppm = 0;
    assert_true(ew_ratio_ppm(1000, 1000, 1, 1, &ppm));
    assert_int_equal(ppm, 0);
    assert_true(ew_ratio_ppm(1020, 1000, 1, 1, &ppm)); /* 2 % above */
    assert_int_equal(ppm, 20000);
    assert_true(ew_ratio_ppm(980, 1000, 1, 1, &ppm));
    assert_int_equal(ppm, -20000);
    assert_true(ew_ratio_ppm(2500, 100, 25, 1, &ppm)); /* crystal ratio 25 exactly */
    assert_int_equal(ppm, 0);
    /* 48-bit counts: the 128-bit products are scaled down, not wrapped */
    assert_true(ew_ratio_ppm(0xFFFFFFFFFFFFull, 0xFFFFFFFFFFFFull, 0xFFFFFFFFFFFFull, 0xFFFFFFFFFFFFull, &ppm));
    assert_int_equal(ppm, 0);
    assert_true(ew_ratio_ppm(0x800000000000ull * 101 / 100, 0x800000000000ull, 1, 1, &ppm));
    assert_true(ppm >= 9999 && ppm <= 10000);
    assert_false(ew_ratio_ppm(1, 0, 1, 1, &ppm));
    assert_false(ew_ratio_ppm(1, 1, 0, 1, &ppm));
}

/* A host-held counter never counts; a wrong one counts something. */
static void silent_counters(void **state)
{
    (void)state;
    assert_true(ew_silent_counters(0xF, 0xF, 0) == 0);       /* no miss */
    assert_true(ew_silent_counters(0xF, 0x7, 0x8) == 0x8);   /* gp3 silent, the only miss */
    assert_true(ew_silent_counters(0xF, 0x3, 0xC) == 0xC);   /* gp2 and gp3 silent */
    assert_true(ew_silent_counters(0xF, 0x7, 0x9) == 0);     /* gp0 counted wrongly too: a real miss */
    assert_true(ew_silent_counters(0xF, 0xF, 0x1) == 0);     /* counted, but wrongly */
}

/* events/ref_cycles window sizing. References: CPUID.15H (SDM Vol.2A: TSC = crystal * EBX / EAX), and plain
 * arithmetic on the figures of a Skylake-era part: 24 MHz crystal, 3 GHz TSC, ew_cycles at 50 TSC ticks per
 * iteration. */
static void ref_clock_source(void **state)
{
    (void)state;
    struct ew_ref_clock k = ew_ref_clock(true, 2, 250, 24000000, 3000000000ull); /* ECX first */
    assert_int_equal(k.hz, 24000000);
    assert_non_null(strstr(k.source, "ECX"));
    k = ew_ref_clock(true, 2, 250, 0, 3000000000ull); /* 3 GHz * 2 / 250 = 24 MHz */
    assert_int_equal(k.hz, 24000000);
    assert_non_null(strstr(k.source, "EAX/EBX"));
    static const struct {
        bool leaf;
        u32 eax, ebx, ecx;
        u64 tsc_hz;
    } none[] = {{false, 2, 250, 24000000, 3000000000ull}, {true, 0, 0, 0, 3000000000ull},
                {true, 2, 250, 0, 0}, {true, 0, 250, 0, 3000000000ull}, {true, 2, 0, 0, 3000000000ull}};
    for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
        k = ew_ref_clock(none[i].leaf, none[i].eax, none[i].ebx, none[i].ecx, none[i].tsc_hz);
        assert_int_equal(k.hz, EW_REF_ASSUMED_HZ);
        assert_non_null(strstr(k.source, "assumed"));
    }
    assert_int_equal(EW_REF_ASSUMED_HZ, 19200000); /* SDM nominal core crystal table: Goldmont 19.2 MHz */
}

static void ref_window_sizing(void **state)
{
    (void)state;
    const u64 tsc_hz = 3000000000ull, xtal = 24000000, n_min = 2000, n_max = (1u << 20) / 3;
    /* The old window: 2000 iterations x 50 TSC ticks = 100000 TSC ticks = 800 crystal ticks per window; at
     * 12.5 TSC ticks per iteration (a fast core) 200 ticks. Quantization of 100 ticks is the whole 2 %. */
    assert_int_equal(ew_ref_ticks(2000 * 50, xtal, tsc_hz), 800);
    assert_int_equal(ew_ref_quant_ppm(100), 20000);
    /* Sized: 5000 ticks = 625000 TSC ticks = 12500 iterations (rounded up twice: 12501). */
    u64 n = ew_ref_window_n(EW_REF_MIN_TICKS, xtal, tsc_hz, 2000, 100000, n_min, n_max);
    assert_int_equal(n, 12501);
    assert_true(ew_ref_ticks(n * 50, xtal, tsc_hz) >= EW_REF_MIN_TICKS);
    assert_true(ew_ref_quant_ppm(ew_ref_ticks(n * 50, xtal, tsc_hz)) <= 400); /* a fifth of 2 % */
    /* Every pilot speed from 1 to 2^20 TSC ticks per iteration, three clocks: at least min ticks, or clamped. */
    static const u64 clocks[] = {EW_REF_ASSUMED_HZ, 25000000, 100000000};
    for (size_t c = 0; c < 3; c++)
        for (u64 per = 1; per <= (1u << 20); per *= 3) {
            u64 k = ew_ref_window_n(EW_REF_MIN_TICKS, clocks[c], tsc_hz, 2000, 2000 * per, n_min, n_max);
            assert_true(k >= n_min && k <= n_max);
            if (k < n_max && k > n_min)
                assert_true(ew_ref_ticks(k * per, clocks[c], tsc_hz) >= EW_REF_MIN_TICKS);
            if (k == n_min) /* the emulated PMU's case: a long iteration, the old length already suffices */
                assert_true(ew_ref_ticks(n_min * per, clocks[c], tsc_hz) >= EW_REF_MIN_TICKS);
        }
    /* Nothing known: the longest window. */
    assert_int_equal(ew_ref_window_n(EW_REF_MIN_TICKS, xtal, 0, 2000, 100000, n_min, n_max), n_max);
    assert_int_equal(ew_ref_window_n(EW_REF_MIN_TICKS, xtal, tsc_hz, 2000, 0, n_min, n_max), n_max);
    assert_int_equal(ew_ref_window_n(EW_REF_MIN_TICKS, 0, tsc_hz, 2000, 100000, n_min, n_max), n_max);
    assert_int_equal(ew_ref_ticks(1000, xtal, 0), 0);
    /* Quantization: +-2 ticks per window. */
    assert_int_equal(ew_ref_quant_ppm(5000), 400);
    assert_int_equal(ew_ref_quant_ppm(3), 666667);
    assert_int_equal(ew_ref_quant_ppm(2000000), 1);
    assert_int_equal(ew_ref_quant_ppm(0), UINT64_MAX);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(silent_counters),
        cmocka_unit_test(hand_counts), cmocka_unit_test(per_iteration), cmocka_unit_test(consistency),
        cmocka_unit_test(lfsr),        cmocka_unit_test(bounds),        cmocka_unit_test(spec),
        cmocka_unit_test(ref_clock_source), cmocka_unit_test(ref_window_sizing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
