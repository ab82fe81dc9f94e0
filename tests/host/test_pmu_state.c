/* pmu/pmu_state.c and pmu/reset_values.c against the register-level PMU model: the distinctive state is distinct
 * and counts nothing, survives the model's INIT unchanged (KNC PMU 1.4.4), and after the model's reset every
 * register is at the value pmu/reset_values.c documents. The model's reset follows SDM 325462-079US for Intel
 * GLOBAL_CTRL, so that is the edition it must match. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "pmu/reset_values.h"
#include "emul/model/pmu_model.h"
#include "tests/host/support/caps_fixture.h"

struct kind {
    const char *name;
    struct pmu_caps caps;
};
static struct kind kinds[8];
static size_t nkinds;
static struct pmu_model model;
static struct hw_access hw;
static struct pmu pmu;

static void add_kinds(void)
{
    nkinds = 0;
    fixture_caps_intel(&kinds[nkinds].caps, 1, 2, 40, 0, 0, false), kinds[nkinds++].name = "intel v1";
    fixture_caps_intel(&kinds[nkinds].caps, 2, 4, 48, 3, 48, false), kinds[nkinds++].name = "intel v2";
    fixture_caps_intel(&kinds[nkinds].caps, 4, 8, 48, 4, 48, true), kinds[nkinds++].name = "intel v4";
    fixture_caps_intel(&kinds[nkinds].caps, 5, 6, 48, 4, 48, true), kinds[nkinds++].name = "intel v5";
    fixture_caps_amd(&kinds[nkinds].caps, PMU_KIND_AMD_LEGACY, 4), kinds[nkinds++].name = "amd legacy";
    fixture_caps_amd(&kinds[nkinds].caps, PMU_KIND_AMD_CORE_EXT, 6), kinds[nkinds++].name = "amd core-ext";
    fixture_caps_amd(&kinds[nkinds].caps, PMU_KIND_AMD_PERFMON_V2, 6), kinds[nkinds++].name = "amd perfmon v2";
    fixture_caps_knc(&kinds[nkinds].caps), kinds[nkinds++].name = "knc";
}

static void bind(const struct kind *k)
{
    pmu_model_init(&model, &k->caps, MODEL_APIC_STRICT_EDGE);
    if (model.config_error)
        fail_msg("%s: model: %s", k->name, model.config_error);
    pmu_model_access(&model, &hw);
    if (pmu_init(&pmu, &model.caps, &hw))
        fail_msg("%s: pmu_init: %s", k->name, pmu.error);
}

/* Bind the model of kind k, program the distinctive state and read it into *s. */
static void program(const struct kind *k, u64 *set_bits, struct pmu_state *s)
{
    bind(k);
    const char *why = NULL;
    int rc = pmu_state_program_distinct(&pmu, set_bits, &why);
    if (rc)
        fail_msg("%s: program: %s: %s", k->name, why ? why : "?", pmu_strerror(rc));
    pmu_state_read(&pmu, s);
}

static void test_distinct_and_stopped(void **state)
{
    (void)state;
    for (size_t i = 0; i < nkinds; i++) {
        const struct kind *k = &kinds[i];
        u64 set_bits;
        struct pmu_state s;
        program(k, &set_bits, &s);
        assert_true(s.count >= 2 * k->caps.num_gp);
        for (u32 a = 0; a < s.count; a++) {
            assert_int_equal(s.e[a].rc, 0);
            if (s.e[a].reg == PMU_SREG_GP_CTR || s.e[a].reg == PMU_SREG_FIXED_CTR ||
                s.e[a].reg == PMU_SREG_GP_SEL || s.e[a].reg == PMU_SREG_FIXED_CTRL)
                if (!s.e[a].value) fail_msg("%s: entry %u (reg %u index %u) is 0", k->name, a, s.e[a].reg, s.e[a].index);
            for (u32 b = 0; b < a; b++)
                if (s.e[a].reg == s.e[b].reg && s.e[a].reg <= PMU_SREG_FIXED_CTR)
                    assert_true(s.e[a].value != s.e[b].value);
        }
        /* Nothing counts: every counter refuses its own event. */
        for (u32 bit = 0; bit < 64; bit++)
            if (pmu_counter_exists(&pmu, bit) && pmu_model_tick(&model, bit, 5))
                fail_msg("%s: counter bit %u counts after pmu_state_program_distinct", k->name, bit);
        if (k->caps.kind == PMU_KIND_INTEL_ARCH && k->caps.version >= 4)
            assert_int_equal(set_bits, 1);
        if (k->caps.kind == PMU_KIND_AMD_PERFMON_V2)
            assert_int_equal(set_bits, 1);
    }
}

