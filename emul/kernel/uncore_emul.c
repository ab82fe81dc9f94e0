/* The emulated uncore's kernel side (see uncore_emul.h). Every access to a scope's register file takes that file's
 * lock with interrupts off, first lets the model count the TSC time since its last access (the uncore clock at the
 * face's rate against the TSC's measured rate), then does the access; the PMIs it raised are sent after the lock is
 * dropped. No cache is modelled: the events other than the clock count the line fetches the single-step oracle saw a
 * workload make (the first load of a line after a CLFLUSH of it, uncore_emul_run_observed), and nothing else. */
#include "emul/kernel/uncore_emul.h"

#include <string.h>

#include "apic/apic.h"
#include "emul/model/uncore_model.h"
#include "emul/options.h"
#include "lib/format.h"
#include "lib/insn_addr.h"
#include "kernel/console.h"
#include "kernel/cpuid_hw.h"
#include "kernel/percpu.h"
#include "kernel/percpu_array.h"
#include "kernel/singlestep.h"
#include "kernel/smp.h"
#include "kernel/timing.h"
#include "kernel/traps.h"
#include "kernel/x86.h"
#include "pmu/access.h"

#define UNCORE_EMUL_LINE 64    /* cache line size (CPUID.01H:EBX[15:8] x 8 on every part the faces present) */
#define UNCORE_EMUL_FLUSHED 8  /* lines flushed and not yet loaded that the observer remembers */

static struct uncore_machine machine;
static const struct uncore_kind_desc *kind;
static volatile u8 scope_lock[UNCORE_MODEL_MAX_SCOPES];
static u64 scope_last_tsc[UNCORE_MODEL_MAX_SCOPES];
static bool rate_set[UNCORE_MODEL_MAX_SCOPES];

struct uncore_emul_cpu {
    volatile u32 doorbell; /* PMIs routed to this CPU, not yet delivered through its LVT entry */
    u64 flushed[UNCORE_EMUL_FLUSHED]; /* lines CLFLUSHed and not loaded since, each | 1; 0: a free slot */
    u32 flushed_next;
    struct uncore_emul_stats st;
};
PER_CPU_ARRAY(struct uncore_emul_cpu, ucpu);

const struct uncore_kind_desc *uncore_emul_kind(void)
{
    return kind;
}

u32 uncore_emul_scopes(void)
{
    return kind ? machine.nscopes : 0;
}

u64 uncore_emul_clock_hz(void)
{
    return kind ? kind->emul->uncore_clock_hz : 0;
}

static u32 ncpus(void)
{
    return smp.count ? smp.count : 1;
}

/* The first CPU of scope s: the lowest i with floor(i x scopes / n) = s. */
static u32 scope_first(u32 s, u32 n)
{
    return (u32)(((u64)s * n + machine.nscopes - 1) / machine.nscopes);
}

bool uncore_emul_place(u32 index, u32 *scope, u32 *core)
{
    u32 n = ncpus();
    if (!kind || index >= n)
        return false;
    u32 s = (u32)((u64)index * machine.nscopes / n);
    u32 first = scope_first(s, n), count = scope_first(s + 1, n) - first, rank = index - first;
    u32 cores = kind->emul->cores_per_scope;
    *scope = s;
    *core = count <= cores ? rank : (u32)((u64)rank * cores / count);
    return true;
}

/* The lowest CPU placed on core c of scope s, or UINT32_MAX. */
static u32 cpu_of(u32 s, u32 c)
{
    u32 n = ncpus();
    for (u32 i = scope_first(s, n); i < n && i < scope_first(s + 1, n); i++) {
        u32 ps, pc;
        if (uncore_emul_place(i, &ps, &pc) && ps == s && pc == c)
            return i;
    }
    return UINT32_MAX;
}

/* A routed PMI reaches the core: its LVT performance-counter entry decides (SDM Vol.3B, the Nehalem uncore: the PMI
 * is delivered through each selected core's LVT performance-counter entry; Vol.3A LVT: masked -> not delivered, and
 * the APIC sets the mask at delivery on Intel; NMI mode ignores the vector field). */
