/* Last Branch Records: which kind of LBR this CPU has, where its MSRs are, how to program its filter, and how to
 * decode a record. Portable (no MSR access: the kernel reads the MSRs, tests/lbr/suite_lbr.c), compiled into the
 * host tests. Three kinds:
 *  - legacy (model-specific) LBR: a ring of FROM/TO MSR pairs and a top-of-stack pointer (MSR_LASTBRANCH_TOS 1C9H),
 *    depth and MSR block by family-6 model (SDM Vol.3B 18.4.8 and the per-family LBR tables; Linux
 *    arch/x86/events/intel/lbr.c intel_pmu_lbr_init_core/atom/slm/nhm/snb/hsw/knl/skl), record format from
 *    IA32_PERF_CAPABILITIES[5:0] (SDM Vol.3B 18.4.8.1; Linux LBR_FORMAT_*), filter MSR_LBR_SELECT 1C8H (suppress
 *    bits), enabled by IA32_DEBUGCTL.LBR (bit 0);
 *  - Architectural LBR: CPUID.(7,0):EDX[19], leaf 1CH, IA32_LBR_CTL 14CEH (enable bits), IA32_LBR_DEPTH 14CFH,
 *    IA32_LBR_x_FROM_IP 1500H, _TO_IP 1600H, _INFO 1200H, entry 0 the youngest (SDM Vol.3B "Architectural Last
 *    Branch Records"; Linux intel_pmu_arch_lbr_init);
 *  - AMD LbrExtV2: CPUID Fn8000_0022 EAX[1], EBX[9:4] stack size, FROM/TO pairs from C001_0300H, entry 0 the
 *    youngest, LBR_SELECT C000_010EH (suppress bits), enabled by DBG_EXTN_CFG C000_010FH bit 6 (AMD APM Vol.2
 *    13.1.1.x "Last Branch Stack Extension"; Linux arch/x86/events/amd/lbr.c). */
#pragma once
#include "lib/cpuid_source.h"
#include "lib/types.h"
#include "pmu/pmu_caps.h"

#define LBR_MAX_DEPTH 64

enum lbr_kind { LBR_NONE, LBR_LEGACY, LBR_ARCH, LBR_AMD_V2 };

/* Legacy record formats, IA32_PERF_CAPABILITIES[5:0] (Linux arch/x86/events/perf_event.h LBR_FORMAT_*). */
enum lbr_format {
    LBR_FMT_32 = 0,        /* one MSR per entry: FROM in bits 31:0, TO in 63:32 */
    LBR_FMT_LIP = 1,       /* 64-bit linear addresses */
    LBR_FMT_EIP = 2,       /* 64-bit effective addresses */
    LBR_FMT_EIP_FLAGS = 3, /* FROM bit 63 MISPRED */
    LBR_FMT_EIP_FLAGS2 = 4,/* FROM bit 63 MISPRED, 62 IN_TX, 61 ABORT */
    LBR_FMT_INFO = 5,      /* flags and cycles in MSR_LBR_INFO_x (DC0H + x) */
    LBR_FMT_TIME = 6,      /* FROM bit 63 MISPRED, TO bits 63:48 cycles */
    LBR_FMT_INFO2 = 7,     /* as INFO, without the TSX bits */
};

/* The kinds of branch the filters select (SDM LBR_SELECT / IA32_LBR_CTL, AMD LBR_SELECT name the same seven). */
enum lbr_branch {
    LBR_BR_JCC,
    LBR_BR_REL_JMP,
    LBR_BR_IND_JMP,
    LBR_BR_REL_CALL,
    LBR_BR_IND_CALL,
    LBR_BR_RET,
    LBR_BR_FAR, /* far transfers, and on Arch LBR every "other branch" */
    LBR_BR_COUNT
};
#define LBR_BR_ALL ((1u << LBR_BR_COUNT) - 1)

