/* Programming the core PMU: one API over per-kind backends (Intel architectural perfmon, AMD legacy /
 * PerfCtrExtCore / PerfMonV2, Knights Corner). Portable: all hardware access goes through struct hw_access.
 *
 * Counters are named by their bit in one overflow-status space, Intel's layout (SDM Vol.3B 21.2.2
 * IA32_PERF_GLOBAL_STATUS): general-purpose counter i is bit i, fixed counter i is bit 32 + i. AMD and KNC
 * have GP counters only (bits 0..n-1), matching their own status registers. */
#pragma once
#include "pmu/access.h"
#include "pmu/pmu_caps.h"

#define PMU_FIXED_BIT 32
#define PMU_GP(i) (i)
#define PMU_FIXED(i) (PMU_FIXED_BIT + (i))
#define PMU_IS_FIXED(bit) ((bit) >= PMU_FIXED_BIT)

/* The fields of a P6-style event select (Intel SDM Vol.3B 21.2.1.1 Figure 21-1; AMD APM Vol.2 13.2.1;
 * KNC PMU Table 1-5). */
struct pmu_evsel {
    u16 event; /* 8 bits on Intel and KNC; 12 bits on AMD (select bits 35:32 hold event[11:8]) */
    u8 umask, cmask;
    bool usr, os, edge, inv, intr, any_thread, enable;
};

/* Fixed-counter control field, 4 bits per counter in IA32_FIXED_CTR_CTRL (SDM Vol.3B 21.2.2). */
#define PMU_FIXED_OS 0x1
#define PMU_FIXED_USR 0x2
#define PMU_FIXED_ANY 0x4
#define PMU_FIXED_PMI 0x8

struct pmu;
struct pmu_backend {
    const char *name;
    /* Global enable: the counters in `bits` count, the others stop. Where the PMU has no global control
     * (Intel v1, AMD legacy/core-ext) this sets or clears the EN bit of each select instead. */
    int (*global_set)(struct pmu *p, u64 bits);
    int (*global_get)(struct pmu *p, u64 *bits);
    int (*status_read)(struct pmu *p, u64 *status);   /* overflow bits, unified layout; PMU_ENOTSUP if none */
    int (*status_clear)(struct pmu *p, u64 bits);     /* OVF_CTRL / STATUS_RESET / STATUS_CLR / KNC 0x2E */
    int (*status_set)(struct pmu *p, u64 bits);       /* Intel v4 STATUS_SET, AMD PerfMonV2 STATUS_SET */
    int (*select_write)(struct pmu *p, u32 gp, u64 raw);
    int (*select_read)(struct pmu *p, u32 gp, u64 *raw);
    int (*fixed_ctrl_write)(struct pmu *p, u32 fixed, u32 field4); /* PMU_FIXED_* bits */
    int (*counter_write)(struct pmu *p, u32 bit, u64 value);       /* honours width and write semantics */
    int (*counter_read)(struct pmu *p, u32 bit, u64 *value);       /* via RDMSR */
    int (*counter_rdpmc)(struct pmu *p, u32 bit, u64 *value);      /* via RDPMC */
    u32 (*rdpmc_index)(const struct pmu *p, u32 bit);              /* the ECX value RDPMC takes */
};

struct pmu {
    const struct pmu_caps *caps;
    const struct pmu_backend *be;
    struct hw_access *hw;
    u64 counters;     /* every counter that exists, as status bits */
    u64 gp_mask_val;  /* (1 << gp_width) - 1 */
    u64 fixed_mask_val;
    /* Added by the backends' author: */
    u64 status_bits;  /* the overflow-status bits status_clear/status_set accept (counters + documented extras) */
    const char *error; /* pmu_init failure: a static reason */
};

/* Bind a PMU to its backend from caps->kind; PMU_ENOTSUP for kind NONE. */
int pmu_init(struct pmu *p, const struct pmu_caps *caps, struct hw_access *hw);

/* Encode an event select, validating against the capabilities (e.g. AnyThread where deprecated, event bits
 * beyond the vendor's width). Returns 0 and *raw, or PMU_EINVAL with a static reason in *why. */
int pmu_evsel_encode(const struct pmu *p, const struct pmu_evsel *e, u64 *raw, const char **why);
/* Bits of the select register that are reserved on this PMU (writing them must #GP on Intel and KNC; AMD
 * ignores them instead, see pmu_reserved_faults()). The API refuses them everywhere with PMU_EINVAL. */
u64 pmu_evsel_reserved(const struct pmu *p);