static void doorbell(struct trap_frame *f)
{
    (void)f;
    struct uncore_emul_cpu *u = &ucpu[this_cpu()->index];
    apic_eoi();
    u32 n = __atomic_exchange_n(&u->doorbell, 0, __ATOMIC_ACQ_REL);
    bool intel = !strcmp(kind->emul->vendor, "GenuineIntel");
    while (n--) {
        u32 lvt = apic_read(APIC_LVT_PMC);
        if (lvt & LVT_MASKED) {
            u->st.lost_masked++;
            continue;
        }
        if (intel)
            apic_write(APIC_LVT_PMC, lvt | LVT_MASKED);
        if ((lvt & 0x700) == LVT_DM_NMI)
            apic_send_ipi(apic_id(), ICR_DM_NMI);
        else
            apic_self_ipi((u8)(lvt & 0xff));
        u->st.pmis_delivered++;
    }
}

void uncore_emul_boot(void)
{
    const char *face = emul_options()->uncore_emulated;
    const struct uncore_kind_desc *k = face[0] ? uncore_kind_by_emul_name(face) : NULL;
    const char *why = NULL;
    if (!k || !uncore_machine_init(&machine, k, emul_options()->uncore_faults, &why))
        return; /* the options accepted only faces the model holds */
    kind = k;
    u64 now = rdtsc();
    for (u32 s = 0; s < machine.nscopes; s++)
        scope_last_tsc[s] = now;
    irq_register(VECTOR_UNCORE_DOORBELL, doorbell);
}

static struct uncore_model *my_scope(u32 *s)
{
    u32 c;
    if (!kind || !uncore_emul_place(this_cpu()->index, s, &c))
        return NULL;
    return &machine.scope[*s];
}

bool uncore_emul_msr_routed(u32 msr)
{
    u32 s;
    struct uncore_model *u = my_scope(&s);
    return u && uncore_model_has_msr(u, msr);
}

/* The TSC time since the scope's last access, in spans of at most a second of the TSC so that the model's product
 * of ticks and clock rate stays below 2^64. The model counts against the TSC's measured rate (timing.tsc_hz, known
 * after timing_init; the face's until then), so the clock runs at the face's rate in real time. */
static void tick(struct uncore_model *u, u32 s)
{
    if (!rate_set[s] && timing.tsc_hz) {
        u->tsc_hz = timing.tsc_hz;
        u->clock_rem = 0;
        rate_set[s] = true;
    }
    u64 now = rdtsc(), d = now - scope_last_tsc[s];
    scope_last_tsc[s] = now;
    while (d) {
        u64 span = d < u->tsc_hz ? d : u->tsc_hz;
        uncore_model_tick(u, span, 0);
        d -= span;
    }
}

enum access_op { OP_READ, OP_WRITE, OP_LINES };

/* One operation on this CPU's scope, under its lock after the model has counted the time since the last one: an MSR
 * read or write, or *val line fetches past the core's caches (OP_LINES); the PMIs it raised sent after. */
static int access(u32 msr, u64 *val, enum access_op op)
{
    u32 s;
    struct uncore_model *u = my_scope(&s);
    if (!u)
        return HW_GP;
    u64 f = irq_save();
    while (__atomic_test_and_set(&scope_lock[s], __ATOMIC_ACQUIRE))
        cpu_relax();
    tick(u, s);
    int r = 0;
    if (op == OP_LINES)
        uncore_model_lines(u, *val);
    else
        r = op == OP_WRITE ? uncore_model_wrmsr(u, msr, *val) : uncore_model_rdmsr(u, msr, val);
    u32 pmis[UNCORE_MODEL_MAX_CORES];
    for (u32 c = 0; c < u->cores && c < UNCORE_MODEL_MAX_CORES; c++)
        pmis[c] = uncore_model_take_pmis(u, c);
    __atomic_clear(&scope_lock[s], __ATOMIC_RELEASE);
    struct uncore_emul_cpu *me = &ucpu[this_cpu()->index];
    if (op != OP_LINES)
        me->st.msr_routed++;
    for (u32 c = 0; c < u->cores && c < UNCORE_MODEL_MAX_CORES; c++) {
        if (!pmis[c])
            continue;
        u32 to = cpu_of(s, c);
        if (to == UINT32_MAX) {
            me->st.lost_no_cpu += pmis[c];
            continue;
        }
        __atomic_add_fetch(&ucpu[to].doorbell, pmis[c], __ATOMIC_ACQ_REL);
        if (to == this_cpu()->index)
            apic_self_ipi(VECTOR_UNCORE_DOORBELL);
        else
            apic_send_ipi(cpus[to].apic_id, ICR_DM_FIXED | VECTOR_UNCORE_DOORBELL);
    }
    irq_restore(f);
    if (r) {
        if (op == OP_READ)
            *val = 0;
        return HW_GP;
    }
    return 0;
}

