/* The harness's command-line options (harness_options.h, docs/options.md). */
#include "harness/portable/harness_options.h"

#include <string.h>

#include "lib/format.h"

static struct harness_options opts;

const struct harness_options *harness_options(void)
{
    return &opts;
}

static void defaults(void *values)
{
    struct harness_options *o = values;
    o->verbose = 1;
    o->fold = 1;
    o->check_timeout_ms = 20000;
    o->watchdog_auto = true;
}

u32 harness_watchdog_s(void)
{
    if (!opts.watchdog_auto)
        return opts.watchdog_s;
    u32 s = (opts.check_timeout_ms + WATCHDOG_MARGIN_MS + 999) / 1000;
    return s > WATCHDOG_AUTO_S ? s : WATCHDOG_AUTO_S;
}

/* Suite names: lower-case letters, digits, '_' and '-', comma-separated, no empty items. */
static const char *check_list(const char *v)
{
    if (!*v)
        return "expects a comma-separated list of suite names";
    if (strlen(v) >= OPT_LIST_MAX)
        return "list is too long";
    bool item_empty = true;
    for (const char *p = v;; p++) {
        if (*p == ',' || !*p) {
            if (item_empty)
                return "has an empty list item";
            if (!*p)
                return NULL;
            item_empty = true;
            continue;
        }
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
            return "suite names use only a-z, 0-9, '_' and '-'";
        item_empty = false;
    }
}

static const char *set_suites(void *values, const char *v)
{
    struct harness_options *o = values;
    const char *e = check_list(v);
    if (!e)
        memcpy(o->suites, v, strlen(v) + 1);
    return e;
}

static const char *set_exclude(void *values, const char *v)
{
    struct harness_options *o = values;
    const char *e = check_list(v);
    if (!e)
        memcpy(o->exclude, v, strlen(v) + 1);
    return e;
}

static const char *set_verbose(void *values, const char *v)
{
    struct harness_options *o = values;
    return opt_u32(v, &o->verbose, 0, 2) ? NULL : "expects 0, 1 or 2";
}

static const char *set_deviations(void *values, const char *v)
{
    struct harness_options *o = values;
    static const char *const names[] = {"todo", "strict", NULL};
    return opt_choice(v, names, &o->deviations_strict, "expects todo or strict");
}

static const char *set_run(void *values, const char *v)
{
    struct harness_options *o = values;
    static const char *const names[] = {"parallel", "serial", NULL};
    return opt_choice(v, names, &o->run_serial, "expects parallel or serial");
}

static const char *set_fold(void *values, const char *v)
{
    struct harness_options *o = values;
    static const char *const names[] = {"off", "on", NULL};
    return opt_choice(v, names, &o->fold, "expects on or off");
}

/* monitor=lava: every check on every thread also prints one line LAVA's test monitors match (docs/running.md "In a
 * lab"); folding is off, since a folded line would hide the threads. */
static const char *set_monitor(void *values, const char *v)
{
    struct harness_options *o = values;
    static const char *const names[] = {"none", "lava", NULL};
    const char *why = opt_choice(v, names, &o->monitor, "expects none or lava");
    if (!why && o->monitor)
        o->fold = 0;
    return why;
}

static const char *set_watchdog(void *values, const char *v)
{
    struct harness_options *o = values;
    o->watchdog_auto = !strcmp(v, "auto");
    if (o->watchdog_auto) {
        o->watchdog_s = 0;
        return NULL;
    }
    return opt_u32(v, &o->watchdog_s, 0, 1200) ? NULL : "expects auto, 0 (off) or seconds, 4..1200";
}

static const char *set_watchdog_erst(void *values, const char *v)
{
    struct harness_options *o = values;
    static const char *const names[] = {"off", "on", NULL};
    return opt_choice(v, names, &o->watchdog_erst, "expects off or on");
}

static const char *set_run_cpus(void *values, const char *v)
{
    struct harness_options *o = values;
    if (!strcmp(v, "auto")) {
        o->run_cpus = 0;
        return NULL;
    }
    return opt_u32(v, &o->run_cpus, 1, OPT_RUN_CPUS_MAX) ? NULL : "expects auto or a number of CPUs, 1..8192";
}

