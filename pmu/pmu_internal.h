/* Shared between pmu/pmu.c and the per-kind files (kind_intel.c, kind_amd.c, kind_knc.c); not
 * part of the pmu.h interface. */
#pragma once
#include "pmu/pmu.h"

/* The P6-style event-select fields every kind shares (SDM Vol.3B 21.2.1.1 Figure 21-1; AMD APM Vol.2
 * 13.2.1 Figure 13-7; KNC PMU Table 1-5). */
#define EVSEL_EVENT 0xffull
#define EVSEL_UMASK_SHIFT 8
#define EVSEL_USR (1ull << 16)
#define EVSEL_OS (1ull << 17)
#define EVSEL_EDGE (1ull << 18)
#define EVSEL_PC (1ull << 19)     /* Intel pin control (reserved on AMD and KNC) */
#define EVSEL_INT (1ull << 20)
#define EVSEL_ANY (1ull << 21)    /* Intel v3+ AnyThread; KNC thread-count mode; reserved on AMD */
#define EVSEL_EN (1ull << 22)
#define EVSEL_INV (1ull << 23)
#define EVSEL_CMASK_SHIFT 24
#define AMD_EVSEL_EVENT_HI_SHIFT 32 /* EventSelect[11:8] in bits 35:32 (AMD family 10h and later) */

static inline u64 pmu_width_mask(u32 width)
{
    return width >= 64 ? ~0ull : (1ull << width) - 1;
}

static inline bool pmu_gp_exists(const struct pmu *p, u32 gp)
{
    return gp < PMU_FIXED_BIT && pmu_counter_exists(p, gp);
}

static inline bool pmu_fixed_exists(const struct pmu *p, u32 fixed)
{
    return fixed < PMU_FIXED_BIT && pmu_counter_exists(p, PMU_FIXED_BIT + fixed);
}

/* Set or clear the EN bit of every existing GP select: global_set where there is no global control (Intel
 * v1, AMD legacy / PerfCtrExtCore). Reads each select and writes it only when EN changes. */
int pmu_set_select_enables(struct pmu *p, u64 bits);
int pmu_get_select_enables(struct pmu *p, u64 *bits);

/* The kind-specific lines of pmu_caps_describe() (pmu/describe.c) the descriptors name. */
void pmu_describe_intel(const struct pmu_caps *c, struct strbuf *sb);
void pmu_describe_amd(const struct pmu_caps *c, struct strbuf *sb);
void pmu_describe_amd_v2(const struct pmu_caps *c, struct strbuf *sb); /* pmu_describe_amd and PerfMonV2's line */

/* The backends of the kind files; a kind that follows another's programming model binds that one. */
extern const struct pmu_backend pmu_backend_intel;
extern const struct pmu_backend pmu_backend_amd;
extern const struct pmu_backend pmu_backend_knc;
