/* The emulated PMU's kernel side (see pmu_emul.h). Model operations run with interrupts off, so a PMI never
 * re-enters the model; PMIs the model accepts during an operation are sent after it (flush), which is the
 * point where hardware would take them: right after the instruction that overflowed. */
#include "emul/kernel/pmu_emul.h"

#include <string.h>

#include "apic/apic.h"
#include "kernel/cpuid_hw.h"
#include "kernel/percpu.h"
#include "emul/kernel/pmu_emul_persist.h"
#include "kernel/console.h"
#include "kernel/singlestep.h"
#include "kernel/smp.h"
#include "kernel/safe.h"
#include "kernel/traps.h"
#include "kernel/x86.h"
#include "pmu/events.h"
#include "pmu/kernel/pmi_kernel.h"
#include "pmu/kernel/pmu_cpu.h"
#include "emul/model/pmu_model.h"
#include "pmu/event_catalog.h"
#include "pmu/lbr.h"
#include "pmu/pebs.h"
#include "kernel/percpu_array.h"
#include "emul/options.h"
#include "emul/kernel/uncore_emul.h"

bool g_pmu_emulated;
const struct pmu_emul_kind *g_pmu_emul_kind;

struct emul_cpu {
    struct pmu_model m;
    struct hw_access hw;
    u32 core; /* hybrid kinds: this CPU's kind of core (pmu_emul_core_of) */
    struct pmu_emul_cpuid cpuid_ctx;
    struct cpuid_source cpuid;
    /* The kind's emulated events resolved to encodings (emul/emul_events.c, pmu/events.c). */
    struct {
        u16 event;
        u8 umask;
        u32 classes, evc;
    } ev[32];
    u32 nev;
    u64 last_tsc;
    u32 owed;       /* PMIs accepted by the model during the current operation */
    u32 hold;       /* retirements left before owed PMIs are sent (pmu_skid=) */
    bool retiring;  /* inside pmu_emul_retired: a PMI accepted now waits out the skid */
    bool dup_owed;  /* PMU_FAULT_DUPLICATE_PMI: the second copy of the last PMI */
    u32 dup_lvt;
    u64 uses;
    bool restored; /* counters-survive-reset: registers came back from the last boot */
    struct pmu_emul_stats st;
};
PER_CPU_ARRAY(struct emul_cpu, emul);

static struct emul_cpu *me(void)
{
    return &emul[this_cpu()->index];
}

/* An RDPMC's #UD is answered by the model, or becomes the #GP it raised; under the single-step oracle, the #DB
 * the emulated RDPMC would have raised with TF set follows. */
static bool rdpmc_ud_claim(struct trap_frame *f)
{
    if (!pmu_emul_ud(f))
        return false;
    singlestep_after_emulation(f);
    return true;
}

static const struct cpuid_source *cpu_init_standin(void)
{
    pmu_emul_cpu_init();
    return pmu_emul_cpuid();
}

void pmu_emul_boot(void)
{
    g_pmu_emul_kind = emul_options()->pmu_emulated[0] ? pmu_emul_kind_find(emul_options()->pmu_emulated) : NULL;
    /* pmu_part=: the kind as that part presents it (the options checked that it fits). */
    static struct pmu_emul_kind as_part, with_lbr, with_pebs;
    const char *why = NULL;
    if (g_pmu_emul_kind && emul_options()->pmu_part[0] &&
        pmu_emul_kind_as_part(g_pmu_emul_kind, event_catalog_part_named(emul_options()->pmu_part), &as_part, &why))
        g_pmu_emul_kind = &as_part;
    /* pmu_lbr=: the kind (as that part) with another LBR (the options checked that it fits). */
    if (g_pmu_emul_kind && emul_options()->pmu_lbr[0] &&
        pmu_emul_kind_with_lbr(g_pmu_emul_kind, emul_options()->pmu_lbr, &with_lbr, &why))
        g_pmu_emul_kind = &with_lbr;
    if (g_pmu_emul_kind && emul_options()->pmu_pebs[0] &&
        pmu_emul_kind_with_pebs(g_pmu_emul_kind, emul_options()->pmu_pebs, &with_pebs, &why))
        g_pmu_emul_kind = &with_pebs;
    g_pmu_emulated = g_pmu_emul_kind != NULL;
    if (g_pmu_emulated) {
        static const struct msr_hook msrs = {pmu_emul_msr_routed, pmu_emul_rdmsr, pmu_emul_wrmsr};
        msr_set_hook(&msrs);
        trap_add_claim(6, rdpmc_ud_claim);
        static const struct pmu_cpu_standin pmu = {cpu_init_standin, pmu_emul_mark_use};
        pmu_cpu_set_standin(&pmu);
        smp_set_init_signal_hook(pmu_emul_init_signal);
    }
    if (g_pmu_emulated)
        uncore_emul_boot(); /* uncore=emulated:FACE: its registers go before the core PMU's on the same route */
    if (g_pmu_emulated && (emul_options()->pmu_faults & PMU_FAULT_COUNTERS_SURVIVE_RESET))
        pmu_emul_persist_boot();
}