int uncore_emul_rdmsr(u32 msr, u64 *val)
{
    return access(msr, val, OP_READ);
}

int uncore_emul_wrmsr(u32 msr, u64 val)
{
    return access(msr, &val, OP_WRITE);
}

/* The single-step oracle's report of each instruction of the workload. A CLFLUSH puts its line out of every cache
 * (SDM Vol.2A CLFLUSH); the first load of that line after it goes past the core's caches: one line fetch for the
 * scope's counters. The lines come from the instructions' memory operands and the registers after them
 * (lib/insn_addr.c); the model is told only what it observes, never the workload's N. Lines flushed and not yet
 * loaded are kept in a small ring (UNCORE_EMUL_FLUSHED): the workloads load a line soon after flushing it. */
static void observe(const struct step_record *r, void *arg)
{
    (void)arg;
    struct uncore_emul_cpu *me = &ucpu[this_cpu()->index];
    if (!r->classified || !r->regs || !(r->cls.flush || (r->cls.load && r->cls.mem)))
        return;
    const struct trap_frame *f = r->regs;
    const u64 regs[16] = {f->rax, f->rcx, f->rdx, f->rbx, f->rsp, f->rbp, f->rsi, f->rdi,
                          f->r8,  f->r9,  f->r10, f->r11, f->r12, f->r13, f->r14, f->r15};
    u64 a;
    if (!insn_mem_address((const u8 *)r->rip, r->cls.len, regs, r->rip + r->cls.len, &a)) {
        me->st.unknown_address++;
        return;
    }
    u64 line = a & ~(u64)(UNCORE_EMUL_LINE - 1);
    if (r->cls.flush) {
        me->flushed[me->flushed_next++ % UNCORE_EMUL_FLUSHED] = line | 1; /* bit 0: a slot in use */
        return;
    }
    for (u32 i = 0; i < UNCORE_EMUL_FLUSHED; i++)
        if (me->flushed[i] == (line | 1)) {
            me->flushed[i] = 0;
            u64 one = 1;
            access(0, &one, OP_LINES);
            me->st.lines_observed++;
            return;
        }
}

u64 uncore_emul_run_observed(u64 (*fn)(u64), u64 arg, u64 *lines)
{
    struct uncore_emul_cpu *me = &ucpu[this_cpu()->index];
    u64 before = me->st.lines_observed;
    memset(me->flushed, 0, sizeof(me->flushed));
    struct step_stats st = {0}; /* limit 0: the whole workload */
    u64 r = step_run(0, fn, arg, observe, NULL, &st);
    memset(me->flushed, 0, sizeof(me->flushed));
    if (lines)
        *lines = me->st.lines_observed - before;
    return r;
}

const struct uncore_emul_stats *uncore_emul_stats(u32 index)
{
    return &ucpu[index].st;
}

void uncore_emul_report(void)
{
    if (!kind) {
        /* No emulated uncore: what the CPU itself offers, as pmu-decode says it from a CPUID dump. */
        struct uncore_recognition r;
        char line[sizeof(r.why) + 160];
        struct strbuf sb;
        sb_init(&sb, line, sizeof(line));
        uncore_recognise(&cpuid_hw, &r);
        uncore_recognition_describe(&r, &sb);
        if (sb.len && line[sb.len - 1] == '\n')
            line[sb.len - 1] = '\0';
        console_comment("%s", line);
        return;
    }
    const struct uncore_emul_face *f = kind->emul;
    console_comment("uncore: emulated (%s: %s, %u package(s), %u scope(s) of %u cores) \xe2\x80\x94 not hardware: "
                    "the CPUs placed onto the scopes by index; every uncore verdict is marked [emulated PMU]",
                    f->name, kind->name, f->packages, machine.nscopes, f->cores_per_scope);
    char faults[160] = "";
    size_t len = 0;
    for (u32 i = 0; i < UNCORE_FAULT_COUNT; i++) {
        const char *name = uncore_model_fault_name(1u << i);
        if (!(emul_options()->uncore_faults & (1u << i)) || !name || len + strlen(name) + 2 >= sizeof(faults))
            continue;
        if (len)
            faults[len++] = ',';
        memcpy(faults + len, name, strlen(name) + 1);
        len += strlen(name);
    }
    if (len)
        console_comment("uncore_fault: %s (deliberate misbehaviour: the checks that catch it must fail)", faults);
}
