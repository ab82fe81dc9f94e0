/* Suite "timeout" (not in the default set): the runner's per-check time limit tests itself. On every AP a check
 * that never returns, with interrupts disabled, must be stopped by the runner's NMI after check_timeout_ms,
 * reported against that CPU and check (an expected failure, TODO), and the run must go on. On the boot CPU the
 * check skips unless timeout_hang= asks it to hang too: bsp, stopped by an idle AP's NMI (kernel/bsp_watch.h) and
 * reported as a real hang is, a FAIL naming the CPU that stopped it, with no reset; bsp-nmi-blocked, a hang the
 * NMI cannot end (inside an NMI handler that never returns), which only the reset watchdog ends (the next boot
 * reports it, harness/hang_guard.h); bsp-bail-out, the run ended inside the check by a bail-out, which must still put
 * back every change, the hang record included (kernel/ledger.h, kernel_exit). Run it with a short limit, e.g. suite=timeout check_timeout_ms=500. */
#include "apic/apic.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/traps.h"
#include "kernel/x86.h"
#include "harness/catch.h"
#include "harness/framework.h"
#include "tests/timeout/portable/timeout_options.h"

/* The NMI handler that never returns: from here until a reset, NMIs stay blocked (SDM Vol.3A 6.7.1: the processor
 * blocks further NMIs until the next IRET), so the watcher's NMI stays pending and is never taken. */
static void nmi_never_returns(struct trap_frame *f)
{
    (void)f;
    for (;;)
        asm volatile("" ::: "memory");
}

static void never_returns(struct check *c)
{
    if (this_cpu()->index == 0) {
        if (timeout_options()->timeout_hang == TIMEOUT_HANG_NONE)
            return check_skip(c, "the boot CPU's hang is tested with timeout_hang=bsp (an idle AP's NMI stops it) or "
                                 "bsp-nmi-blocked (the reset watchdog ends it)");
        if (timeout_options()->timeout_hang == TIMEOUT_HANG_BSP_BAIL_OUT)
            panic("timeout_hang=bsp-bail-out: a bail-out inside cpu0/timeout/time_limit, with the watchdog armed and "
                  "its record saying so");
        if (timeout_options()->timeout_hang == TIMEOUT_HANG_BSP_NMI_BLOCKED) {
            irq_register_local(2, nmi_never_returns); /* dropped by the runner after the check, if it ever ends */
            apic_send_ipi(apic_id(), ICR_DM_NMI); /* physical destination = self; "self" shorthand is fixed-only */
        }
    }
    cli();
    for (;;)
        asm volatile("" ::: "memory"); /* only an NMI ends this */
}

/* The CPU whose check was stopped goes on with the next one, with the trap state of the abandoned NMI cleared. */
static void after_check(struct check *c)
{
    expect_eq_dec(c, "trap nesting (the NMI that stopped time_limit unwound)", 0, this_cpu()->trap_depth);
    expect_eq_dec(c, "stop requests pending", 0, catch_here()->abort_seq);
}

static const struct check_def timeout_checks[] = {
    {"time_limit", never_returns, SCOPE_PER_CPU, EXPECT_TIME_LIMIT},
    {"after", after_check, SCOPE_PER_CPU, NO_FAULT},
};

const struct suite suite_timeout = {"timeout", "the per-check time limit stops a hung check (self-test)", false,
                                    SUITE_CHECKS(timeout_checks)};
