/* The catch path (see catch.h). */
#include "harness/catch.h"

#include "apic/apic.h"
#include "harness/framework.h"
#include "harness/report.h"
#include "kernel/catch_hook.h"
#include "kernel/percpu.h"
#include "kernel/percpu_array.h"
#include "kernel/smp.h"

PER_CPU_ARRAY(struct check_catch, catches);

struct check_catch *catch_here(void)
{
    return &catches[this_cpu()->index];
}

void catch_enter(struct check_catch *k, struct check *c)
{
    k->check = c;
    this_cpu()->catch_ctx = k;
}

void catch_leave(struct check_catch *k)
{
    k->check = NULL;
    this_cpu()->catch_ctx = NULL;
}

void catch_request_stop(u32 cpu, u32 seq, u32 from)
{
    catches[cpu].abort_from = from;
    __atomic_store_n(&catches[cpu].abort_seq, seq, __ATOMIC_RELEASE);
    apic_send_ipi(smp.cpu[cpu].apic_id, ICR_DM_NMI); /* SDM Vol.3A 11.6.1: NMI, vector ignored */
}

static void on_exception(void *ctx, const struct fault_record *f)
{
    struct check_catch *k = ctx;
    check_exception(k->check, f);
    k_longjmp(k->resume, 1); /* the runner clears trap_depth and re-opens NMIs */
}

/* A stop request is consumed by the first NMI that finds it; it stops the check only when that check is still the
 * one asked for and its own code runs. */
static enum catch_nmi on_nmi(void)
{
    struct cpu *cpu = this_cpu();
    struct check_catch *k = &catches[cpu->index];
    u32 seq = k->abort_seq;
    if (!seq)
        return CATCH_NMI_NOT_A_STOP;
    k->abort_seq = 0;
    return cpu->catch_ctx && seq == k->seq && k->in_body ? CATCH_NMI_STOP : CATCH_NMI_NOTHING_TO_STOP;
}

static void on_time_limit(void *ctx, const struct fault_record *f)
{
    struct check_catch *k = ctx;
    check_time_limit(k->check, f);
    k_longjmp(k->resume, 1);
}

void catch_install(void)
{
    trap_set_catch_hooks(&(struct trap_catch_hooks){
        .exception = on_exception,
        .nmi = on_nmi,
        .time_limit = on_time_limit,
        .stop = catch_request_stop,
        .bail_out = report_bail_out,
    });
}