/* The model accepted a PMI (a 0->1 edge of its line): sent at the end of the operation. */
static void model_deliver(void *ctx)
{
    struct emul_cpu *e = ctx;
    e->owed++;
    if (e->retiring && !e->hold)
        e->hold = pmu_emul_skid();
}

u32 pmu_emul_skid(void)
{
    return emul_options()->pmu_skid + (emul_options()->pmu_faults & PMU_FAULT_SKID_BEYOND_BOUND ? PMU_EMUL_SKID_EXCESS : 0);
}

u32 pmu_emul_skid_bound(void)
{
    return g_pmu_emulated ? emul_options()->pmu_skid + 1 : 0;
}

/* One emulated event: an encoding counted once, however many entries name it (a catalog event that is the
 * architectural one, two catalog aliases). */
static void add_event(struct emul_cpu *e, const struct pmu_event *pe, u32 classes, u32 evc)
{
    for (u32 i = 0; i < e->nev; i++)
        if (e->ev[i].event == pe->event && e->ev[i].umask == pe->umask)
            return;
    if (e->nev < ARRAY_SIZE(e->ev))
        e->ev[e->nev++] = (typeof(e->ev[0])){pe->event, pe->umask, classes, evc};
}

/* Resolve the kind's emulated events to (event, umask) once per CPU: its own table, then every event of its part's
 * catalog file, each counting its class. */
static void resolve_events(struct emul_cpu *e, const struct pmu_caps *caps)
{
    for (const struct pmu_emul_event *x = pmu_emul_events(g_pmu_emul_kind); x->name; x++) {
        const struct pmu_event *pe = pmu_event_find(caps, x->name);
        if (pe)
            add_event(e, pe, x->classes, 0);
    }
    /* The events the PEBS checks sample on this part (pmu/pebs.c pebs_event_for: INST_RETIRED.PREC_DIST,
     * BR_INST_RETIRED.ALL_BRANCHES_PEBS where the part lists those), counting instructions and branches. */
    struct pebs_caps pc;
    pmu_emul_pebs(g_pmu_emul_kind, e->core, &pc);
    for (int g = PMU_EV_INSTRUCTIONS; pc.present && g <= PMU_EV_BRANCHES; g++) {
        struct pebs_event pe;
        const char *why = NULL;
        if (pebs_event_for(caps, &pc, g, &pe, &why))
            add_event(e, &(struct pmu_event){pe.name, pe.event, pe.umask, 0, 0, 0, pe.source},
                      1u << (g == PMU_EV_INSTRUCTIONS ? PMU_EMUL_INSNS : PMU_EMUL_BRANCHES), 0);
    }
    const struct catalog_part *part = event_catalog_for(caps);
    /* pmu_fault=catalog-all-branches: a wrong row in the event table, every catalog event counting branches. */
    bool wrong = emul_options()->pmu_faults & PMU_FAULT_CATALOG_ALL_BRANCHES;
    for (u32 i = part ? part->first : 0; part && i < part->first + part->count; i++)
        if (catalog_events[i].gp_mask)
            add_event(e, &catalog_events[i].ev, 0, BIT(wrong ? EVC_BRANCHES : catalog_events[i].cls));
}

/* The PEBS assist's memory: the identity map below 4 GiB, as the kernel maps it (docs/architecture.md "Boot"), where
 * IA32_DS_AREA and the buffer it describes are; anything above is refused (no record), never a fault in the model. */
static bool identity_ok(u64 addr, u32 len)
{
    return addr && addr < (1ull << 32) && len <= (1ull << 32) - addr;
}

static bool identity_read(void *ctx, u64 addr, void *buf, u32 len)
{
    (void)ctx;
    if (!identity_ok(addr, len))
        return false;
    memcpy(buf, (const void *)addr, len);
    return true;
}

static bool identity_write(void *ctx, u64 addr, const void *buf, u32 len)
{
    (void)ctx;
    if (!identity_ok(addr, len))
        return false;
    memcpy((void *)addr, buf, len);
    return true;
}

