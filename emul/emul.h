/* The emulated PMU kinds of pmu=emulated:KIND: for each, the CPUID answers it presents, and the capabilities its
 * register model is built from, which are what pmu_discover() finds on those answers (one description of each
 * kind's counters and MSR map, pmu/kind_*.c), so discovery runs unchanged on an emulated PMU. An emulated kind is a
 * part (a row of emul/emul_kinds.c: name, signature, counters, LBR, PEBS) of a PMU kind, whose descriptor's emulated
 * face (pmu/emul_face.h: vendor, CPUID leaves, events, MSR map, register model) says how any part of it presents
 * itself; nothing here compares kinds. docs/emulated-pmu.md says how vendor and family are presented. Portable: no
 * hardware access; the kernel side is emul/kernel/pmu_emul.c. */
#pragma once
#include "lib/cpuid_source.h"
#include "pmu/emul_face.h"
#include "pmu/pmu_caps.h"

/* One kind of core of a hybrid kind (Intel, CPUID.07H:EDX[15] set): what its threads answer in the leaves that
 * differ by core type on the real part, copied from a real dump (tests/host/data/), and the counters its model
 * implements, which discovery finds from those answers (through Linux's Alder Lake P-core widening where the real
 * part needs it). */
struct pmu_emul_core {
    const char *name;       /* "P-core (Golden Cove)" */
    u32 leaf_1a;            /* CPUID.1AH:EAX: core type [31:24], native model ID [23:0] */
    u32 leaf_0a[4];         /* CPUID.0AH EAX, EBX, ECX, EDX */
    u32 leaf_23[4][4];      /* CPUID.23H subleaves 0-3 (later subleaves read 0); unused without ext_leaf */
    u32 num_gp;             /* the model's GP counters (0..num_gp-1) */
    u32 fixed_mask;         /* the model's fixed counters */
    u32 arch_events;        /* architectural events available, positive sense (0AH EBX or 23H.3 EAX) */
};

struct pmu_emul_kind {
    const char *name;       /* "intel-v4", "amd-v2", "knc", ... */
    enum pmu_kind kind;
    u32 version;            /* Intel architectural perfmon version; 0 otherwise */
    u32 num_gp, gp_width, num_fixed, fixed_width; /* hybrid kinds: the widths only, counters are per core */
    bool fw_write;          /* Intel: PERF_CAPABILITIES.FW_WRITE (full-width counter writes) */
    u32 signature;          /* CPUID.01H:EAX presented */
    /* Hybrid kinds: the kinds of core in CPU index order (pmu_emul_core_of), NULL otherwise; ext_leaf: leaf 23H
     * is enumerated (CPUID.(7,1):EAX[8] ArchPerfmonExt) on a part whose 0AH version is below 6. */
    const struct pmu_emul_core *cores;
    u32 num_cores;
    bool ext_leaf;
    /* The LBR it presents (docs/emulated-pmu.md, pmu/lbr.h): none, model-specific (its format in
     * IA32_PERF_CAPABILITIES[5:0]; depth and MSRs by the signature's model, as pmu/lbr.c finds them), architectural
     * (CPUID.(7,0):EDX[19], leaf 1CH) or AMD LbrExtV2 (Fn8000_0022 EAX[1]). pmu_lbr= overrides it. */
    enum pmu_emul_lbr { EMUL_LBR_NONE, EMUL_LBR_LEGACY, EMUL_LBR_ARCH, EMUL_LBR_AMD } lbr;
    u32 lbr_format;
    /* PEBS (docs/pebs.md, pmu/pebs.h): whether it has PEBS, the record format in IA32_PERF_CAPABILITIES[11:8], and
     * the baseline [14] (adaptive records, every counter). Presented with the 64-bit Debug Store (CPUID.01H:EDX[21],
     * ECX[2]). pmu_pebs= overrides them. */
    bool pebs;
    u32 pebs_format;
    bool pebs_baseline;
};

/* pmu_pebs=none|N|Na: kind k with PEBS record format N (0..5; a: with the adaptive baseline, formats 4 and 5)
 * instead of its own; false with *why when it does not fit (PEBS is Intel v2+'s: IA32_PERF_CAPABILITIES). */
