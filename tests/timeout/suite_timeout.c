/* Suite "timeout" (not in the default set): the runner's per-check time limit tests itself. On every AP a check
 * that never returns, with interrupts disabled, must be stopped by the runner's NMI after check_timeout_ms,
 * reported against that CPU and check (an expected failure, TODO), and the run must go on. The boot CPU runs the
 * supervisor, so its own checks have no time limit: there the check skips. Run it with a short limit, e.g.
 * suite=timeout check_timeout_ms=500. */
#include "kernel/globals.h"
#include "kernel/percpu.h"
#include "kernel/x86.h"
#include "harness/framework.h"

static void never_returns(struct check *c)
{
    /* timeout_hang=bsp: the boot CPU hangs too, which only the hardware watchdog ends (harness/hang_guard.h): the
     * next boot reports this check failed on it and skips it. */
    if (this_cpu()->index == 0 && !g_options.timeout_hang)
        return check_skip(c, "the boot CPU supervises the others: a hang in its own checks ends the run (a watchdog "
                             "reset with timeout_hang=bsp)");
    cli();
    for (;;)
        asm volatile("" ::: "memory"); /* only an NMI ends this */
}

/* The CPU whose check was stopped goes on with the next one, with the trap state of the abandoned NMI cleared. */
static void after_check(struct check *c)
{
    expect_eq_dec(c, "trap nesting (the NMI that stopped time_limit unwound)", 0, this_cpu()->trap_depth);
    expect_eq_dec(c, "stop requests pending", 0, this_cpu()->abort_seq);
}

static const struct check_def timeout_checks[] = {
    {"time_limit", never_returns, SCOPE_PER_CPU, EXPECT_TIME_LIMIT},
    {"after", after_check, SCOPE_PER_CPU, NO_FAULT},
};

const struct suite suite_timeout = {"timeout", "the per-check time limit stops a hung check (self-test)", false,
                                    SUITE_CHECKS(timeout_checks)};