/* Convenience over the backend. */
int pmu_program_gp(struct pmu *p, u32 gp, const struct pmu_evsel *e);
int pmu_program_fixed(struct pmu *p, u32 fixed, u32 field4);
/* Set the counter so that it overflows after `period` more events: 2^width - period, written with the
 * right semantics (full-width alias when PERF_CAPABILITIES.FW_WRITE, else the 32-bit sign-extended write,
 * which limits GP periods to 2^31). */
int pmu_preload(struct pmu *p, u32 bit, u64 period);
u64 pmu_counter_mask(const struct pmu *p, u32 bit); /* the value bits of that counter */
/* Stop everything and clear all overflow status: the state every check starts from. */
int pmu_reset(struct pmu *p);

/* ---- Additions (see docs/pmu-programming.md) ---- */

/* Extra overflow-status bits (Intel layout, SDM Vol.3B 21.2.4 IA32_PERF_GLOBAL_STATUS; AMD PerfMonV2 uses
 * bit 58 for LbrFrozen). status_read returns the raw register, so these may appear next to counter bits. */
#define PMU_STATUS_TRACE_TOPA_PMI 55 /* v4+ */
#define PMU_STATUS_PERF_METRICS 48   /* PERF_CAPABILITIES.PERF_METRICS */
#define PMU_STATUS_LBR_FRZ 58        /* Intel v4+, AMD PerfMonV2 with LbrExtV2 */
#define PMU_STATUS_CTR_FRZ 59        /* v4+ */
#define PMU_STATUS_ASCI 60           /* v4+ */
#define PMU_STATUS_OVF_UNCORE 61     /* v3+ */
#define PMU_STATUS_OVF_BUF 62        /* v2+: DS buffer (PEBS) */
#define PMU_STATUS_COND_CHGD 63      /* v2+: configuration changed (may read 1 after reset: Linux b292d7a10487) */

static inline bool pmu_counter_exists(const struct pmu *p, u32 bit)
{
    return bit < 64 && ((p->counters >> bit) & 1);
}
/* The PMU has an overflow-status register (Intel v2+, AMD PerfMonV2, KNC). Without one (Intel v1, AMD
 * legacy / PerfCtrExtCore) status_read/status_clear/status_set return PMU_ENOTSUP and an overflow shows only
 * in the counter: see pmu_sign_overflow(). */
bool pmu_has_status(const struct pmu *p);
/* The PMU has a global enable register (Intel v2+, AMD PerfMonV2, KNC 0x2F). */
bool pmu_has_global_ctrl(const struct pmu *p);

/* Bits of IA32_FIXED_CTR_CTRL and of the global enable register that are reserved (writing them must #GP).
 * Conservative: only bits the manuals reserve on every part with these capabilities. 0 when the register
 * does not exist. */
u64 pmu_fixed_ctrl_reserved(const struct pmu *p);
u64 pmu_global_ctrl_reserved(const struct pmu *p);
/* Whether writing a reserved bit of a PMU control register faults (#GP: Intel SDM Vol.4 "reserved bits"
 * rule; KNC) or is ignored (AMD: Linux KVM pmu.c "AMD ignores writes to reserved bits and read-only PMU
 * MSRs, whereas Intel generates #GP"). */
bool pmu_reserved_faults(const struct pmu *p);
/* Whether that answer is documented. Not for KNC: the KNC PMU document (327357-001, Table 1-5) marks select bits
 * reserved without saying that writing them faults; pmu_reserved_faults() gives the IA-32 rule as a belief, and
 * checks must observe rather than expect there. */
bool pmu_reserved_faults_documented(const struct pmu *p);
/* Decode a raw select value back into fields (the inverse of pmu_evsel_encode for legal values). */
void pmu_evsel_decode(const struct pmu *p, u64 raw, struct pmu_evsel *e);

/* Overflow without a status register: the counters in `armed`, each preloaded by pmu_preload() with a period
 * of at most 2^(width-1), have overflowed when their top bit is clear again (AMD APM Vol.2 13.2.1; Linux
 * arch/x86/events/core.c x86_pmu_handle_irq). Works on every PMU; *overflowed gets those bits. */
int pmu_sign_overflow(struct pmu *p, u64 armed, u64 *overflowed);

/* The largest period pmu_preload accepts for this counter (0 if the counter does not exist). */
u64 pmu_max_period(const struct pmu *p, u32 bit);

/* An RDPMC ECX value that names no counter of this CPU, so RDPMC with it must #GP(0) (SDM Vol.2B RDPMC; AMD
 * APM Vol.3 RDPMC). */
u32 pmu_rdpmc_invalid_index(const struct pmu *p);

/* Human-readable name of a PMU_* / HW_* return code ("ok", "#GP", "not supported", ...). */
const char *pmu_strerror(int rc);
