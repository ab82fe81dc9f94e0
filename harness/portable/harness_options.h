/* The harness's command-line options (docs/options.md): suite=, exclude=, verbose=, deviations=, run=, fold=,
 * monitor=, watchdog_s=, watchdog_erst=, run_cpus=, check_timeout_ms=. Portable (no hardware: the host tests parse
 * them), parsed in the one pass of lib/cmdline.c once tests/main.c has added the table; read through
 * harness_options(). */
#pragma once
#include "lib/cmdline.h"

#define OPT_RUN_CPUS_MAX 8192 /* as MAX_CPUS (kernel/percpu.h) */
/* The reset watchdog outlasts the boot CPU's check limit by this much (watchdog_s= is refused otherwise). */
#define WATCHDOG_MARGIN_MS 3000
#define WATCHDOG_AUTO_S 120

struct harness_options {
    char suites[OPT_LIST_MAX];  /* suite=LIST, comma-separated; empty = the default suites */
    char exclude[OPT_LIST_MAX]; /* exclude=LIST */
    u32 verbose;                /* 0: YAML only for failures/skips, 1: for every measured check, 2: debug */
    u32 deviations_strict;      /* deviations=todo|strict: 0, 1 (known platform deviations FAIL) */
    u32 run_serial;             /* run=parallel|serial: per-CPU checks on every CPU at once (0) or in turn (1) */
    u32 fold;                   /* fold=on|off: agreeing threads' verdicts share one line (1, lib/tap_fold.h) */
    u32 monitor;                /* monitor=none|lava: 1 = a result line per check and thread for LAVA's monitors */
    u32 run_cpus;               /* run_cpus=auto|N: at most N CPUs run checks at once (0 = auto) */
    u32 check_timeout_ms;       /* check_timeout_ms=N: a check still running after N is stopped (NMI) */
    u32 watchdog_s;             /* watchdog_s=N: the boot CPU's checks under a hardware watchdog of N s (0: off) */
    u32 watchdog_erst;          /* watchdog_erst=on|off: the reset watchdog may keep its record in an ERST (flash) */
    bool watchdog_auto;         /* watchdog_s=auto (default): armed only where it is safe, for harness_watchdog_s() */
};

extern const struct opt_table harness_option_table;
const struct harness_options *harness_options(void);
/* The watchdog's seconds: watchdog_s=N, or with auto the longer of 120 s and the check limit + the margin. */
u32 harness_watchdog_s(void);
