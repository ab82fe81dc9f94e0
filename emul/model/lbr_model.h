/* The register model's Last Branch Records (part of struct pmu_model, emul/model/pmu_model.h): the MSRs of the LBR
 * pmu/lbr.c discovers on the kind's CPUID (the one map, as for the counters), and the model's own reading of the
 * manuals for what they record: which branches the filter keeps, in which order, how each format encodes a record
 * (lbr_model.c cites each rule). pmu/lbr.c decodes what this encodes: the two are written apart on purpose. */
#pragma once
#include "lib/types.h"
#include "pmu/lbr.h"

/* One retired instruction as the LBR sees it: a taken branch (kind >= 0) from `from` to `to`, ending at `to_cpl`. */
struct lbr_model_branch {
    u64 from, to;
    int kind; /* enum lbr_branch; -1: not a taken branch (it only advances the cycle count) */
    u8 to_cpl;
    bool mispred;
};

struct lbr_model {
    struct lbr_caps c;
    u64 from[LBR_MAX_DEPTH], to[LBR_MAX_DEPTH], info[LBR_MAX_DEPTH];
    u64 tos;        /* legacy: the most recent entry */
    u64 select;     /* legacy/AMD LBR_SELECT, Arch IA32_LBR_CTL */
    u64 depth;      /* Arch: IA32_LBR_DEPTH; others: c.depth */
    u64 extn_cfg;   /* AMD DBG_EXTN_CFG */
    u32 cycles;     /* instructions retired since the last record: the model's cycle count (docs/model.md) */
    u64 recorded;   /* records written (for the missing-record fault) */
};

void lbr_model_init(struct lbr_model *l, const struct lbr_caps *c);
void lbr_model_reset(struct lbr_model *l);
/* Whether `msr` is one of this LBR's registers (IA32_DEBUGCTL excepted: the PMU model holds it). */
bool lbr_model_owns(const struct lbr_model *l, u32 msr);
/* 0 or HW_GP (pmu/access.h). */
int lbr_model_rdmsr(struct lbr_model *l, u32 msr, u64 *val);
int lbr_model_wrmsr(struct lbr_model *l, u32 msr, u64 val);
/* The LBR is recording: its enable (DEBUGCTL.LBR, IA32_LBR_CTL.LBREn or DBG_EXTN_CFG.LBRV2EN) is set. */
bool lbr_model_enabled(const struct lbr_model *l, u64 debugctl);
/* The i-th youngest record's raw FROM, TO and INFO (zeros beyond the depth), as a PEBS record's LBR group copies it. */
void lbr_model_youngest(const struct lbr_model *l, u32 i, u64 *from, u64 *to, u64 *info);
/* Record b if the filter keeps it; `faults` are enum pmu_model_fault bits (the LBR ones act here). */
void lbr_model_branch(struct lbr_model *l, const struct lbr_model_branch *b, u32 faults);
