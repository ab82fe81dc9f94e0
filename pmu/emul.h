/* The emulated PMU kinds of pmu=emulated:KIND: for each, the capabilities the register model is built from
 * (pmu/model/pmu_model_caps.c) and the CPUID answers that make pmu_discover() find exactly those capabilities,
 * so discovery runs unchanged on an emulated PMU. docs/emulated-pmu.md says how vendor and family are
 * presented. Portable: no hardware access; the kernel side is kernel/pmu_emul.c. */
#pragma once
#include "kernel/cpuid_source.h"
#include "pmu/pmu_caps.h"

struct pmu_emul_kind {
    const char *name;       /* "intel-v4", "amd-v2", "knc", ... */
    enum pmu_kind kind;
    u32 version;            /* Intel architectural perfmon version; 0 otherwise */
    u32 num_gp, gp_width, num_fixed, fixed_width;
    bool fw_write;          /* Intel: PERF_CAPABILITIES.FW_WRITE (full-width counter writes) */
    u32 signature;          /* CPUID.01H:EAX presented */
};

/* NULL when `name` is not a kind. */
const struct pmu_emul_kind *pmu_emul_kind_find(const char *name);
/* "intel-v1, intel-v2, ...": every kind, for error messages and docs. */
const char *pmu_emul_kind_list(void);
u32 pmu_emul_kind_count(void);
const struct pmu_emul_kind *pmu_emul_kind_at(u32 i);

/* The capabilities the model of this kind implements (as pmu_discover() fills them on its CPUID). */
void pmu_emul_caps(const struct pmu_emul_kind *k, struct pmu_caps *out);

/* A cpuid_source answering as the emulated kind: the vendor string, signature and PMU leaves (0AH, 23H,
 * 80000001H ECX[23,24,28], 80000022H) are the kind's, the hypervisor bit reads 0 (the emulated PMU behaves as
 * the manuals say for bare metal), everything else comes from `base`. */
struct pmu_emul_cpuid {
    const struct pmu_emul_kind *kind;
    const struct cpuid_source *base;
    bool kvm; /* presented as a KVM guest's vPMU: CPUID.01H:ECX[31] set, leaf 40000000H "KVMKVMKVM" */
};
bool pmu_emul_cpuid_query(void *ctx, u32 leaf, u32 subleaf, struct cpuid_regs *r);

/* Whether MSR `msr` belongs to the core PMU of some kind (any vendor's counter, select, global or capability
 * register; DEBUGCTL only for Intel architectural kinds, whose freeze bits the model implements). Under
 * pmu=emulated these accesses go to the model, which #GPs those its kind lacks, as such a CPU would; every
 * other MSR (APIC base, x2APIC, TSC, ...) stays with the real CPU. */
bool pmu_emul_msr_is_pmu(const struct pmu_emul_kind *k, u32 msr);

/* The emulated PMU's branch predictor (pmu/emul_predict.c): static backward taken, forward not taken. `insn`
 * is a conditional branch of `len` bytes (Jcc rel8/rel32, LOOPcc, JrCXZ); true when it went the other way. */
bool pmu_emul_mispredicted(const u8 *insn, u8 len, bool taken);

/* The events the emulated PMU produces (pmu/emul_events.c): a list per kind, ended by a NULL name, each named
 * as in pmu/events.c and counting the instruction classes in `classes`. */
enum pmu_emul_class { PMU_EMUL_INSNS, PMU_EMUL_BRANCHES, PMU_EMUL_TAKEN, PMU_EMUL_MISPREDICTS, PMU_EMUL_LOADS,
                      PMU_EMUL_STORES, PMU_EMUL_CYCLES, PMU_EMUL_SLOTS };
/* Topdown slots per cycle of the modelled core: the issue width 4 of Ice Lake, whose fixed counter 3 counts
 * TOPDOWN.SLOTS (Linux events/intel/core.c: "the number of available slots for an unhalted logical processor",
 * 4 per cycle on Ice Lake). */
#define PMU_EMUL_SLOTS_PER_CYCLE 4
struct pmu_emul_event {
    const char *name;
    u32 classes; /* bits of enum pmu_emul_class; CYCLES and SLOTS: fed from the TSC, not per instruction */
};
const struct pmu_emul_event *pmu_emul_events(const struct pmu_emul_kind *k);
/* One retired instruction as the oracle classified it. */
struct pmu_emul_step {
    bool branch, taken, mispredicted, load, store;
};
/* How many events of `classes` the instruction makes (a load-and-store counts 2 for LOADS|STORES). */
u32 pmu_emul_event_count(u32 classes, const struct pmu_emul_step *s);