void pmu_emul_cpu_init(void)
{
    struct emul_cpu *e = me();
    struct pmu_caps caps;
    memset(e, 0, sizeof(*e));
    /* A hybrid kind: this CPU's kind of core by its index among the CPUs known (smp.count, fixed before any AP
     * starts, the same at every boot), so its model and CPUID are that core's. */
    e->core = pmu_emul_core_of(g_pmu_emul_kind, this_cpu()->index, smp.count ? smp.count : 1);
    pmu_emul_caps(g_pmu_emul_kind, e->core, &caps);
    /* One-bit line, strict edge: an overflow while the LVT is masked is lost, as KNC PMU 1.4.3.9 describes;
     * the real LVT decides (model_deliver, send()). */
    pmu_model_init(&e->m, &caps, MODEL_APIC_STRICT_EDGE);
    pmu_model_set_faults(&e->m, emul_options()->pmu_faults);
    struct lbr_caps lbr;
    pmu_emul_lbr(g_pmu_emul_kind, e->core, &lbr);
    pmu_model_set_lbr(&e->m, &lbr);
    struct pebs_caps pebs;
    pmu_emul_pebs(g_pmu_emul_kind, e->core, &pebs);
    static const struct pebs_model_mem mem = {identity_read, identity_write, NULL};
    pmu_model_set_pebs(&e->m, &pebs, &mem);
    pmu_model_reset(&e->m); /* power-up, with the faults already in place (global-ctrl-reset-zero) */
    if (emul_options()->pmu_faults & PMU_FAULT_COUNTERS_SURVIVE_RESET)
        e->restored = pmu_emul_persist_restore(this_cpu()->index, &e->m, g_pmu_emul_kind->name);
    /* Then the firmware, which runs between the reset and this kernel. */
    if (emul_options()->pmu_faults & PMU_FAULT_FIRMWARE_LEFT_ENABLED)
        pmu_model_firmware_left_enabled(&e->m);
    e->m.apic.deliver = model_deliver;
    e->m.apic.deliver_ctx = e;
    pmu_model_access(&e->m, &e->hw);
    e->cpuid_ctx = (struct pmu_emul_cpuid){g_pmu_emul_kind, &cpuid_hw, emul_options()->pmu_emulated_kvm != 0, e->core};
    e->cpuid = (struct cpuid_source){pmu_emul_cpuid_query, &e->cpuid_ctx};
    resolve_events(e, &caps);
    e->last_tsc = rdtsc();
}

const struct cpuid_source *pmu_emul_cpuid(void)
{
    struct emul_cpu *e = me();
    return e->cpuid.query ? &e->cpuid : &cpuid_hw; /* the real one on a CPU whose model was never built */
}

void pmu_emul_report_cores(void)
{
    const struct pmu_emul_kind *k = g_pmu_emul_kind;
    if (!g_pmu_emulated || !k->num_cores)
        return;
    char buf[400];
    struct strbuf sb;
    sb_init(&sb, buf, sizeof(buf));
    u32 n = smp.count ? smp.count : 1;
    for (u32 first = 0, last; first < n; first = last + 1) {
        u32 core = pmu_emul_core_of(k, first, n);
        for (last = first; last + 1 < n && pmu_emul_core_of(k, last + 1, n) == core;)
            last++;
        const struct pmu_emul_core *c = pmu_emul_core_at(k, core);
        struct pmu_caps caps;
        pmu_emul_caps(k, core, &caps);
        sb_printf(&sb, "%scpu%u", sb.len ? "; " : "", first);
        if (last > first)
            sb_printf(&sb, "-%u", last);
        sb_printf(&sb, " %s CPUID.1AH:EAX=0x%08x %u GP + fixed mask 0x%llx", c->name, c->leaf_1a, caps.num_gp,
                  (unsigned long long)caps.fixed_mask);
    }
    console_comment("pmu: emulated hybrid part (%s), kind of core by CPU index (docs/emulated-pmu.md): %s", k->name,
                    buf);
}

bool pmu_emul_msr_routed(u32 msr)
{
    return uncore_emul_msr_routed(msr) || pmu_emul_msr_is_pmu(g_pmu_emul_kind, msr);
}

/* Core and reference cycles since the last event, from the TSC (one rate for both, docs/model.md), and
 * topdown slots at PMU_EMUL_SLOTS_PER_CYCLE per cycle, at the CPL of the code being measured. */