static const char *set_check_timeout(void *values, const char *v)
{
    struct harness_options *o = values;
    return opt_u32(v, &o->check_timeout_ms, 100, 600000) ? NULL : "expects milliseconds, 100..600000";
}

/* Rules between the harness's options, checked once every word is read (order does not matter). */
static bool consistent(const void *values, char *err, size_t err_size)
{
    const struct harness_options *o = values;
    if (o->run_serial && o->run_cpus) {
        k_snprintf(err, err_size, "run_cpus=%u limits run=parallel; run=serial runs one CPU at a time (drop one)",
                   o->run_cpus);
        return false;
    }
    if (o->watchdog_s && o->watchdog_s < 4) {
        k_snprintf(err, err_size, "watchdog_s=%u: the watchdog's 0.6 s ticks make 4 s the shortest (0 turns it off)",
                   o->watchdog_s);
        return false;
    }
    if (o->watchdog_s && (u64)o->watchdog_s * 1000 < (u64)o->check_timeout_ms + WATCHDOG_MARGIN_MS) {
        k_snprintf(err, err_size, "watchdog_s=%u: the reset watchdog must outlast the boot CPU's check limit "
                   "(check_timeout_ms=%u) by %u s, so that another CPU's NMI ends a hung check first (raise watchdog_s "
                   "to %u, or lower check_timeout_ms)", o->watchdog_s, o->check_timeout_ms, WATCHDOG_MARGIN_MS / 1000,
                   (o->check_timeout_ms + WATCHDOG_MARGIN_MS + 999) / 1000);
        return false;
    }
    if (o->monitor && o->fold) {
        k_snprintf(err, err_size, "monitor=lava prints every thread's verdict, which a folded line would hide (drop "
                                  "fold=on)");
        return false;
    }
    return true;
}

static const struct opt_desc rows[] = {
    {"suite", "suite=LIST", "run only these suites (comma-separated); default: the default suites", set_suites},
    {"exclude", "exclude=LIST", "skip these suites", set_exclude},
    {"verbose", "verbose=0|1|2",
     "0: diagnostics only for failures and skips; 1 (default): for every measured check; 2: debug lines",
     set_verbose},
    {"deviations", "deviations=todo|strict",
     "known deviations of this platform (an emulator, a hypervisor): TODO naming their source (default), or FAIL "
     "(strict: for testing one's own hypervisor or emulator)", set_deviations},
    {"run", "run=parallel|serial",
     "per-CPU checks: on every CPU at once (default), or one CPU after the other (the order of the stream is the "
     "same)", set_run},
    {"fold", "fold=on|off",
     "per-CPU checks: the threads whose verdicts agree apart from their numbers share one line, cpu[LIST]/suite/check, "
     "each differing number as its range (on, default); or one line per thread (off)", set_fold},
    {"monitor", "monitor=none|lava",
     "lava: after each verdict, one line 'pmuboot-result: ID RESULT [VALUE UNIT]' per check and thread, for LAVA's "
     "test monitors (docs/running.md, In a lab); implies fold=off",
     set_monitor},
    {"watchdog_s", "watchdog_s=auto|0|N",
     "the boot CPU's checks run under the hardware reset watchdog (ACPI WDAT or Intel TCO): a check that does not "
     "return within N s resets the machine, and the next boot reports it failed and skips it; auto (default): armed "
     "only where a record store exists (QEMU, cmos=) and the watchdog needs no setting changed, for 120 s or the "
     "check limit + 3 s; N arms it on request (docs/running.md)",
     set_watchdog},
    {"watchdog_erst", "watchdog_erst=off|on",
     "on: the reset watchdog may keep its record in the firmware's ACPI ERST, a flash write through an SMI twice around "
     "every check of the boot CPU (off, default: not armed with an ERST store)", set_watchdog_erst},
    {"run_cpus", "run_cpus=auto|N",
     "with run=parallel: at most N CPUs run checks at once; auto (default): all, 8 under QEMU TCG", set_run_cpus},
    {"check_timeout_ms", "check_timeout_ms=N",
     "a check still running after N ms (default 20000) is stopped with an NMI (the boot CPU's, or an idle AP's for "
     "the boot CPU) and failed", set_check_timeout},
};

const struct opt_table harness_option_table = {rows, ARRAY_SIZE(rows), &opts, sizeof(opts), defaults, consistent};