static void test_init_keeps_reset_documents(void **state)
{
    (void)state;
    for (size_t i = 0; i < nkinds; i++) {
        const struct kind *k = &kinds[i];
        u64 set_bits;
        struct pmu_state before, after;
        program(k, &set_bits, &before);
        pmu_model_init_signal(&model);
        pmu_state_read(&pmu, &after);
        assert_int_equal(pmu_state_diff(&before, &after), 0);

        /* Without a reset, the distinctive state must not pass as reset values (counters-survive-reset). */
        u32 caught = 0;
        for (u32 a = 0; a < after.count; a++) {
            struct pmu_reset_expect x;
            pmu_reset_expect(&k->caps, &after.e[a], &x);
            caught += pmu_reset_judge(&x, after.e[a].value) == PMU_RESET_MISMATCH;
        }
        assert_true(caught >= k->caps.num_gp * 2);

        pmu_model_reset(&model);
        pmu_state_read(&pmu, &after);
        for (u32 a = 0; a < after.count; a++) {
            struct pmu_reset_expect x;
            pmu_reset_expect(&k->caps, &after.e[a], &x);
            assert_non_null(x.source);
            enum pmu_reset_match m = pmu_reset_judge(&x, after.e[a].value);
            if (m != PMU_RESET_MATCHES) {
                char n[32];
                pmu_state_name(&after.e[a], n, sizeof(n));
                fail_msg("%s: %s after reset: 0x%llx, expected 0x%llx (%s)", k->name, n,
                         (unsigned long long)after.e[a].value, (unsigned long long)x.value, x.source);
            }
        }
    }
}

/* The firmware's state (here the distinctive one, every control distinct) comes back exactly after a run that
 * reset the PMU, on every kind; a control the restore missed is seen by the controls' diff, and the counters'
 * values and the status are not part of that judgement. */
static void test_restore_controls(void **state)
{
    (void)state;
    add_kinds();
    for (size_t k = 0; k < nkinds; k++) {
        u64 set_bits;
        struct pmu_state fw, now;
        program(&kinds[k], &set_bits, &fw);
        if (pmu_reset(&pmu))
            fail_msg("%s: pmu_reset", kinds[k].name);
        pmu_state_read(&pmu, &now);
        if (!pmu_state_controls_diff(&fw, &now))
            fail_msg("%s: a reset PMU reads as the distinctive state", kinds[k].name);
        const char *why = NULL;
        int rc = pmu_state_restore(&pmu, &fw, &why);
        if (rc)
            fail_msg("%s: restore: %s: %s", kinds[k].name, why ? why : "?", pmu_strerror(rc));
        pmu_state_read(&pmu, &now);
        u64 d = pmu_state_controls_diff(&fw, &now);
        if (d)
            fail_msg("%s: controls differ after the restore: mask 0x%llx", kinds[k].name, (unsigned long long)d);
        /* Counters stop where the distinctive state stops them: their values come back too. */
        for (u32 i = 0; i < fw.count; i++)
            if (fw.e[i].reg == PMU_SREG_GP_CTR || fw.e[i].reg == PMU_SREG_FIXED_CTR)
                assert_int_equal(fw.e[i].value, now.e[i].value);
        /* A control put back wrong is seen; a counter or the status that differ are not the controls' business. */
        for (u32 i = 0; i < now.count; i++) {
            struct pmu_state bad = now;
            bad.e[i].value ^= 1;
            u64 m = pmu_state_controls_diff(&fw, &bad);
            bool control = now.e[i].reg == PMU_SREG_GP_SEL || now.e[i].reg == PMU_SREG_FIXED_CTRL ||
                           now.e[i].reg == PMU_SREG_GLOBAL_CTRL || now.e[i].reg == PMU_SREG_SPFLT;
            if (control != (m == 1ull << i))
                fail_msg("%s: entry %u (reg %u): controls diff 0x%llx", kinds[k].name, i, now.e[i].reg,
                         (unsigned long long)m);
        }
    }
}

/* A counter value the legacy alias cannot write (bit 31 set, no full-width writes: SDM Vol.3B 21.2.6) is an error of
 * the restore, but never leaves the firmware's controls stopped: every other step still runs. */
