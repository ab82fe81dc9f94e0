/* How many CPUs run checks at once (see concurrency.h). */
#include "harness/concurrency.h"

#include <string.h>

#include "kernel/boot_state.h"
#include "harness/portable/harness_options.h"
#include "kernel/percpu.h"

/* Under QEMU TCG every vCPU is a host thread that takes QEMU's global lock for each APIC access and each exit,
 * and the emulated timers run in one more thread: measured on a loaded 2-core host, 16 vCPUs running the apic
 * suite at once took 9.8 s and starved timers into failures, 2 at a time 4.3 s, one at a time 5.5 s; 64 vCPUs on
 * a less loaded one, the default suites: 75 s all at once, 10.3 s 4 at a time (22 timing TODOs), 11.6 s 2 at a
 * time (4 TODOs). Most of that was the vCPUs' own busy-waits: every RDTSC under TCG takes a spinlock all vCPUs
 * share (kernel/x86.h spin_wait_step). Since waits read the TSC sparingly and the timer checks halt through their
 * windows (apic/timer.h), 64 vCPUs, default suites, quiet 2-core host: 4 at a time 5.2 s, 8 at a time 3.6 s (1
 * timing TODO), 12 at a time 3.1 s (2), 16 at a time 3.3 s (2); all at once, the apic suite alone, 5.3 s with 76.
 * docs/running.md. */
#define TCG_RUN_CPUS 8

static bool qemu_tcg(void)
{
    return boot_state()->ident.hypervisor_bit && !strcmp(boot_state()->ident.hv_signature, "TCGTCGTCGTCG");
}

u32 suites_concurrency(void)
{
    if (harness_options()->run_cpus)
        return harness_options()->run_cpus;
    return qemu_tcg() ? TCG_RUN_CPUS : MAX_CPUS;
}
