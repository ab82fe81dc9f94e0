/* Suite timeout's command-line option (timeout_options.h, docs/options.md). */
#include "tests/timeout/portable/timeout_options.h"

#include "harness/portable/harness_options.h"
#include "lib/format.h"

static struct timeout_options opts;

const struct timeout_options *timeout_options(void)
{
    return &opts;
}

static const char *set_timeout_hang(void *values, const char *v)
{
    struct timeout_options *o = values;
    static const char *const names[] = {"none", "bsp", "bsp-nmi-blocked", "bsp-bail-out", NULL};
    return opt_choice(v, names, &o->timeout_hang, "expects none, bsp, bsp-nmi-blocked or bsp-bail-out");
}

static bool consistent(const void *values, char *err, size_t err_size)
{
    const struct timeout_options *o = values;
    if (o->timeout_hang && !list_contains(harness_options()->suites, "timeout")) {
        k_snprintf(err, err_size, "timeout_hang= concerns suite timeout, which is not selected (add suite=timeout)");
        return false;
    }
    return true;
}

static const struct opt_desc rows[] = {
    {"timeout_hang", "timeout_hang=none|bsp|bsp-nmi-blocked|bsp-bail-out",
     "suite timeout: bsp makes time_limit hang the boot CPU too, for an idle AP's NMI to stop; bsp-nmi-blocked hangs "
     "it with NMIs blocked, which only the reset watchdog ends; bsp-bail-out ends the run there with a bail-out, which "
     "must still put every change back (needs suite=timeout)",
     set_timeout_hang},
};

const struct opt_table timeout_option_table = {rows, ARRAY_SIZE(rows), &opts, sizeof(opts), NULL, consistent};
