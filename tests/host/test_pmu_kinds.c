/* Every value of enum pmu_kind has a complete descriptor (pmu/kind.h) and an entry in the events suite's table
 * (tests/events/portable/events_spec.c): a kind added to the enum and forgotten in either fails here instead of silently taking
 * another kind's rules. Every emulated kind (emul/emul_kinds.c) is complete too: a name, a signature, and its PMU kind's
 * emulated face (pmu/emul_face.h) with a vendor string, events, an MSR map and a register model, so that it never
 * presents another vendor's data. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "pmu/event_catalog.h"

#include "emul/emul.h"
#include "pmu/kind.h"
#include "tests/events/portable/events_spec.h"

static bool in_table(const struct pmu_kind_desc *d, const char *name)
{
    for (size_t i = 0; i < d->events_len; i++)
        if (d->events[i].name && name && !strcmp(d->events[i].name, name))
            return true;
    return false;
}

static void test_kind_none(void **state)
{
    (void)state;
    const struct pmu_kind_desc *d = pmu_kinds[PMU_KIND_NONE];
    assert_non_null(d);
    assert_string_equal(pmu_kind_name(PMU_KIND_NONE), "none");
    assert_null(d->backend);
    assert_null(d->claims);
    assert_null(ew_kind_spec(PMU_KIND_NONE));
    assert_ptr_equal(pmu_kind_get(PMU_KIND_COUNT), d);
    assert_string_equal(pmu_kind_name(PMU_KIND_COUNT), "invalid");
}

static void test_every_kind_complete(void **state)
{
    (void)state;
    for (u32 k = PMU_KIND_NONE + 1; k < PMU_KIND_COUNT; k++) {
        const struct pmu_kind_desc *d = pmu_kinds[k];
        print_message("# kind %u\n", k);
        assert_non_null(d);
        assert_ptr_equal(pmu_kind_get(k), d);
        assert_non_null(d->name);
        assert_true(d->name[0]);
        assert_string_equal(pmu_kind_name(k), d->name);
        for (u32 j = 0; j < k; j++)
            assert_true(strcmp(pmu_kinds[j]->name, d->name) != 0);
        assert_non_null(d->title);
        assert_non_null(d->claims);
        assert_non_null(d->discover);
        assert_non_null(d->evsel_reserved);
        assert_non_null(d->reset_expect);
        const struct pmu_backend *be = d->backend;
        assert_non_null(be);
        assert_non_null(be->name);
        assert_true(be->global_set && be->global_get && be->status_read && be->status_clear && be->status_set);
        assert_true(be->select_write && be->select_read && be->fixed_ctrl_write);
        assert_true(be->counter_write && be->counter_read && be->counter_rdpmc && be->rdpmc_index);
        assert_false(d->arch_perfmon && d->amd_core);

        assert_non_null(d->events);
        assert_true(d->events_len > 0);
        for (u32 ev = 0; ev < PMU_EV_COUNT; ev++)
            assert_true(in_table(d, d->generic[ev]));

        const struct ew_kind_spec *spec = ew_kind_spec(k);
        assert_non_null(spec);
        assert_true(spec->len > 0);
        for (size_t i = 0; i < spec->len; i++) {
            const char *ev = spec->events[i].event;
            /* "catalog:CLASS": the part's event from the vendor's catalog (pmu/event_catalog.h). */
            if (!strncmp(ev, "catalog:", 8)) {
                assert_int_not_equal(evc_from_name(ev + 8), EVC_COUNT);
                continue;
            }
            assert_true(in_table(d, ev));
        }
    }
}

/* One emulated kind: what it presents is all there (the face's fields one by one, then the same judgement
 * pmu=emulated:KIND makes, pmu_emul_kind_complete), it is consistent with its descriptor, and discovery on the CPUID
 * it presents finds its PMU kind with every register routed to the model. */
static void check_emulated_kind(const struct pmu_emul_kind *k)
{
    print_message("# emulated kind %s\n", k->name ? k->name : "(no name)");
    assert_non_null(k->name);
    assert_true(k->name[0]);
    assert_ptr_equal(pmu_emul_kind_find(k->name), k);
    assert_true(k->signature != 0);
    const struct pmu_kind_desc *d = pmu_kind_get(k->kind);
    const struct pmu_emul_face *f = d->emul;
    assert_ptr_equal(pmu_emul_face_of(k), f);
    assert_non_null(f);
    /* Vendor and CPUID */
    assert_non_null(f->vendor);
    assert_int_equal(strlen(f->vendor), 12);
    /* Events: each named in the kind's table, counting something */
    assert_non_null(f->events);
    assert_non_null(f->events[0].name);
    for (const struct pmu_emul_event *e = f->events; e->name; e++) {
        assert_true(in_table(d, e->name));
        assert_true(e->classes != 0);
    }
    assert_true(f->instructions.event != 0);
    if (k->num_fixed || k->num_cores)
        assert_true(f->fixed[0].event != 0);
    /* MSR map and register model, the descriptor's programming model */
    assert_non_null(f->msrs);
    assert_true(f->msrs_len > 0);
    assert_int_not_equal(f->regs, PMU_EMUL_REGS_NONE);
    assert_int_equal(f->regs == PMU_EMUL_REGS_ARCH_PERFMON, d->arch_perfmon);
    assert_int_equal(f->regs == PMU_EMUL_REGS_AMD_CORE, d->amd_core);
    const char *why = NULL;
    assert_true(pmu_emul_kind_complete(k, &why));
    assert_null(why);
    /* The CPUID it presents identifies the kind, and its registers go to the model. */
    for (u32 core = 0; core < (k->num_cores ? k->num_cores : 1); core++) {
        struct pmu_caps caps;
        pmu_emul_caps(k, core, &caps);
        assert_int_equal(caps.kind, k->kind);
        assert_true(caps.num_gp > 0);
        assert_true(caps.msrs.evtsel0 && pmu_emul_msr_is_pmu(k, caps.msrs.evtsel0));
        assert_true(caps.msrs.ctr0 && pmu_emul_msr_is_pmu(k, caps.msrs.ctr0));
        if (caps.msrs.global_ctrl)
            assert_true(pmu_emul_msr_is_pmu(k, caps.msrs.global_ctrl));
    }
}

