/* The uncore PMI protocol on one scope (uncore_protocol.h). */
#include "tests/uncore/uncore_protocol.h"

#include <string.h>

#include "apic/apic.h"
#include "kernel/percpu.h"
#include "kernel/percpu_array.h"
#include "kernel/safe.h"
#include "kernel/smp.h"
#include "kernel/timing.h"
#include "kernel/traps.h"
#include "kernel/x86.h"
#include "pmu/kernel/hw_access_kernel.h"
#include "pmu/kernel/pmi_kernel.h"

#define FROZEN_WAIT_US UNCORE_PROTO_FROZEN_WAIT_US
#define BELOW_OVERFLOW 64  /* clocks below the wrap the armed counters start at: they wrap at the next access */
#define WAIT_PMI_US 20000  /* how long the leader waits for the release */
#define GRACE_US 5000      /* and then for PMIs that should not come */

struct rx {
    volatile u32 pmis;
    volatile u64 first_tsc;
    volatile u32 wrong_mode; /* taken in the other delivery mode than the LVT entry's */
    u32 lvt_found;
    irq_handler_t prev, prev_nmi;
    bool debugctl_set;   /* this CPU set the uncore PMI enable of IA32_DEBUGCTL, found clear */
    u64 debugctl_found;
};
PER_CPU_ARRAY(struct rx, rx);

struct cpu_access {
    bool ready;
    struct hw_access a;
};
PER_CPU_ARRAY(struct cpu_access, cpu_access);

struct hw_access *uncore_access(void)
{
    struct cpu_access *me = &cpu_access[this_cpu()->index];
    if (!me->ready) {
        hw_access_kernel_init(&me->a);
        me->ready = true;
    }
    return &me->a;
}

static const struct uncore_kind_desc *run_kind;
static struct uncore_counter_ref armed[2];
static u32 narmed_now;
static u64 armed_bits_now, ctrl_run;
static volatile u8 release_claimed;
static struct uncore_proto_result *cur;
static bool nmi_mode; /* the LVT entries deliver NMIs, not the PMI vector */
static u64 debugctl_bit;       /* the kind's IA32_DEBUGCTL uncore PMI enable, set on the routed CPUs; 0: none */
static const bool *debugctl_on; /* by CPU index: the CPUs whose core is routed to */

#define MSR_IA32_DEBUGCTL 0x1D9

static void read_armed(u64 *v)
{
    for (u32 i = 0; i < narmed_now; i++)
        rdmsr_safe(armed[i].ctr, &v[i]);
}

/* The handler's part of the protocol, run by the first CPU to take the PMI: the SDM's Nehalem uncore asks software to
 * clear the status through GLOBAL_OVF_CTRL and set the enables again before it returns. */
static void release(void)
{
    const struct uncore_kind_desc *k = run_kind;
    struct uncore_proto_result *r = cur;
    rdmsr_safe(k->global.ctrl, &r->ctrl_at_pmi);
    if (k->global.status)
        rdmsr_safe(k->global.status, &r->status_at_pmi);
    read_armed(r->at_pmi);
    udelay(FROZEN_WAIT_US);
    read_armed(r->later);
    u32 msr;
    u64 value;
    if (uncore_status_clear_write(k, armed_bits_now, r->status_at_pmi, &msr, &value))
        wrmsr_safe(msr, value);
    if (k->global.status)
        rdmsr_safe(k->global.status, &r->status_after_clear);
    wrmsr_safe(k->global.ctrl, ctrl_run);
    udelay(FROZEN_WAIT_US);
    read_armed(r->released);
    wrmsr_safe(k->global.ctrl, 0);
    r->handled = true;
}