static void test_restore_best_effort(void **state)
{
    (void)state;
    struct kind k = {.name = "intel v2 without FW_WRITE"};
    fixture_caps_intel(&k.caps, 2, 4, 48, 3, 48, false);
    u64 set_bits;
    struct pmu_state fw, now;
    program(&k, &set_bits, &fw);
    for (u32 i = 0; i < fw.count; i++)
        if (fw.e[i].reg == PMU_SREG_GP_CTR && fw.e[i].index == 0)
            fw.e[i].value = 0x80000000ull;
    assert_int_equal(pmu_reset(&pmu), 0);
    const char *why = NULL;
    assert_int_not_equal(pmu_state_restore(&pmu, &fw, &why), 0);
    assert_non_null(why);
    assert_non_null(strstr(why, "counter write"));
    pmu_state_read(&pmu, &now);
    assert_int_equal(pmu_state_controls_diff(&fw, &now), 0);
}

static void test_judge_editions(void **state)
{
    (void)state;
    struct pmu_caps c;
    fixture_caps_intel(&c, 4, 4, 48, 3, 48, true);
    struct pmu_state_entry gctl = {.reg = PMU_SREG_GLOBAL_CTRL}, gsts = {.reg = PMU_SREG_GLOBAL_STATUS};
    struct pmu_reset_expect x;
    pmu_reset_expect(&c, &gctl, &x);
    assert_int_equal(pmu_reset_judge(&x, 0xF), PMU_RESET_MATCHES);
    assert_int_equal(pmu_reset_judge(&x, 0), PMU_RESET_MATCHES_ALT);
    assert_int_equal(pmu_reset_judge(&x, 0x7), PMU_RESET_MISMATCH);
    assert_int_equal(pmu_reset_judge(&x, 0x7000000000Full), PMU_RESET_MISMATCH); /* fixed bits: never */
    pmu_reset_expect(&c, &gsts, &x);
    assert_int_equal(pmu_reset_judge(&x, 1ull << 63), PMU_RESET_MATCHES); /* CondChgd erratum */
    assert_int_equal(pmu_reset_judge(&x, 1), PMU_RESET_MISMATCH);
    fixture_caps_knc(&c);
    pmu_reset_expect(&c, &gctl, &x);
    assert_false(x.has_alt);
    assert_int_equal(pmu_reset_judge(&x, 0x3), PMU_RESET_MISMATCH);
    assert_int_equal(pmu_reset_judge(&x, 0), PMU_RESET_MATCHES);
    /* AMD PerfMonV2: every core counter enabled (PPR), or 0 as QEMU writes it into KVM after a reset. */
    fixture_caps_amd(&c, PMU_KIND_AMD_PERFMON_V2, 6);
    pmu_reset_expect(&c, &gctl, &x);
    assert_int_equal(pmu_reset_judge(&x, 0x3F), PMU_RESET_MATCHES);
    assert_int_equal(pmu_reset_judge(&x, 0), PMU_RESET_MATCHES_ALT);
    assert_int_equal(pmu_reset_judge(&x, 0x1F), PMU_RESET_MISMATCH);
}

static void test_names(void **state)
{
    (void)state;
    char b[32];
    struct pmu_state_entry e = {.reg = PMU_SREG_FIXED_CTR, .index = 2};
    pmu_state_name(&e, b, sizeof(b));
    assert_string_equal(b, "fixed2");
    e.reg = PMU_SREG_GLOBAL_STATUS;
    pmu_state_name(&e, b, sizeof(b));
    assert_string_equal(b, "global_status");
    e.reg = PMU_SREG_SPFLT;
    pmu_state_name(&e, b, sizeof(b));
    assert_string_equal(b, "spflt");
}

/* KNC's SPFLT control is part of the state (KNC PMU Table 1-2), and only there. */
static void test_spflt_knc_only(void **state)
{
    (void)state;
    for (size_t i = 0; i < nkinds; i++) {
        struct pmu_state s;
        bind(&kinds[i]);
        pmu_state_read(&pmu, &s);
        u32 n = 0;
        for (u32 a = 0; a < s.count; a++)
            n += s.e[a].reg == PMU_SREG_SPFLT;
        assert_int_equal(n, kinds[i].caps.kind == PMU_KIND_KNC);
    }
}

int main(void)
{
    add_kinds();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_distinct_and_stopped),
        cmocka_unit_test(test_init_keeps_reset_documents),
        cmocka_unit_test(test_judge_editions),
        cmocka_unit_test(test_restore_controls),
        cmocka_unit_test(test_restore_best_effort),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_spflt_knc_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