static void feed_cycles(struct emul_cpu *e)
{
    u64 now = rdtsc(), n = now - e->last_tsc;
    e->last_tsc = now;
    if (!n)
        return;
    for (u32 i = 0; i < e->nev; i++) {
        if (e->ev[i].classes & (1u << PMU_EMUL_CYCLES))
            pmu_model_count(&e->m, e->ev[i].event, e->ev[i].umask, n);
        if (e->ev[i].classes & (1u << PMU_EMUL_SLOTS))
            pmu_model_count(&e->m, e->ev[i].event, e->ev[i].umask, n * PMU_EMUL_SLOTS_PER_CYCLE);
    }
}

static bool vector_pending(u8 v)
{
    u32 bit = 1u << (v % 32), off = (v / 32) * 0x10;
    return (apic_read(APIC_IRR0 + off) & bit) || (apic_read(APIC_ISR0 + off) & bit);
}

/* Send one PMI as the real LVT performance-counter entry says: masked -> lost (strict edge); Intel and KNC set
 * the mask at delivery ("the local APIC ... automatically sets the mask flag", SDM Vol.3B 21.x / Vol.3A LVT,
 * quoted by KNC PMU 1.4.3.9), AMD does not (Linux "KVM: x86/pmu: Do not mask LVTPC when handling a PMI on AMD
 * platforms"). */
static void send(struct emul_cpu *e, u32 lvt, bool duplicate)
{
    if (!duplicate) {
        if (lvt & LVT_MASKED) {
            e->st.dropped_masked++;
            e->m.apic.st.edges_masked++;
            return;
        }
        if (e->m.apic.mask_on_delivery)
            apic_write(APIC_LVT_PMC, lvt | LVT_MASKED);
    }
    switch (lvt & 0x700) {
    case LVT_DM_NMI:
        if (e->m.faults & PMU_FAULT_NMI_AS_FIXED) {
            /* The delivery mode ignored: a fixed interrupt on the vector the kernel's fixed-mode PMIs use (the
             * NMI entry's own vector field is 0, which no fixed interrupt may carry: SDM Vol.3A 11.5.2). */
            apic_self_ipi(VECTOR_PMI);
            break;
        }
        apic_send_ipi(apic_id(), ICR_DM_NMI); /* "self" shorthand is fixed-only */
        break;
    case LVT_DM_FIXED:
        apic_self_ipi((u8)(lvt & 0xff));
        break;
    default:
        e->st.other_mode++;
        return;
    }
    e->st.pmis_sent++;
    e->m.apic.st.delivered++;
    if (duplicate) {
        e->st.duplicates++;
    } else if (e->m.apic.duplicate) {
        e->dup_owed = true;
        e->dup_lvt = lvt;
    }
}

/* PMIs owed go now, unless they wait out the skid (force: the workload ended, nothing more retires). */
static void flush(struct emul_cpu *e, bool force)
{
    if (force)
        e->hold = 0;
    if (e->hold)
        return;
    /* The duplicate goes once the first copy has left IRR and ISR, so the two are not merged. */
    if (e->dup_owed && ((e->dup_lvt & 0x700) == LVT_DM_NMI || !vector_pending((u8)(e->dup_lvt & 0xff)))) {
        e->dup_owed = false;
        send(e, e->dup_lvt, true);
    }
    while (e->owed) {
        e->owed--;
        send(e, apic_read(APIC_LVT_PMC), false);
    }
}

void pmu_emul_flush(void)
{
    if (!g_pmu_emulated)
        return;
    u64 f = irq_save();
    flush(me(), true);
    irq_restore(f);
}

static u8 current_cpl(void)
{
    return read_cs() & 3;
}

/* One routed MSR access: at the CPL of the caller, after the cycles since the last one, PMIs sent after. */
static int msr_access(u32 msr, u64 *val, bool write)
{
    u64 f = irq_save();
    struct emul_cpu *e = me();
    e->uses++;
    e->st.msr_routed++;
    e->m.cpl = current_cpl();
    feed_cycles(e);
    int r = write ? hw_wrmsr(&e->hw, msr, *val) : hw_rdmsr(&e->hw, msr, val);
    if (write && (e->m.faults & PMU_FAULT_COUNTERS_SURVIVE_RESET))
        pmu_emul_persist_save(this_cpu()->index, &e->m, g_pmu_emul_kind->name);
    flush(e, false);
    irq_restore(f);
    return r;
}

int pmu_emul_rdmsr(u32 msr, u64 *val)
{
    if (uncore_emul_msr_routed(msr)) {
        pmu_emul_mark_use(); /* the running check's verdict is the emulated uncore's */
        return uncore_emul_rdmsr(msr, val);
    }
    return msr_access(msr, val, false);
}

