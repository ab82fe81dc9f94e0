/* Suites and checks. A suite is a named list of checks, global or per-CPU; a check records expectations
 * (expected, observed, tolerance) into a YAML block and gets one TAP verdict. A check that records no
 * expectation and does not skip is a defect and is reported as failed. See docs/writing-checks.md. */
#pragma once
#include "lib/format.h"
#include "kernel/percpu.h"
#include "harness/report.h"
#include "lib/types.h"

struct check;
enum check_scope { SCOPE_GLOBAL, SCOPE_PER_CPU };
#define NO_FAULT (-1)
#define EXPECT_TIME_LIMIT (-2) /* expect_vector of a self-test that never returns: stopped at its time limit */

/* Whether a per-CPU check involves other CPUs. CPUS_LOCAL (the default, 0: leave the field out) touches only the
 * CPU it runs on (its APIC, its MSRs, its PMU, its own slots of shared arrays), so it runs on every CPU at once.
 * CPUS_OTHERS sends IPIs, NMIs or INITs to other CPUs, programs their APICs, calls smp_run_on(), or reads what
 * other CPUs' checks wrote: it runs alone, on each CPU in turn, after the concurrent phase (docs/writing-checks.md).
 * Global checks always run alone. */
enum check_cpus { CPUS_LOCAL, CPUS_OTHERS };

struct check_def {
    const char *name;
    void (*run)(struct check *c);
    enum check_scope scope; /* global checks run once on the boot CPU; per-CPU checks on every CPU */
    int expect_vector;      /* NO_FAULT, or the exception this self-test deliberately raises */
    enum check_cpus cpus;   /* optional: CPUS_LOCAL (default) or CPUS_OTHERS */
    u32 limit_ms;           /* optional: a time limit longer than check_timeout_ms=, for a check that may
                             * legitimately run longer (say why at its row; docs/writing-checks.md) */
    bool uses_pmu;          /* optional: its verdict concerns the PMU (in a suite that does not), so with
                             * pmu=emulated it is marked as the emulated PMU's */
};

/* A suite runs its global checks first, then its per-CPU checks: with run=parallel (the default) the CPU-local
 * ones on every CPU at once, then the CPUS_OTHERS ones on each CPU in turn; with run=serial all of them on each
 * CPU in turn. The stream is the same either way: check by check in table order, the threads that agree on one
 * line (fold=on, lib/tap_fold.h); with fold=off cpu0's verdicts in table order, then cpu1's, ... */
struct suite {
    const char *name;
    const char *about;
    bool in_default;
    const struct check_def *checks;
    u32 count;
    /* Optional, what the runner and the hang guard need to know of a suite (designated, after the checks): */
    bool uses_pmu;       /* every verdict concerns the PMU or its interrupt: with pmu=emulated all are marked */
    bool resets_machine; /* resets the machine on purpose: its checks run without the reset watchdog */
    /* What it leaves for after the last suite's checks, before suite machine and the plan line (suite reset's
     * machine reset): called by suites_after_run, in list order, whether or not the suite was selected. */
    void (*after_run)(void);
};
#define SUITE_CHECKS(arr) (arr), ARRAY_SIZE(arr)


struct check {
    char name[96]; /* cpu<N>/<suite>/<check> or <suite>/<check> */
    const struct check_def *def;
    struct cpu *cpu;
    u32 expectations, failures;
    u32 inconclusive; /* expectations whose evidence decided nothing (check_inconclusive) */
    bool skipped, todo, faulted, no_verdict, timed_out;
    u32 stopped_by; /* timed_out: the CPU whose NMI stopped it (the boot CPU for an AP's; a watching AP for the
                     * boot CPU's) */
    bool hung; /* not run: it hung the boot CPU on an earlier boot of this run (harness/hang_guard.c) */
    bool emulated_pmu; /* pmu=emulated: the verdict came from the emulated PMU, not hardware (TAP line marked) */
    char reason[400]; /* SKIP/TODO reason, printed on the TAP line (the no-PMU evidence runs to ~250) */
    bool has_figure;  /* the first expectation with a unit (expect_within): the check's figure, for monitor=lava */
    s64 figure;
    char figure_unit[16];
    struct fault_record fault;
    const char *key_prefix; /* put before every YAML key (check_key_prefix): a check that runs its body twice */
    struct strbuf diag;
    char diag_buf[8192]; /* YAML lines, unindented (amd-v2 events/exact_gp with its catalog notes whole: 4.5 KB) */
};