bool pmu_emul_kind_with_pebs(const struct pmu_emul_kind *k, const char *pebs, struct pmu_emul_kind *out,
                             const char **why);
/* The PEBS the model of this kind implements (pebs_discover on the kind's CPUID and PERF_CAPABILITIES). */
struct pebs_caps;
void pmu_emul_pebs(const struct pmu_emul_kind *k, u32 core, struct pebs_caps *out);

/* pmu_lbr=none|arch|legacy:N|amd: kind k with that LBR instead of its own; false with *why when it does not fit the
 * kind (legacy needs IA32_PERF_CAPABILITIES: Intel v2+; arch an Intel kind; amd a PerfMonV2 kind). */
bool pmu_emul_kind_with_lbr(const struct pmu_emul_kind *k, const char *lbr, struct pmu_emul_kind *out, const char **why);
/* The LBR the model of this kind implements (lbr_discover on the kind's CPUID and PERF_CAPABILITIES). */
struct lbr_caps;
void pmu_emul_lbr(const struct pmu_emul_kind *k, u32 core, struct lbr_caps *out);
/* The IA32_PERF_CAPABILITIES the kind presents: FW_WRITE (bit 13), a model-specific LBR's format (bits 5:0), and
 * with PEBS its format (11:8), PEBS_TRAP (6), PEBS_ARCH_REG (7) and PEBS_BASELINE (14). */
u64 pmu_emul_perf_capabilities(const struct pmu_emul_kind *k);

/* NULL when `name` is not a kind. */
const struct pmu_emul_kind *pmu_emul_kind_find(const char *name);
/* The emulated face of k's PMU kind (its descriptor's `emul`); NULL when the kind has none. */
const struct pmu_emul_face *pmu_emul_face_of(const struct pmu_emul_kind *k);
/* Whether k can be presented: a name, a signature, and a face with a vendor string, events, an MSR map and a register
 * model (fixed-counter events where it has fixed counters). False with *why naming what is missing: pmu=emulated:KIND
 * refuses such a kind rather than present another vendor's data, and tests/host/test_pmu_kinds.c fails it. */
bool pmu_emul_kind_complete(const struct pmu_emul_kind *k, const char **why);

/* pmu_part=NAME: kind k presenting a part of the vendor's event catalog (pmu/event_catalog.h), so the events
 * suite compares that part's events: *out is k with the part's signature (the lowest family-model-stepping its
 * catalog row matches, CPUID.01H:EAX as SDM Vol.2A Figure 3-6 lays it out) and, on Intel kinds, the part's numbers
 * of general-purpose and fixed counters (Linux's counter.json, else the counters its file lists). False, with *why, when the part does not fit the kind:
 * another vendor, a hybrid kind (which presents its own parts), a part of one core type of a hybrid CPU. */
struct catalog_part;
bool pmu_emul_kind_as_part(const struct pmu_emul_kind *k, const struct catalog_part *p, struct pmu_emul_kind *out,
                           const char **why);
/* CPUID.01H:EAX for a family, model and stepping as displayed (SDM Vol.2A CPUID Figure 3-6: family above 0FH goes
 * to the extended family field; the model's high nibble to the extended model field). */
u32 pmu_emul_signature(u32 family, u32 model, u32 stepping);
/* "intel-v1, intel-v2, ...": every kind, for error messages and docs. */
const char *pmu_emul_kind_list(void);
u32 pmu_emul_kind_count(void);
const struct pmu_emul_kind *pmu_emul_kind_at(u32 i);

/* Which kind of core CPU `index` of `count` is (an index into k->cores; 0 for a kind that is not hybrid): the CPUs
 * are split into num_cores consecutive blocks, in the order of k->cores, floor(index * num_cores / count), as real
 * hybrid parts list their P-cores first and their (low-power) E-cores last. Two kinds of core: the first half
 * (rounded up) are the first kind; three: thirds, and a 2-CPU run still has two kinds (CPU 0 the first, CPU 1 the
 * second). docs/emulated-pmu.md. */
