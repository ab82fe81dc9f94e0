/* The uncore verdicts (pmu/uncore_verdict.h) driven against the emulated uncore register model
 * (emul/model/uncore_model.h) for every kind with an emulated face: each protocol passes on the model as the manuals
 * describe it, every package or L3 complex on its own, and each deliberate fault fails exactly the verdict it should. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "emul/model/uncore_model.h"
#include "lib/format.h"
#include "pmu/uncore_verdict.h"

static struct uncore_machine m;

static void machine(const char *kind, u32 faults)
{
    const char *why = NULL;
    if (!uncore_machine_init(&m, uncore_kind_by_name(kind), faults, &why))
        fail_msg("%s: %s", kind, why);
}

static u64 rd(struct uncore_model *u, u32 msr)
{
    u64 v = 0;
    assert_int_equal(uncore_model_rdmsr(u, msr, &v), 0);
    return v;
}

static void wr(struct uncore_model *u, u32 msr, u64 v)
{
    assert_int_equal(uncore_model_wrmsr(u, msr, v), 0);
}

/* Counter `i` of the model (its first group's counters come first) to overflow after `period` events, with its PMI. */
static void arm(struct uncore_model *u, u32 i, u64 period, bool pmi)
{
    const struct uncore_box_desc *b = u->c[i].box;
    wr(u, u->c[i].ctl, 0);
    wr(u, u->c[i].ctr, ((1ull << b->width) - 1) - (period - 1));
    wr(u, u->c[i].ctl, 0x0101 | b->sel_enable | (pmi ? b->sel_pmi : 0) | b->sel_count_all);
}

static u64 global_on(const struct uncore_kind_desc *k, u32 cores, bool freeze)
{
    return k->global.ctrl_enable | uncore_route_bits(k, cores) | (freeze ? k->global.ctrl_freeze : 0);
}

static void fixed_on(struct uncore_model *u)
{
    wr(u, u->kind->fixed.ctl, u->kind->fixed.ctl_enable);
}

/* Routing, on scope `s`: the cores selected take exactly one PMI each; no core of any other scope takes one. */
static enum uncore_outcome route_protocol(u32 s, u32 selected, bool two_counters)
{
    struct uncore_model *u = &m.scope[s];
    const struct uncore_kind_desc *k = m.kind;
    arm(u, 0, 10, true);
    if (two_counters)
        arm(u, 1, 10, true);
    wr(u, k->global.ctrl, global_on(k, selected, true));
    uncore_model_tick(u, 1000, 20);
    u32 pmis[UNCORE_MODEL_MAX_CORES] = {0};
    for (u32 c = 0; c < u->cores; c++)
        pmis[c] = uncore_model_take_pmis(u, c);
    for (u32 o = 0; o < m.nscopes; o++)
        if (o != s)
            for (u32 c = 0; c < m.scope[o].cores; c++)
                assert_int_equal(uncore_model_take_pmis(&m.scope[o], c), 0);
    struct uncore_route_judgement j;
    enum uncore_outcome r = uncore_route_judge(selected, pmis, u->cores, &j);
    if (two_counters)
        assert_int_equal(u->interrupts, 1); /* two overflows together, one interrupt request */
    return r;
}

static enum uncore_outcome freeze_protocol(void)
{
    struct uncore_model *u = &m.scope[0];
    const struct uncore_kind_desc *k = m.kind;
    arm(u, 0, 10, true);
    arm(u, 1, 1ull << 40, false);
    fixed_on(u);
    u64 ctrl = global_on(k, 1, true);
    wr(u, k->global.ctrl, ctrl);
    uncore_model_tick(u, 1000, 20);
    u32 ms[3] = {u->c[0].ctr, u->c[1].ctr, k->fixed.ctr};
    u64 at[3], later[3], rel[3];
    u64 ctrl_at_pmi = rd(u, k->global.ctrl);
    for (u32 i = 0; i < 3; i++)
        at[i] = rd(u, ms[i]);
    uncore_model_tick(u, 1000, 20);
    for (u32 i = 0; i < 3; i++)
        later[i] = rd(u, ms[i]);
    /* The release: clear the status, set the enables again (SDM: software re-enables on exit from the ISR). */
    u32 msr;
    u64 v;
    assert_true(uncore_status_clear_write(k, rd(u, k->global.status), rd(u, k->global.status), &msr, &v));
    wr(u, msr, v);
    wr(u, k->global.ctrl, ctrl);
    uncore_model_tick(u, 1000, 20);
    for (u32 i = 0; i < 3; i++)
        rel[i] = rd(u, ms[i]);
    struct uncore_freeze_judgement j;
    return uncore_freeze_judge(k, 64, at, later, rel, 3, ctrl, ctrl_at_pmi, &j);
}

