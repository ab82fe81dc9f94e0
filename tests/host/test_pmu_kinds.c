/* Every value of enum pmu_kind has a complete descriptor (pmu/kind.h) and an entry in the events suite's table
 * (tests/events/portable/events_spec.c): a kind added to the enum and forgotten in either fails here instead of silently taking
 * another kind's rules. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "pmu/event_catalog.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kind_none),
        cmocka_unit_test(test_every_kind_complete),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
