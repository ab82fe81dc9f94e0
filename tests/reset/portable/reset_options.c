/* Suite reset's command-line option (reset_options.h, docs/options.md). */
#include "tests/reset/portable/reset_options.h"

#include <string.h>

#include "harness/portable/harness_options.h"
#include "lib/format.h"
#include "tests/reset/portable/reset_plan.h"

static struct reset_options opts;

const struct reset_options *reset_options(void)
{
    return &opts;
}

/* Bits as enum reset_type (lib/reset_record.h). */
static const char *set_reset(void *values, const char *v)
{
    struct reset_options *o = values;
    for (int t = 0; t < RESET_TYPES; t++)
        if (!strcmp(v, reset_type_name(t))) {
            o->reset_types = 1u << t;
            return NULL;
        }
    if (!strcmp(v, "all")) {
        o->reset_types = RESET_ALL;
        return NULL;
    }
    return "expects cf9, kbc, triple or all";
}

static bool consistent(const void *values, char *err, size_t err_size)
{
    const struct reset_options *o = values;
    if (o->reset_types && !list_contains(harness_options()->suites, "reset")) {
        k_snprintf(err, err_size, "reset= selects the resets of suite reset, which is not selected (add suite=reset)");
        return false;
    }
    return true;
}

static const struct opt_desc rows[] = {
    {"reset", "reset=cf9|kbc|triple|all",
     "suite reset: which machine resets to go through (default all); needs suite=reset", set_reset},
};

const struct opt_table reset_option_table = {rows, ARRAY_SIZE(rows), &opts, sizeof(opts), NULL, consistent};