static void test_every_emulated_kind_complete(void **state)
{
    (void)state;
    assert_true(pmu_emul_kind_count() > 0);
    for (u32 i = 0; i < pmu_emul_kind_count(); i++) {
        check_emulated_kind(pmu_emul_kind_at(i));
        for (u32 j = 0; j < i; j++)
            assert_true(strcmp(pmu_emul_kind_at(j)->name, pmu_emul_kind_at(i)->name) != 0);
    }
    assert_null(pmu_emul_kind_at(pmu_emul_kind_count()));
}

/* An incomplete one is refused, naming what is missing: here a part of the Intel kind with its face taken away
 * piece by piece (the descriptors themselves are const). */
static void test_incomplete_emulated_kind_refused(void **state)
{
    (void)state;
    const char *why = NULL;
    struct pmu_emul_kind k = *pmu_emul_kind_find("intel-v4");
    k.name = "";
    assert_false(pmu_emul_kind_complete(&k, &why));
    assert_string_equal(why, "it has no name");
    k = *pmu_emul_kind_find("intel-v4");
    k.signature = 0;
    assert_false(pmu_emul_kind_complete(&k, &why));
    assert_non_null(strstr(why, "signature"));
    k = *pmu_emul_kind_find("intel-v4");
    k.kind = PMU_KIND_NONE; /* a PMU kind without a face */
    assert_false(pmu_emul_kind_complete(&k, &why));
    assert_non_null(strstr(why, "no emulated face"));
}

/* The optional facts hold together: a full-width alias exists only where the counter MSR itself sign-extends, a
 * freeze is reported in the status only where DEBUGCTL can freeze, PEBS and the freeze bits are of the Intel
 * architectural model, a metric guide's inputs name the kind's own events. */
static void test_optional_facts_consistent(void **state)
{
    (void)state;
    for (u32 k = 0; k < PMU_KIND_COUNT; k++) {
        const struct pmu_kind_desc *d = pmu_kinds[k];
        print_message("# kind %s\n", d->name);
        if (d->full_width_alias0)
            assert_true(d->legacy_write_sign_extends);
        if (d->freeze_in_status_version)
            assert_true(d->freeze_on_pmi_version && d->freeze_in_status_version >= d->freeze_on_pmi_version);
        if (d->freeze_on_pmi_version || d->pebs || d->legacy_write_sign_extends)
            assert_true(d->arch_perfmon);
        if (d->metrics)
            assert_non_null(d->events);
        if (d->deviations || d->vendor_catalog || d->gp_constraint || d->metrics)
            assert_true(pmu_kind_present(k));
    }
}

/* The predicates outside code reads are the descriptor's facts: Intel freezes from v2 and reports the freeze in
 * its status from v4; Zhaoxin, though architectural perfmon v2, is claimed to have neither (no Zhaoxin document
 * says so) and writes its counters at full width (Linux zhaoxin/core.c); KNC, AMD and kind none have none. */
static void test_predicates(void **state)
{
    (void)state;
    struct pmu_caps c = {.kind = PMU_KIND_INTEL_ARCH, .version = 1};
    assert_false(pmu_freezes_on_pmi(&c));
    c.version = 2;
    assert_true(pmu_freezes_on_pmi(&c));
    assert_false(pmu_freeze_in_status(&c));
    c.version = 4;
    assert_true(pmu_freeze_in_status(&c));
    assert_true(pmu_legacy_write_sign_extends(PMU_KIND_INTEL_ARCH));
    const enum pmu_kind others[] = {PMU_KIND_ZHAOXIN, PMU_KIND_KNC, PMU_KIND_AMD_PERFMON_V2, PMU_KIND_NONE};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        c = (struct pmu_caps){.kind = others[i], .version = 4};
        assert_false(pmu_freezes_on_pmi(&c));
        assert_false(pmu_freeze_in_status(&c));
        assert_false(pmu_legacy_write_sign_extends(others[i]));
    }
    assert_false(pmu_kind_present(PMU_KIND_NONE));
    assert_false(pmu_kind_present(PMU_KIND_COUNT));
    assert_true(pmu_kind_present(PMU_KIND_ZHAOXIN));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kind_none),
        cmocka_unit_test(test_every_kind_complete),
        cmocka_unit_test(test_every_emulated_kind_complete),
        cmocka_unit_test(test_incomplete_emulated_kind_refused),
        cmocka_unit_test(test_optional_facts_consistent),
        cmocka_unit_test(test_predicates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