int pmu_emul_wrmsr(u32 msr, u64 val)
{
    if (uncore_emul_msr_routed(msr)) {
        pmu_emul_mark_use();
        return uncore_emul_wrmsr(msr, val);
    }
    return msr_access(msr, &val, true);
}

bool pmu_emul_ud(struct trap_frame *f)
{
    const u8 *ip = (const u8 *)f->rip;
    if (!g_pmu_emulated || ip[0] != 0x0f || ip[1] != 0x33) /* SDM Vol.2B RDPMC: 0F 33 */
        return false;
    struct emul_cpu *e = me();
    e->uses++;
    e->st.rdpmc_emulated++;
    e->m.cpl = (u8)(f->cs & 3);
    e->m.cr4_pce = (read_cr4() & CR4_PCE) != 0;
    feed_cycles(e);
    u64 v = 0;
    int r = hw_rdpmc(&e->hw, (u32)f->rcx, &v);
    flush(e, false);
    if (r) {
        f->vector = 13; /* the model's #GP(0), taken at the RDPMC */
        f->error = 0;
        return false;
    }
    f->rax = (u32)v;
    f->rdx = v >> 32;
    f->rip += 2;
    return true;
}

void pmu_emul_retired(u8 cpl, const struct pmu_emul_step *step, const struct trap_frame *regs)
{
    u64 f = irq_save();
    struct emul_cpu *e = me();
    e->uses++;
    e->st.retired++;
    e->m.cpl = cpl;
    if (e->hold)
        e->hold--; /* one more instruction retired while a PMI waits out the skid */
    e->retiring = true;
    /* The LBR records the branch at its retirement, before its events can overflow a counter and freeze it. */
    struct lbr_model_branch b = {step->rip, step->next_rip, lbr_branch_of_evc(step->evc), cpl, step->mispredicted};
    pmu_model_retire_branch(&e->m, &b);
    /* The instruction as a PEBS record holds it: the registers after it (the single-step trap's frame). */
    if (e->m.pebs.c.present && regs) {
        struct pebs_model_insn in = {step->rip, step->next_rip, regs->rflags, rdtsc(),
                                     {regs->rax, regs->rcx, regs->rdx, regs->rbx, regs->rsp, regs->rbp, regs->rsi,
                                      regs->rdi, regs->r8, regs->r9, regs->r10, regs->r11, regs->r12, regs->r13,
                                      regs->r14, regs->r15}};
        pmu_model_set_insn(&e->m, &in);
    }
    feed_cycles(e);
    for (u32 i = 0; i < e->nev; i++) {
        u32 n = pmu_emul_event_count(e->ev[i].classes, e->ev[i].evc, step);
        if (n)
            pmu_model_count(&e->m, e->ev[i].event, e->ev[i].umask, n);
    }
    e->retiring = false;
    flush(e, false);
    irq_restore(f);
}

const char *pmu_emul_gap(enum pmu_emul_gap g)
{
    static const char *const why[] = {
        [PMU_EMUL_GAP_CACHE] = "the emulated PMU models no cache (single-stepping sees instructions, not addresses): "
                               "cache events count nothing (docs/emulated-pmu.md)",
        [PMU_EMUL_GAP_CMASK] = "the emulated PMU does not model counter mask, invert or edge: every event counts "
                               "once (docs/model.md)",
        [PMU_EMUL_GAP_CYCLE_NOISE] = "emulated cycles are the TSC time of single-stepped execution (one #DB per "
                                     "instruction on a shared host), not a property of the code",
    };
    if (!g_pmu_emulated || (unsigned)g >= ARRAY_SIZE(why))
        return NULL;
    pmu_emul_mark_use(); /* the check's verdict now depends on the emulated PMU: marked as such */
    return why[g];
}

void pmu_emul_mark_use(void)
{
    if (g_pmu_emulated)
        me()->uses++;
}

const struct pmu_emul_core *pmu_emul_cpu_core(u32 index)
{
    return g_pmu_emulated && index < percpu_capacity() ? pmu_emul_core_at(g_pmu_emul_kind, emul[index].core) : NULL;
}

u64 pmu_emul_uses(u32 index)
{
    return index < percpu_capacity() ? emul[index].uses : 0;
}

const struct pmu_emul_stats *pmu_emul_stats(u32 index)
{
    return &emul[index].st;
}

void pmu_emul_init_signal(void)
{
    u64 f = irq_save();
    pmu_model_init_signal(&me()->m);
    irq_restore(f);
}