static enum uncore_outcome status_protocol(void)
{
    struct uncore_model *u = &m.scope[0];
    const struct uncore_kind_desc *k = m.kind;
    arm(u, 0, 10, true);
    wr(u, k->global.ctrl, global_on(k, 1, false));
    uncore_model_tick(u, 1000, 20);
    u64 expected = uncore_box_status_bit(u->c[0].box, u->c[0].index);
    u64 after = rd(u, k->global.status);
    u32 msr;
    u64 v;
    assert_true(uncore_status_clear_write(k, expected, after, &msr, &v));
    wr(u, msr, v);
    struct uncore_status_judgement j;
    return uncore_status_judge(k, expected, true, after, rd(u, k->global.status), &j);
}

static enum uncore_outcome clock_protocol(void)
{
    struct uncore_model *u = &m.scope[0];
    const struct uncore_kind_desc *k = m.kind;
    fixed_on(u);
    wr(u, k->global.ctrl, global_on(k, 0, false));
    u64 tsc_delta = k->emul->tsc_hz / 100; /* 10 ms */
    u64 before = rd(u, k->fixed.ctr);
    uncore_model_tick(u, tsc_delta, 0);
    u64 after = rd(u, k->fixed.ctr);
    struct uncore_clock_judgement j;
    enum uncore_outcome r = uncore_clock_judge(after - before, tsc_delta, k->emul->tsc_hz, k->emul->uncore_clock_hz,
                                               uncore_clock_tolerance_ppm(tsc_delta, 0), &j);
    return r;
}

/* The bounded event: counter 0 of every box of the kind's first group counting its at-least-lines event (any
 * non-clock event, to a model that does not tell them apart) over 4096 line fetches, summed. */
static enum uncore_outcome bounded_protocol(void)
{
    struct uncore_model *u = &m.scope[0];
    const struct uncore_kind_desc *k = m.kind;
    const struct uncore_box_desc *b = u->c[0].box;
    wr(u, u->c[0].ctr, 0);
    wr(u, u->c[0].ctl, 0x0101 | b->sel_enable | b->sel_count_all);
    if (k->global.ctrl)
        wr(u, k->global.ctrl, k->global.ctrl_enable);
    u64 sum = 0;
    for (u32 i = 0; i < u->ncounters; i++)
        if (u->c[i].box == b && u->c[i].index == 0 && i) {
            wr(u, u->c[i].ctr, 0);
            wr(u, u->c[i].ctl, 0x0101 | b->sel_enable | b->sel_count_all);
        }
    for (u32 i = 0; i < 4096; i++)
        uncore_model_lines(u, 1); /* one line at a time, as the kernel's observer feeds them */
    for (u32 i = 0; i < u->ncounters; i++)
        if (u->c[i].box == b && u->c[i].index == 0)
            sum += rd(u, u->c[i].ctr);
    struct uncore_at_least_judgement j;
    return uncore_at_least_judge(sum, 4096, &j);
}

static const char *const pmi_kinds[] = {"nhm", "snb"};

static void test_protocols_pass(void **state)
{
    (void)state;
    for (size_t i = 0; i < ARRAY_SIZE(pmi_kinds); i++) {
        machine(pmi_kinds[i], 0);
        for (u32 s = 0; s < m.nscopes; s++) {
            u32 all = (1u << m.scope[s].cores) - 1;
            const u32 sets[] = {0x1, 0x5, 0x8, all};
            for (size_t j = 0; j < ARRAY_SIZE(sets); j++) {
                machine(pmi_kinds[i], 0);
                assert_int_equal(route_protocol(s, sets[j], false), UNCORE_PASS);
            }
            machine(pmi_kinds[i], 0);
            assert_int_equal(route_protocol(s, 0x6, true), UNCORE_PASS);
        }
        machine(pmi_kinds[i], 0);
        assert_int_equal(freeze_protocol(), UNCORE_PASS);
        machine(pmi_kinds[i], 0);
        assert_int_equal(status_protocol(), UNCORE_PASS);
        machine(pmi_kinds[i], 0);
        assert_int_equal(clock_protocol(), UNCORE_PASS);
        machine(pmi_kinds[i], 0);
        assert_int_equal(bounded_protocol(), UNCORE_PASS);
    }
}

