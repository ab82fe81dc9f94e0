#include "pmu/kernel/pmu_cpu.h"

#include <string.h>

#include "kernel/cpuid_hw.h"
#include "pmu/kernel/hw_access_kernel.h"
#include "pmu/kind.h"
#include "kernel/safe.h"
#include "kernel/percpu_array.h"

PER_CPU_ARRAY_GLOBAL(struct pmu_cpu, pmu_cpus);

static const struct pmu_cpu_standin *standin;

void pmu_cpu_set_standin(const struct pmu_cpu_standin *s)
{
    standin = s;
}

/* Every PMU register as the firmware left it, read only (pmu_state_read), before any check writes one: firmware
 * that left counters running (Linux check_hw_exists(), arch/x86/events/core.c) is reported from this. */
static void record_entry(struct pmu_cpu *pc)
{
    pmu_state_read(&pc->pmu, &pc->entry);
    for (u32 i = 0; i < pc->entry.count; i++)
        if (pc->entry.e[i].reg == PMU_SREG_GLOBAL_CTRL) {
            pc->global_ctrl_rc = pc->entry.e[i].rc;
            pc->global_ctrl_at_entry = pc->entry.e[i].value;
            pc->global_ctrl_seen = pc->global_ctrl_rc == 0;
        }
}

void pmu_cpu_discover(void *unused)
{
    (void)unused;
    struct pmu_cpu *pc = this_pmu_cpu();
    memset(pc, 0, sizeof(*pc));
    /* pmu=emulated:KIND: this CPU's register model stands in for the PMU and CPUID answers as the kind, so
     * discovery and everything after it run unchanged (emul/kernel/pmu_emul.h). */
    const struct cpuid_source *src = standin ? standin->cpu_init() : &cpuid_hw;
    cpu_ident_decode(&pc->id, src);
    pmu_discover(&pc->caps, &pc->id, src);
    hw_access_kernel_init(&pc->hw);
    /* AMD guest without PerfCtrExtCore: probe the K7 counters before concluding "no PMU" (KVM backs them; QEMU
     * TCG reads 0 from every MSR, so the probe finds nothing there). */
    pmu_probe_amd_legacy(&pc->caps, &pc->hw);
    if (pc->caps.pdcm && pc->caps.msrs.perf_capabilities) {
        u64 v = 0;
        pc->perf_caps_rc = rdmsr_safe(pc->caps.msrs.perf_capabilities, &v);
        if (!pc->perf_caps_rc)
            pmu_caps_apply_perf_capabilities(&pc->caps, v);
    }
    pc->cpuid = src;
    lbr_discover(&pc->caps, src, &pc->lbr);
    u64 misc = 0;
    int misc_rc = pmu_kind_get(pc->caps.kind)->pebs ? rdmsr_safe(MSR_IA32_MISC_ENABLE, &misc) : -1;
    pebs_discover(&pc->caps, src, misc_rc, misc, &pc->pebs);
    pc->init_rc = pmu_init(&pc->pmu, &pc->caps, &pc->hw);
    if (!pc->init_rc)
        record_entry(pc);
    pc->discovered = true;
}

bool pmu_cpu_usable(const struct pmu_cpu *pc, const char **reason)
{
    /* Every PMU check asks this first: under pmu=emulated its verdict, a SKIP for a capability the emulated
     * kind lacks included, is about the emulated PMU and is marked so. */
    if (standin)
        standin->mark_use();
    if (!pc->discovered) {
        *reason = "PMU discovery did not run on this CPU";
        return false;
    }
    if (!pmu_kind_present(pc->caps.kind)) {
        *reason = pc->caps.evidence;
        return false;
    }
    if (pc->init_rc) {
        *reason = pc->pmu.error ? pc->pmu.error : "pmu_init failed";
        return false;
    }
    return true;
}

void pmu_cpu_restore_entry(void *unused)
{
    (void)unused;
    struct pmu_cpu *pc = this_pmu_cpu();
    const char *why;
    if (!pmu_cpu_usable(pc, &why) || !pc->entry.count)
        return;
    pc->restore_rc = pmu_state_restore(&pc->pmu, &pc->entry, &pc->restore_why);
    pc->restored = true;
}