struct lbr_caps {
    enum lbr_kind kind;
    const char *why_none; /* kind LBR_NONE: the evidence */
    const char *source;   /* where depth and MSRs come from */
    u32 depth;            /* the greatest */
    u32 depth_mask;       /* Arch LBR: CPUID.1CH:EAX[7:0], bit n = depth 8(n+1) supported */
    u32 format;           /* legacy: IA32_PERF_CAPABILITIES[5:0] */
    u32 from, to, info;   /* MSR of entry 0 of each block (info 0: none; LBR_FMT_32: FROM only) */
    u32 stride;           /* MSRs from one entry to the next in each block (AMD: FROM and TO interleave) */
    u32 tos;              /* legacy: MSR_LASTBRANCH_TOS */
    u32 select;           /* legacy and AMD: LBR_SELECT (0: none); Arch LBR: IA32_LBR_CTL */
    u32 depth_msr;        /* Arch LBR: IA32_LBR_DEPTH */
    u32 enable_msr;       /* where the enable bit is: IA32_DEBUGCTL, IA32_LBR_CTL or AMD DBG_EXTN_CFG */
    u64 enable_bit;
    bool cpl_filter, type_filter; /* the filter can select by CPL, by kind of branch */
    bool has_mispred, has_cycles, has_type; /* what a record carries */
    bool freeze;          /* IA32_DEBUGCTL.FREEZE_LBRS_ON_PMI (bit 11) freezes it (AMD: Fn8000_0022 EAX[2]) */
};

/* The LBR of the CPU `caps` describes, from its identity, CPUID (leaf 7, 1CH, 8000_0022H) and, for legacy LBR,
 * IA32_PERF_CAPABILITIES as the kernel read it (caps->perf_caps: a legacy format is only known where PDCM is). */
void lbr_discover(const struct pmu_caps *caps, const struct cpuid_source *src, struct lbr_caps *out);
const char *lbr_kind_name(enum lbr_kind k);
const char *lbr_branch_name(enum lbr_branch b);

/* A filter: record branches ending at CPL 0 (os) and above (usr), of the kinds in `types` (bits of enum lbr_branch). */
struct lbr_filter {
    bool os, usr;
    u32 types;
};
/* The value of the filter register (LBR_SELECT: suppress bits; IA32_LBR_CTL: enable bits with LBREn). */
u64 lbr_filter_value(const struct lbr_caps *c, const struct lbr_filter *f);
/* Whether a branch of kind `b` that ends at `to_cpl` is recorded under `f`: the expectation. */
bool lbr_filter_passes(const struct lbr_filter *f, enum lbr_branch b, u8 to_cpl);

/* Entry `i` (0: the most recent) of the stack: the MSR index (legacy: (TOS - i) mod depth, SDM Vol.3B 18.4.8:
 * "TOS ... points to the most recent branch"; Linux intel_pmu_lbr_read_64; Arch LBR and AMD: i). */
u32 lbr_slot(const struct lbr_caps *c, u64 tos, u32 i);

struct lbr_record {
    u64 from, to;
    bool valid;              /* AMD: TO bit 63 (a record is there); others: FROM or TO non-zero */
    bool not_retired;        /* AMD: a wrong-path entry (TO[63:62] = 01b) or erratum 1452's (TO[61] set): no retired
                              * branch, left out as Linux amd_pmu_lbr_read does */
    bool mispred;            /* where has_mispred */
    u32 cycles;              /* where has_cycles and cycles_valid */
    bool cycles_valid;
    int type;                /* Arch LBR BR_TYPE as enum lbr_branch, -1 where not carried or not one of the seven */
};
/* Decode one entry's raw FROM, TO and INFO values (INFO 0 where the kind has none). */
void lbr_decode(const struct lbr_caps *c, u64 from, u64 to, u64 info, struct lbr_record *out);
/* Arch LBR IA32_LBR_x_INFO.BR_TYPE (bits 59:56) of a kind of branch (Linux arch/x86/events/intel/lbr.c
 * ARCH_LBR_BR_TYPE_*: 0 JCC, 1 NEAR_IND_JMP, 2 NEAR_REL_JMP, 3 NEAR_IND_CALL, 4 NEAR_REL_CALL, 5 NEAR_RET, 8-15
 * other). */
u32 lbr_arch_br_type(enum lbr_branch b);
/* A distinctive state of this LBR that INIT must leave as it is (SDM Vol.3A 9.1: "during an INIT, the internal
 * caches, MSRs, MTRRs, and x87 FPU state are left unchanged"), with recording off: up to `max` registers (the first
 * entries' FROM, TO, INFO, then the filter), each with a value it can hold. Returns how many. */
u32 lbr_distinct_state(const struct lbr_caps *c, u32 *msr, u64 *value, u32 max);

/* The kind of branch of an instruction from its event classes (pmu/event_catalog.h evc_classes); -1: not a taken
 * branch. */
int lbr_branch_of_evc(u32 evc);