/* The PMI, on the PMI vector or as an NMI (one handler: the LVT entry's mode decides which comes). */
static void on_pmi(struct trap_frame *f)
{
    u64 t = rdtsc();
    struct rx *me = &rx[this_cpu()->index];
    if ((f->vector == 2) != nmi_mode) {
        me->wrong_mode++;
        if (f->vector != 2)
            apic_eoi();
        return;
    }
    if (!me->pmis)
        me->first_tsc = t;
    me->pmis++;
    if (cur && !__atomic_test_and_set(&release_claimed, __ATOMIC_ACQ_REL))
        release();
    apic_write(APIC_LVT_PMC, pmi_lvt_value(nmi_mode)); /* unmasked again: the APIC set the mask at delivery */
    if (f->vector != 2)
        apic_eoi(); /* an NMI takes none (SDM Vol.3A 11.8.5) */
}

static void arm_one(void *arg)
{
    (void)arg;
    struct rx *me = &rx[this_cpu()->index];
    me->pmis = 0;
    me->wrong_mode = 0;
    me->first_tsc = 0;
    me->lvt_found = apic_read(APIC_LVT_PMC);
    me->prev = irq_register_local(VECTOR_PMI, on_pmi);
    me->prev_nmi = irq_register_local(2, on_pmi);
    apic_write(APIC_LVT_PMC, pmi_lvt_value(nmi_mode));
    /* SDM Vol.3B, the Nehalem uncore's PMI: a core takes it only with IA32_DEBUGCTL's uncore PMI enable (bit 13) set.
     * Set on the cores routed to alone, and only when found clear; put back in disarm_one. A read or write that
     * faults leaves it as found (the PMI then does not come: the routing check says so). */
    me->debugctl_set = false;
    u32 i = this_cpu()->index;
    u64 v;
    if (debugctl_bit && debugctl_on && i < UNCORE_PROTO_MAX_CPUS && debugctl_on[i] &&
        !rdmsr_safe(MSR_IA32_DEBUGCTL, &v) && !(v & debugctl_bit) && !wrmsr_safe(MSR_IA32_DEBUGCTL, v | debugctl_bit)) {
        me->debugctl_found = v;
        me->debugctl_set = true;
    }
}

/* The IA32_DEBUGCTL bit this CPU set, cleared: only that bit, the rest as it is now. True when there was one. */
static bool put_back_debugctl(struct rx *me)
{
    if (!me->debugctl_set)
        return false;
    u64 v = me->debugctl_found;
    if (!rdmsr_safe(MSR_IA32_DEBUGCTL, &v))
        v &= ~debugctl_bit;
    wrmsr_safe(MSR_IA32_DEBUGCTL, v);
    me->debugctl_set = false;
    return true;
}

static volatile u32 debugctl_put_back;

static void put_back_debugctl_one(void *arg)
{
    (void)arg;
    if (put_back_debugctl(&rx[this_cpu()->index]))
        __atomic_add_fetch(&debugctl_put_back, 1, __ATOMIC_RELAXED);
}

u32 uncore_proto_put_back_debugctl(void)
{
    if (!debugctl_bit)
        return 0;
    debugctl_put_back = 0;
    smp_run_on_each(put_back_debugctl_one, NULL);
    return debugctl_put_back;
}

static void disarm_one(void *arg)
{
    (void)arg;
    struct rx *me = &rx[this_cpu()->index];
    apic_write(APIC_LVT_PMC, me->lvt_found);
    put_back_debugctl(me);
    irq_register_local(VECTOR_PMI, me->prev);
    irq_register_local(2, me->prev_nmi);
}

/* Wait with interrupts open: the waiting CPU may be one the PMI is routed to. */
static void wait_open(u64 us, volatile bool *until)
{
    u64 f = read_flags();
    sti();
    u64 deadline = rdtsc() + us_to_tsc(us);
    while ((!until || !*until) && rdtsc() < deadline)
        cpu_relax();
    if (!(f & RFLAGS_IF))
        cli();
}

void uncore_proto_arm_cpus(bool nmi, u64 debugctl, const bool *routed_cpus)
{
    nmi_mode = nmi;
    debugctl_bit = debugctl;
    debugctl_on = routed_cpus;
    smp_run_on_each(arm_one, NULL);
}

