/* The emulated face of a PMU kind: what a CPU with this kind of PMU presents to software beyond its counters, so that
 * pmu=emulated can answer as such a CPU would (docs/emulated-pmu.md). The vendor string and PMU leaves of CPUID, the
 * events a retired instruction makes, the MSRs that belong to its PMU, and which register model it follows. Each kind
 * file (pmu/kind_*.c) defines its face beside its descriptor and points to it (`pmu_kind_desc.emul`); an emulated
 * kind (emul/emul_kinds.c) adds the part: its name, signature, version, counters, LBR and PEBS. Types only, with
 * named fields: pmu/ describes a kind, emul/ (above it) presents it, and neither includes the other's code for it.
 * Every field is required unless it says otherwise: tests/host/test_pmu_kinds.c fails an incomplete face. */
#pragma once
#include "lib/cpu_ident.h"
#include "lib/types.h"

/* The classes of instruction the emulated PMU tells apart (from the single-step oracle, lib/insn_class.c). */
enum pmu_emul_class { PMU_EMUL_INSNS, PMU_EMUL_BRANCHES, PMU_EMUL_TAKEN, PMU_EMUL_MISPREDICTS, PMU_EMUL_LOADS,
                      PMU_EMUL_STORES, PMU_EMUL_CYCLES, PMU_EMUL_SLOTS };

/* One event the emulated PMU produces: named as in the kind's event table (pmu/events.h, so the encoding comes from
 * one table) and counting the instruction classes in `classes` (bits of enum pmu_emul_class; CYCLES and SLOTS: fed
 * from the TSC, not per instruction). */
struct pmu_emul_event {
    const char *name;
    u32 classes;
};

/* `count` consecutive MSRs from `first`. */
struct pmu_emul_msr_block {
    u32 first, count;
};

/* An event-select encoding: event code and unit mask. */
struct pmu_emul_encoding {
    u16 event;
    u8 umask;
};

/* The register model's rules the kind follows (emul/model/pmu_model.c): its own reading of each manual. */
enum pmu_emul_regs {
    PMU_EMUL_REGS_NONE,         /* no register model: the face is incomplete */
    PMU_EMUL_REGS_ARCH_PERFMON, /* Intel architectural perfmon (SDM Vol.3B 21.2), Zhaoxin's too */
    PMU_EMUL_REGS_AMD_CORE,     /* AMD core counters (APM Vol.2 13.2) */
    PMU_EMUL_REGS_KNC,          /* Knights Corner (KNC PMU 327357-001 1.4) */
};

struct pmu_emul_face {
    /* --- CPUID: what the emulated CPU answers besides its signature (the emulated kind's) --- */
    const char *vendor;     /* leaf 0 EBX, EDX, ECX: 12 characters */
    bool arch_perfmon_leaf; /* leaf 0AH from the emulated kind's version and counters */
    bool pdcm;              /* 01H:ECX[15] from version 2: IA32_PERF_CAPABILITIES (FW_WRITE, LBR and PEBS formats) */
    bool pebs;              /* PEBS may be presented: the Debug Store 01H:EDX[21], ECX[2,4], the PEBS MSRs */
    bool ext_leaf;          /* leaf 23H, (7,1):EAX[8] ArchPerfmonExt from version 6 (or a hybrid part's) */
    bool arch_lbr;          /* an Architectural LBR may be presented (07H:EDX[19], leaf 1CH) */
    /* Extended leaves: 0 leaves 8000_0000H as the CPU answers it; else its vendor string there too and at least this
     * maximum extended leaf. */
    u32 max_ext_leaf;
    bool perfctr_core;      /* 8000_0001H ECX[23] PerfCtrExtCore */
    bool perfmon_v2;        /* 8000_0022H EAX[0] PerfMonV2, EBX[3:0] counters; LbrExtV2 may be presented */
    /* Whose event catalog (pmu/event_catalog.h) has parts this kind may present (pmu_part=); VENDOR_UNKNOWN: none. */
    enum cpu_vendor catalog_vendor;

    /* --- Events --- */
    const struct pmu_emul_event *events;   /* ended by a NULL name */
    struct pmu_emul_encoding instructions; /* retired instructions (what pmu_fault=overcount adds to) */
    struct pmu_emul_encoding fixed[4];     /* what each fixed counter counts (kinds with fixed counters) */

    /* --- MSRs: the kind's PMU registers, which go to the model under pmu=emulated --- */
    const struct pmu_emul_msr_block *msrs;
    u32 msrs_len;
    /* Its LBR's registers (optional: none); with route_lbr every kind's LBR registers go to the model, which #GPs
     * those this part lacks, as a hypervisor that does not virtualize them. */
    const struct pmu_emul_msr_block *lbr_msrs;
    u32 lbr_msrs_len;
    bool route_lbr;
    bool debugctl;          /* IA32_DEBUGCTL (its freeze bits) belongs to the model */
    /* The Debug Store's and PEBS's registers (optional: none). */
    const struct pmu_emul_msr_block *pebs_msrs;
    u32 pebs_msrs_len;

    /* --- Register model --- */
    enum pmu_emul_regs regs;
    bool k7_aliases;        /* the K7 MSRs alias PerfCtrExtCore counters 0-3 (AMD) */
    /* Architectural perfmon: a write to IA32_PMCx sets the counter's full width, instead of bits 31:0 sign-extended
     * (SDM Vol.3B 21.2.6, the architectural rule). */
    bool pmc_full_width;
};