/* Each fault fails the verdict it names, and only that one. */
static void test_each_fault_fails_its_verdict(void **state)
{
    (void)state;
    for (size_t i = 0; i < ARRAY_SIZE(pmi_kinds); i++)
        for (u32 f = 0; f < UNCORE_FAULT_COUNT; f++) {
            u32 bit = 1u << f;
            machine(pmi_kinds[i], bit);
            enum uncore_outcome route = route_protocol(0, 0x5, false);
            machine(pmi_kinds[i], bit);
            enum uncore_outcome freeze = freeze_protocol();
            machine(pmi_kinds[i], bit);
            enum uncore_outcome status = status_protocol();
            machine(pmi_kinds[i], bit);
            enum uncore_outcome clock = clock_protocol();
            machine(pmi_kinds[i], bit);
            enum uncore_outcome bounded = bounded_protocol();
            const char *name = uncore_model_fault_name(bit);
            if ((route == UNCORE_FAIL) != (bit == UNCORE_FAULT_PMI_WRONG_CORE) ||
                (freeze == UNCORE_FAIL) != (bit == UNCORE_FAULT_NO_FREEZE) ||
                (status == UNCORE_FAIL) != (bit == UNCORE_FAULT_OVF_NOT_CLEARED) ||
                (clock == UNCORE_FAIL) != (bit == UNCORE_FAULT_CLOCK_RATE) ||
                (bounded == UNCORE_FAIL) != (bit == UNCORE_FAULT_EVENT_UNDERCOUNT))
                fail_msg("%s with %s: route %s freeze %s status %s clock %s bounded %s", pmi_kinds[i], name,
                         uncore_outcome_name(route), uncore_outcome_name(freeze), uncore_outcome_name(status),
                         uncore_outcome_name(clock), uncore_outcome_name(bounded));
        }
}

/* One register file per package: a write by one thread is what every thread of its package reads, and no other
 * package's. */
static void test_shared_per_package(void **state)
{
    (void)state;
    machine("nhm", 0);
    u32 threads = uncore_machine_threads(&m);
    assert_int_equal(threads, 16);
    assert_int_equal(m.nscopes, 2);
    struct uncore_model *p0 = uncore_machine_scope_of(&m, 0);
    wr(p0, 0x3b0, 1234);
    for (u32 t = 0; t < threads; t++) {
        struct uncore_model *u = uncore_machine_scope_of(&m, t);
        assert_int_equal(rd(u, 0x3b0), t < 8 ? 1234 : 0);
    }
    assert_int_equal(uncore_machine_core_of(&m, 5), 2);
    assert_int_equal(uncore_machine_core_of(&m, 9), 0);
    /* 48-bit counters; the status is read-only, OVF_CTRL write-only; outside the map, #GP. */
    wr(p0, 0x3b1, ~0ull);
    assert_int_equal(rd(p0, 0x3b1), (1ull << 48) - 1);
    assert_int_equal(uncore_model_wrmsr(p0, 0x392, 0), -1);
    u64 v;
    assert_int_equal(uncore_model_rdmsr(p0, 0x393, &v), -1);
    assert_int_equal(uncore_model_rdmsr(p0, 0x3b8, &v), -1);
    /* The kernel's MSR route asks which MSRs are the uncore's: every register of the map, the write-only OVF_CTRL
     * too, and nothing else (IA32_PERF_GLOBAL_CTRL 38FH stays the core PMU's). */
    assert_true(uncore_model_has_msr(p0, 0x391) && uncore_model_has_msr(p0, 0x392) && uncore_model_has_msr(p0, 0x393));
    assert_true(uncore_model_has_msr(p0, 0x394) && uncore_model_has_msr(p0, 0x395));
    assert_true(uncore_model_has_msr(p0, 0x3b7) && uncore_model_has_msr(p0, 0x3c7));
    assert_false(uncore_model_has_msr(p0, 0x3b8) || uncore_model_has_msr(p0, 0x38f) || uncore_model_has_msr(p0, 0x390));
}