/* Expectations: each adds a YAML line `what: {expected: .., observed: .., tolerance: ..}` and counts a
 * failure when it does not hold. They return whether it held, so a check can stop early. */
bool expect_eq(struct check *c, const char *what, u64 expected, u64 observed);      /* hex */
bool expect_eq_dec(struct check *c, const char *what, u64 expected, u64 observed);  /* decimal */
bool expect_within(struct check *c, const char *what, s64 expected, s64 observed, u64 tolerance,
                   const char *unit);
bool expect_true(struct check *c, const char *what, bool ok, const char *expected, const char *observed_fmt, ...)
    PRINTF_LIKE(5, 6);
/* A check whose body runs more than once (e.g. in each PMI delivery mode) names each pass: every YAML key written from
 * here on starts with prefix ("fixed: "), until NULL. The string must outlive its use. */
void check_key_prefix(struct check *c, const char *prefix);
/* Extra evidence (not an expectation): `key: value` in the YAML block. */
void check_note(struct check *c, const char *key, const char *fmt, ...) PRINTF_LIKE(3, 4);
/* The check cannot run here; reason carries the evidence (e.g. "CPUID.0AH.EAX=0"). */
void check_skip(struct check *c, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* A known deviation of this platform: reported as TODO (an expected failure), never hidden. */
void check_todo(struct check *c, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* A known deviation of the platform (an emulator's or a hypervisor's, with its source): TODO as check_todo, or
 * with deviations=strict a FAIL, the deviation named in the YAML, for those who test their own hypervisor. Use
 * check_todo only for self-tests and for what is not a platform's fault. */
void check_deviation(struct check *c, const char *fmt, ...) PRINTF_LIKE(2, 3);
extern bool check_deviations_strict; /* deviations=strict */
void check_fail(struct check *c, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* An expectation whose evidence decided nothing (timing attempts that contradict each other, too few valid
 * windows): never a pass. The check is TODO with this reason (the first one given) unless an expectation of it
 * failed, which keeps it a FAIL: an inconclusive expectation hides no failure before or after it. */
void check_inconclusive(struct check *c, const char *what, const char *fmt, ...) PRINTF_LIKE(3, 4);

enum report_verdict check_verdict(const struct check *c);

/* The catch path (harness/catch.c): an exception inside a check. */
void check_exception(struct check *c, const struct fault_record *f);
/* The catch path: the NMI that stops a check past its time limit (f: where it was). */
void check_time_limit(struct check *c, const struct fault_record *f);
/* Whether the running check is alone: no other CPU runs a check now (a global or CPUS_OTHERS check, or
 * run=serial). A CPU-local check that is not alone must not use shared devices (the PIT) or shared tables. */
bool check_alone(void);

/* Per-CPU log of the exceptions charged to checks (newest last), for the harness self-test. */
#define CHECK_FAULT_LOG 8
struct check_fault_log {
    u32 count;
    struct fault_record entries[CHECK_FAULT_LOG];
};
extern struct check_fault_log *check_fault_logs; /* per-CPU array (kernel/percpu_array.h) */

/* The runner, over the suite list the top layer gives it (tests/suites.c) before the command line is checked. */
void suites_register(const struct suite *const *list, u32 count);
u32 suites_count(void);
const struct suite *suites_at(u32 index); /* NULL past the end */
bool suites_validate(const char *suites, const char *exclude, char *err, size_t err_size);
void suites_run(const char *suites, const char *exclude);
void suites_run_one(const struct suite *s); /* regardless of selection */
void suites_list(void); /* as TAP comments */
/* Each registered suite's after_run hook, in list order. Returns when there is nothing (more) to do. */
void suites_after_run(void);