void uncore_proto_disarm_cpus(struct uncore_proto_result *res)
{
    wait_open(GRACE_US, NULL); /* the boot CPU takes what is still on its way */
    smp_run_on_each(disarm_one, NULL);
    u32 n = smp.count ? smp.count : 1;
    for (u32 i = 0; i < n && i < UNCORE_PROTO_MAX_CPUS; i++) {
        res->cpu_pmis[i] = rx[i].pmis;
        res->cpu_first_tsc[i] = rx[i].first_tsc;
        res->wrong_mode += rx[i].wrong_mode;
    }
}

/* The counters to arm: the fixed clock when it can raise the PMI, then general counter 0 (counter 1 when the first
 * was general counter 0), event 0xFF, the uncore clock. */
static u32 choose(const struct uncore_regs *regs, u32 want)
{
    u32 n = 0;
    for (u32 i = 0; i < regs->ncounters && n < want; i++)
        if (!regs->c[i].box && run_kind->fixed.ctl_pmi)
            armed[n++] = regs->c[i];
    for (u32 i = 0; i < regs->ncounters && n < want; i++)
        if (regs->c[i].box && regs->c[i].box->sel_pmi)
            armed[n++] = regs->c[i];
    return n;
}

void uncore_proto_run(const struct uncore_kind_desc *k, struct uncore_regs *regs, u32 selected, u32 ncounters,
                      struct uncore_proto_result *res)
{
    const struct uncore_global_desc *g = &k->global;
    run_kind = k;
    narmed_now = choose(regs, ncounters);
    res->narmed = narmed_now;
    if (narmed_now < ncounters) {
        res->why_not = "the kind has fewer counters that raise the PMI than the check arms";
        return;
    }
    uncore_regs_save(regs);
    wrmsr_safe(g->ctrl, 0);
    armed_bits_now = 0;
    u64 enables = 0;
    for (u32 i = 0; i < narmed_now; i++) {
        const struct uncore_counter_ref *c = &armed[i];
        res->width[i] = c->width;
        wrmsr_safe(c->ctr, uncore_width_mask(c->width) - BELOW_OVERFLOW);
        if (c->box) {
            wrmsr_safe(c->ctl, c->box->sel_enable | c->box->sel_pmi | 0xff); /* event 0xFF: the uncore clock */
            armed_bits_now |= uncore_box_status_bit(c->box, c->index);
            enables |= c->box->global_enable_per_counter ? uncore_box_status_bit(c->box, c->index) : g->ctrl_enable;
        } else {
            wrmsr_safe(c->ctl, k->fixed.ctl_enable | k->fixed.ctl_pmi);
            armed_bits_now |= k->fixed.status_bit;
            enables |= k->fixed.enable_bit ? k->fixed.enable_bit : g->ctrl_enable;
        }
    }
    res->armed_bits = armed_bits_now;
    ctrl_run = enables | uncore_route_bits(k, selected) | g->ctrl_freeze;
    res->ctrl_before = ctrl_run;
    release_claimed = 0;
    res->handled = false;
    cur = res;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    wrmsr_safe(g->ctrl, ctrl_run); /* they start together */
    res->overflow_tsc = rdtsc();
    u64 v;
    rdmsr_safe(g->ctrl, &v); /* the clocks since the write pass: they wrap */
    res->armed = true;
    wait_open(WAIT_PMI_US, &res->handled);
    /* No PMI reached a core of this scope (routed elsewhere, or lost): the leader takes the handler's part, so that
     * freeze and status are still judged on their own; the routing check fails on the PMIs. */
    if (!res->handled && !__atomic_test_and_set(&release_claimed, __ATOMIC_ACQ_REL)) {
        res->released_by_leader = true;
        release();
    }
    wait_open(GRACE_US, NULL);
    cur = NULL;
    uncore_regs_restore(regs);
}
