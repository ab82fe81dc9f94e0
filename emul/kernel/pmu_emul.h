/* pmu=emulated:KIND in the kernel (docs/emulated-pmu.md): one register model (emul/model/) per CPU stands in
 * for the PMU. PMU MSR accesses of the safe accessors (kernel/safe.h) go to it, RDPMC is emulated from its #UD
 * (QEMU TCG raises #UD for RDPMC, helper_rdpmc), CPUID's PMU leaves answer as the kind (emul/emul_cpuid.c),
 * events come from single-stepped workloads (harness/workload.c) and the TSC, and PMIs are sent through the
 * real local APIC as its LVT performance-counter entry says. Never switched on without pmu=emulated. */
#pragma once
#include "lib/cpuid_source.h"
#include "kernel/traps.h"
#include "lib/types.h"
#include "emul/emul.h"

extern bool g_pmu_emulated;                         /* pmu=emulated:KIND given (set once at boot) */
extern const struct pmu_emul_kind *g_pmu_emul_kind;

void pmu_emul_boot(void);                 /* from the options, on the boot CPU before any AP starts */
void pmu_emul_cpu_init(void);             /* this CPU's model (reset state, faults) */
const struct cpuid_source *pmu_emul_cpuid(void); /* this CPU's CPUID as the kind presents it */
/* Hybrid kinds: one header comment naming each CPU range's kind of core (after every CPU's pmu_emul_cpu_init). */
void pmu_emul_report_cores(void);
/* Hybrid kinds: the kind of core CPU `index` presents (after its pmu_emul_cpu_init); NULL otherwise. */
const struct pmu_emul_core *pmu_emul_cpu_core(u32 index);

/* The safe accessors' route (kernel/safe.h): 0 or FIXUP_FAULT | 13. */
bool pmu_emul_msr_routed(u32 msr);
int pmu_emul_rdmsr(u32 msr, u64 *val);
int pmu_emul_wrmsr(u32 msr, u64 val);
/* #UD at RDPMC (0F 33): true when emulated (RAX/RDX set, RIP past it); false otherwise, with the frame turned
 * into the #GP(0) the model raised when it did (CPL/CR4.PCE or an invalid counter). */
bool pmu_emul_ud(struct trap_frame *f);

/* One instruction retired at `cpl`, as the oracle classified it, `regs` the registers after it (the single-step
 * trap's frame, for PEBS records; may be NULL): every emulated event it makes (emul/emul_events.c) and the cycles
 * since the last event are fed to this CPU's model; PMIs it raises are sent. */
void pmu_emul_retired(u8 cpl, const struct pmu_emul_step *step, const struct trap_frame *regs);
/* The skid of the emulated PMU's PMIs: a PMI raised by an instruction's events is sent after pmu_emul_skid() more
 * instructions retire (pmu_skid=N; more under pmu_fault=skid-beyond-bound), so it interrupts the (skid + 1)-th
 * instruction after the overflowing one. pmu_emul_skid_bound(): the distance it declares (pmu_skid + 1), 0 when
 * pmu=emulated is off (silicon declares none). */
u32 pmu_emul_skid(void);
u32 pmu_emul_skid_bound(void);
/* Send PMIs still owed (a duplicate held back while the first was pending, a PMI waiting out the skid). */
void pmu_emul_flush(void);
/* Model accesses and events on CPU `index` so far: a check that changed it used the emulated PMU. */
u64 pmu_emul_uses(u32 index);
/* This CPU's running check now depends on the emulated PMU (e.g. it decided from the emulated kind's
 * capabilities), so its verdict is marked [emulated PMU] even if it touches no register. */
void pmu_emul_mark_use(void);
/* This CPU took an INIT (kernel/smp.c smp_init_roundtrip's re-entry): the model takes it too. */
void pmu_emul_init_signal(void);

/* What the emulated PMU cannot produce, for checks that need it (docs/emulated-pmu.md): the reason, or NULL
 * when pmu=emulated is off or the feature is emulated. */
enum pmu_emul_gap {
    PMU_EMUL_GAP_CACHE,       /* cache events: no cache is modelled (the oracle sees no addresses) */
    PMU_EMUL_GAP_CMASK,       /* counter mask, invert, edge: every event counts once (docs/model.md) */
    PMU_EMUL_GAP_CYCLE_NOISE, /* cycles are the TSC time of single-stepped execution on a shared host */
};
const char *pmu_emul_gap(enum pmu_emul_gap g);

struct pmu_emul_stats {
    u64 pmis_sent, dropped_masked, duplicates, other_mode, rdpmc_emulated, msr_routed, retired;
};
const struct pmu_emul_stats *pmu_emul_stats(u32 index);
