/* workload_run (see workload.h). */
#include "harness/workload.h"

#include "kernel/percpu.h"
#include "emul/kernel/pmu_emul.h"
#include "kernel/user.h"
#include "kernel/x86.h"
#include "pmu/event_catalog.h"

/* Every retired instruction of the workload, as the classifier sees it (a mispredicted branch when the
 * emulated predictor guessed its direction wrong, emul/emul_predict.c), for the emulated PMU. An unclassified
 * instruction still retires; it is just nothing else. */
static void retired(const struct step_record *r, void *arg)
{
    (void)arg;
    bool ok = r->classified;
    struct pmu_emul_step s = {
        .evc = ok ? evc_classes(&r->cls, r->taken) : 1u << EVC_INSTRUCTIONS,
        .mispredicted = ok && r->cls.branch && r->cls.cond &&
                        pmu_emul_mispredicted((const u8 *)r->rip, r->cls.len, r->taken),
        .rip = r->rip,
        .next_rip = r->next_rip,
    };
    pmu_emul_retired(r->cpl, &s, r->regs);
}

u64 workload_run(u8 cpl, bool irq, u64 (*fn)(u64), u64 arg)
{
    if (g_pmu_emulated) {
        struct step_stats st = {0}; /* limit 0: the whole workload */
        u64 r = irq ? step_run_irq(cpl, fn, arg, retired, NULL, &st) : step_run(cpl, fn, arg, retired, NULL, &st);
        pmu_emul_flush();
        return r;
    }
    if (cpl == 3)
        return irq ? run_at_cpl3_irq(fn, arg) : run_at_cpl3(fn, arg);
    u64 flags = irq_save();
    if (irq)
        sti();
    u64 r = fn(arg);
    irq_restore(flags);
    return r;
}
