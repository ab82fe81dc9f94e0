/* The single-step oracle (see singlestep.h). Each #DB with DR6.BS reports the instruction at the previous
 * trap's RIP as retired, classified from its bytes (lib/insn_class.c). State is per CPU: the #DB arrives
 * on the CPU that runs the stepped code. */
#include "kernel/singlestep.h"

#include <string.h>

#include "kernel/percpu.h"
#include "kernel/traps.h"
#include "kernel/user.h"
#include "kernel/x86.h"
#include "kernel/percpu_array.h"

#define RFLAGS_TF BIT(8)
#define DR6_BS BIT(14)        /* SDM Vol.3B 18.2.3: single step */
#define DR6_CLEAN 0xFFFF0FF0u /* DR6 with no condition recorded: the CPU never clears it itself (18.2.3) */

struct step_state {
    bool active; /* stepping armed on this CPU */
    bool in_fn;  /* the first trap at fn's entry has been seen */
    u64 entry;   /* fn */
    u64 stop;    /* the instruction after the CALL of fn: the trap there ends stepping */
    u64 prev_rip;
    const struct trap_frame *frame; /* the #DB being handled, while the observer runs */
    step_observer_fn obs;
    void *obs_arg;
    struct step_stats *st;
};

PER_CPU_ARRAY(struct step_state, states);
extern const u8 user_return_point[], step_cpl0_return[];
u64 step_cpl0_call(u64 (*fn)(u64), u64 arg);

static inline u64 read_dr6(void)
{
    u64 v;
    asm volatile("mov %%dr6, %0" : "=r"(v));
    return v;
}

static inline void write_dr6(u64 v)
{
    asm volatile("mov %0, %%dr6" ::"r"(v));
}

/* The instruction at rip ended with execution at next. */
static void retire(struct step_state *s, u64 rip, u64 next, u8 cpl)
{
    struct step_record r = {.rip = rip, .next_rip = next, .cpl = cpl, .regs = s->frame};
    r.classified = insn_classify((const u8 *)rip, 15, &r.cls);
    if (r.classified && r.cls.rep && next == rip) { /* one more iteration, not a retirement */
        s->st->rep_iterations++;
        return;
    }
    if (!r.classified)
        s->st->unknown++;
    r.taken = r.classified && r.cls.branch && next != rip + r.cls.len;
    s->st->retired++;
    if (s->obs)
        s->obs(&r, s->obs_arg);
}

static void stop_stepping(struct step_state *s, struct trap_frame *f)
{
    f->rflags &= ~RFLAGS_TF;
    s->active = false;
    s->in_fn = false;
}

bool singlestep_trap(struct trap_frame *f)
{
    struct step_state *s = &states[this_cpu()->index];
    if (f->vector != 1 || !s->active)
        return false;
    u64 dr6 = read_dr6();
    if (!(dr6 & DR6_BS)) {
        s->st->foreign++;
        return false;
    }
    write_dr6(DR6_CLEAN);
    s->st->traps++;
    u64 rip = f->rip;
    if (!s->in_fn) {
        /* The first trap follows the CALL that enters fn (TF was set by IRET or POPF, which do not trap). */
        s->in_fn = rip == s->entry;
        s->prev_rip = rip;
        return true;
    }
    s->frame = f;
    retire(s, s->prev_rip, rip, (u8)(f->cs & 3));
    s->frame = NULL;
    s->prev_rip = rip;
    if (rip == s->stop) {
        s->st->ended = true;
        stop_stepping(s, f); /* at CPL 3 the UD2 return trap follows; at CPL 0 the stub's tail runs unstepped */
    } else if (s->st->limit && s->st->retired >= s->st->limit) {
        s->st->truncated = true;
        stop_stepping(s, f);
    }
    return true;
}

static u64 run_stepped(u8 cpl, bool irq, u64 (*fn)(u64), u64 arg, step_observer_fn obs, void *obs_arg,
                       struct step_stats *st)
{
    struct step_stats local = {0};
    if (!st)
        st = &local;
    u64 limit = st->limit;
    memset(st, 0, sizeof(*st));
    st->limit = limit;

    struct step_state *s = &states[this_cpu()->index];
    u64 flags = irq_save();
    *s = (struct step_state){
        .entry = (u64)fn,
        .stop = cpl == 3 ? (u64)user_return_point : (u64)step_cpl0_return,
        .obs = obs,
        .obs_arg = obs_arg,
        .st = st,
    };
    write_dr6(DR6_CLEAN);
    asm volatile("" ::: "memory");
    s->active = true;
    asm volatile("" ::: "memory");
    /* CPL 3: IRET with TF=1, IF=0, IOPL 0 (bit 1 is reserved, always 1). */
    if (irq && cpl == 0)
        sti(); /* step_cpl0_call's POPF keeps IF */
    u64 r = cpl == 3 ? run_at_cpl3_rflags(fn, arg, RFLAGS_TF | (irq ? RFLAGS_IF : 0) | 0x2) : step_cpl0_call(fn, arg);
    s->active = false;
    irq_restore(flags);
    return r;
}

u64 step_run(u8 cpl, u64 (*fn)(u64), u64 arg, step_observer_fn obs, void *obs_arg, struct step_stats *st)
{
    return run_stepped(cpl, false, fn, arg, obs, obs_arg, st);
}

/* ---- used by the emulated PMU (harness/workload.c) ------------------------------------------------------ */
u64 step_run_irq(u8 cpl, u64 (*fn)(u64), u64 arg, step_observer_fn obs, void *obs_arg, struct step_stats *st)
{
    return run_stepped(cpl, true, fn, arg, obs, obs_arg, st);
}

bool singlestep_resume_rip(u64 *rip)
{
    const struct step_state *s = &states[this_cpu()->index];
    const struct trap_frame *f = s->frame;
    if (!s->active || !f)
        return false;
    *rip = f->rip;
    return true;
}

/* An instruction emulated by a trap handler (pmu=emulated's RDPMC from its #UD) completes without the
 * single-step trap the CPU raises after an instruction with TF set (SDM Vol.3B 18.3.1.4): report it here, as
 * that #DB would, so the stepped workload sees it retire with RIP already past it. */
void singlestep_after_emulation(struct trap_frame *f)
{
    if (!(f->rflags & RFLAGS_TF) || !states[this_cpu()->index].active)
        return;
    u64 vector = f->vector;
    write_dr6(DR6_CLEAN | DR6_BS);
    f->vector = 1;
    singlestep_trap(f);
    f->vector = vector;
}