u32 pmu_emul_core_of(const struct pmu_emul_kind *k, u32 index, u32 count);
/* NULL when k is not hybrid or core is out of range. */
const struct pmu_emul_core *pmu_emul_core_at(const struct pmu_emul_kind *k, u32 core);

/* The capabilities the model of this kind implements (as pmu_discover() fills them on its CPUID); `core` is the
 * kind of core of a hybrid kind (pmu_emul_core_of), ignored otherwise. */
void pmu_emul_caps(const struct pmu_emul_kind *k, u32 core, struct pmu_caps *out);

/* A cpuid_source answering as the emulated kind: the vendor string, signature and PMU leaves (0AH, 23H,
 * 80000001H ECX[23,24,28], 80000022H) are the kind's, the hypervisor bit reads 0 (the emulated PMU behaves as
 * the manuals say for bare metal), everything else comes from `base`. Hybrid kinds also set CPUID.07H:EDX[15] and
 * answer 0AH, 1AH and 23H as their kind of core `core` does; other kinds clear the hybrid bit and read 0 in 1AH. */
struct pmu_emul_cpuid {
    const struct pmu_emul_kind *kind;
    const struct cpuid_source *base;
    bool kvm; /* presented as a KVM guest's vPMU: CPUID.01H:ECX[31] set, leaf 40000000H "KVMKVMKVM" */
    u32 core; /* hybrid kinds: the kind of core this thread presents (pmu_emul_core_of) */
};
bool pmu_emul_cpuid_query(void *ctx, u32 leaf, u32 subleaf, struct cpuid_regs *r);

/* Whether MSR `msr` belongs to the core PMU of some kind (any vendor's counter, select, global or capability
 * register; DEBUGCTL only for Intel architectural kinds, whose freeze bits the model implements). Under
 * pmu=emulated these accesses go to the model, which #GPs those its kind lacks, as such a CPU would; every
 * other MSR (APIC base, x2APIC, TSC, ...) stays with the real CPU. */
bool pmu_emul_msr_is_pmu(const struct pmu_emul_kind *k, u32 msr);

/* The emulated PMU's branch predictor (emul/emul_predict.c): static backward taken, forward not taken. `insn`
 * is a conditional branch of `len` bytes (Jcc rel8/rel32, LOOPcc, JrCXZ); true when it went the other way. */
bool pmu_emul_mispredicted(const u8 *insn, u8 len, bool taken);

/* The events the emulated PMU produces (emul/emul_events.c): the face's list (pmu/emul_face.h), ended by a NULL
 * name, each named as in the kind's event table and counting the instruction classes in `classes`; and where the
 * kind has an event catalog every event of the part's catalog file (pmu/event_catalog.h), counting its own class. */
/* Topdown slots per cycle of the modelled core: the issue width 4 of Ice Lake, whose fixed counter 3 counts
 * TOPDOWN.SLOTS (Linux events/intel/core.c: "the number of available slots for an unhalted logical processor",
 * 4 per cycle on Ice Lake). */
#define PMU_EMUL_SLOTS_PER_CYCLE 4
/* pmu_fault=skid-beyond-bound: instructions added to the declared skid (pmu_skid=). */
#define PMU_EMUL_SKID_EXCESS 4
const struct pmu_emul_event *pmu_emul_events(const struct pmu_emul_kind *k);
/* One retired instruction as the oracle classified it: its event classes (evc_classes, pmu/event_catalog.h; an
 * unclassified instruction is an instruction and nothing else) and whether the emulated predictor missed it. */
struct pmu_emul_step {
    u32 evc;
    bool mispredicted;
    u64 rip, next_rip; /* where it was, where execution went on (a taken branch's source and target, for the LBR) */
};
/* How many events of `classes` and of the catalog classes `evc` (bits of enum evc) the instruction makes (a
 * load-and-store counts 2 for LOADS|STORES). */
u32 pmu_emul_event_count(u32 classes, u32 evc, const struct pmu_emul_step *s);