/* AMD's L3: a counter per CCX counts with its slice and thread selects; there is no interrupt, freeze, status or
 * fixed clock, so those checks SKIP with the reason. */
static void test_amd_l3(void **state)
{
    (void)state;
    machine("amd_l3_zen3", 0);
    assert_int_equal(m.nscopes, 2);
    const char *why;
    assert_false(uncore_kind_can(m.kind, UNCORE_NEED_ROUTING, &why));
    assert_false(uncore_kind_can(m.kind, UNCORE_NEED_FREEZE, &why));
    assert_false(uncore_kind_can(m.kind, UNCORE_NEED_STATUS, &why));
    assert_false(uncore_kind_can(m.kind, UNCORE_NEED_FIXED, &why));
    struct uncore_model *ccx1 = uncore_machine_scope_of(&m, 16);
    assert_ptr_equal(ccx1, &m.scope[1]);
    arm(ccx1, 0, 1000, false);
    uncore_model_tick(ccx1, 1000, 50);
    assert_int_equal(rd(ccx1, 0xc0010231), ((1ull << 48) - 1) - 999 + 50);
    assert_int_equal(rd(&m.scope[0], 0xc0010231), 0);
    /* Without the slice and thread selects the counter counts nothing. */
    wr(ccx1, 0xc0010230, 0x0101 | BIT(22));
    wr(ccx1, 0xc0010231, 0);
    uncore_model_tick(ccx1, 1000, 50);
    assert_int_equal(rd(ccx1, 0xc0010231), 0);
}

/* A bounded event of each kind that offers one, on a counter of its group: at least the lines the workload read. */
static void test_bounded_events(void **state)
{
    (void)state;
    static const char *const kinds[] = {"nhm", "amd_l3_zen3"};
    for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
        machine(kinds[i], 0);
        const struct uncore_kind_desc *k = m.kind;
        const struct uncore_event_desc *e = NULL;
        for (size_t j = 0; j < k->events_len && !e; j++)
            if (k->events[j].bound == UNCORE_BOUND_AT_LEAST_LINES)
                e = &k->events[j];
        assert_non_null(e);
        struct uncore_model *u = &m.scope[0];
        const struct uncore_box_desc *b = u->c[0].box;
        assert_string_equal(b->name, e->box);
        wr(u, u->c[0].ctr, 0);
        wr(u, u->c[0].ctl, (u64)e->umask << 8 | e->event | b->sel_enable | b->sel_count_all);
        if (k->global.ctrl)
            wr(u, k->global.ctrl, k->global.ctrl_enable);
        uncore_model_tick(u, 1000, 4096);
        struct uncore_at_least_judgement j;
        assert_int_equal(uncore_at_least_judge(rd(u, u->c[0].ctr), 4096, &j), UNCORE_PASS);
    }
}

static void test_fault_names(void **state)
{
    (void)state;
    u32 mask;
    char bad[32];
    assert_true(uncore_model_faults_parse("uncore-no-freeze,uncore-clock-rate", &mask, bad, sizeof(bad)));
    assert_int_equal(mask, UNCORE_FAULT_NO_FREEZE | UNCORE_FAULT_CLOCK_RATE);
    assert_false(uncore_model_faults_parse("uncore-no-freeze,nonsense", &mask, bad, sizeof(bad)));
    assert_string_equal(bad, "nonsense");
    for (u32 f = 0; f < UNCORE_FAULT_COUNT; f++)
        assert_non_null(uncore_model_fault_name(1u << f));
    assert_null(uncore_model_fault_name(1u << UNCORE_FAULT_COUNT));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_protocols_pass),     cmocka_unit_test(test_each_fault_fails_its_verdict),
        cmocka_unit_test(test_shared_per_package), cmocka_unit_test(test_amd_l3),
        cmocka_unit_test(test_fault_names),        cmocka_unit_test(test_bounded_events),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
