/* Processor Event-Based Sampling: whether this CPU has it, which record format, which counters, the DS save area's
 * layout, and how to decode a record. Portable (no MSR or memory access of its own: the kernel reads the MSRs and
 * hands the buffer over, tests/pebs/suite_pebs.c), compiled into the host tests. Sources: SDM Vol.3B "Debug Store
 * (DS) Mechanism" (the 64-bit DS save area), "Processor Event Based Sampling" per generation (record formats
 * 0-3), adaptive PEBS (format 4+, PERF_CAPABILITIES.PEBS_BASELINE); Linux arch/x86/events/intel/ds.c
 * (intel_ds_init, setup_pebs_*_sample_data), arch/x86/include/asm/perf_event.h (struct pebs_basic, pebs_gprs,
 * PEBS_DATACFG_*), arch/x86/include/asm/intel_ds.h (struct debug_store). */
#pragma once
#include "lib/cpuid_source.h"
#include "lib/types.h"
#include "pmu/pmu_caps.h"

#define MSR_IA32_MISC_ENABLE 0x1a0
#define MISC_ENABLE_PEBS_UNAVAIL (1ull << 12) /* SDM Vol.4 IA32_MISC_ENABLE[12] */
#define MSR_IA32_PEBS_ENABLE 0x3f1
#define MSR_PEBS_DATA_CFG 0x3f2
#define MSR_IA32_DS_AREA 0x600

/* MSR_PEBS_DATA_CFG groups (Linux PEBS_DATACFG_*), LBR entries - 1 in bits 31:24. */
#define PEBS_CFG_MEMINFO (1ull << 0)
#define PEBS_CFG_GP (1ull << 1)
#define PEBS_CFG_XMMS (1ull << 2)
#define PEBS_CFG_LBRS (1ull << 3)
#define PEBS_CFG_LBR_SHIFT 24
/* The per-counter Adaptive_Record enables: IA32_PERFEVTSELx bit 34, IA32_FIXED_CTR_CTRL bit 32 + 4x. */
#define PEBS_EVSEL_ADAPTIVE (1ull << 34)
#define PEBS_FIXED_ADAPTIVE(x) (1ull << (32 + 4 * (x)))

/* The 64-bit DS save area (Linux struct debug_store). */
#define DS_PEBS_BASE 0x20
#define DS_PEBS_INDEX 0x28
#define DS_PEBS_ABS_MAX 0x30
#define DS_PEBS_THRESHOLD 0x38
#define DS_PEBS_RESET_GP 0x40 /* + 8n */
#define DS_SIZE 0x1c0          /* through the format-5 fixed resets (0x140 + 16 * 8) */

struct pebs_caps {
    bool present;
    const char *why_none;
    u32 format;          /* IA32_PERF_CAPABILITIES[11:8] */
    bool adaptive;       /* PEBS_BASELINE [14]: adaptive records, every counter (fixed ones from bit 32) */
    bool trap;           /* PEBS_TRAP [6] */
    bool timing;         /* PEBS_TIMING_INFO [17]: the format field shrinks to bits 31:0 */
    u64 counters;        /* unified bits (pmu/pmu.h) of the counters that can sample */
    u32 reset_fixed;     /* DS offset of fixed counter 0's reset value (0x80, or 0x140 from format 5) */
    u32 basic_size;      /* a record without groups: 0x90, 0xB0, 0xC0, 0xC8, or the adaptive basic group 0x20 */
};

/* PEBS on the CPU `caps` describes: Intel, CPUID.01H:EDX[21] DS and ECX[2] DTES64 (Linux intel_ds_init uses the
 * 64-bit layout only), IA32_PERF_CAPABILITIES read (caps->perf_caps), IA32_MISC_ENABLE[12] PEBS_UNAVAIL clear when
 * it could be read (misc_rc 0). */
void pebs_discover(const struct pmu_caps *caps, const struct cpuid_source *src, int misc_rc, u64 misc_enable,
                   struct pebs_caps *out);

/* The event a check samples for a generic event (instructions or branches retired) on this part, and where: the PEBS
 * events the vendor lists for the part (intel/perfmon "PEBS" field; Linux arch/x86/events/intel/ds.c
 * *_pebs_event_constraints), not the architectural ones, which Sandy Bridge to Skylake do not list as PEBS events.
 * precise: the counter has precise distribution (PDIR / PDist: the record is on the overflowing event or the next,
 * no shadow); otherwise the record may come some events late (the "PEBS shadow"). False, with *why, where the part
 * samples no such event. */
enum pmu_generic_event;
struct pebs_event {
    u16 event;
    u8 umask;
    u64 counters; /* unified bits */
    bool precise;
    const char *name, *source;
};
bool pebs_event_for(const struct pmu_caps *caps, const struct pebs_caps *pc, int generic, struct pebs_event *out,
                    const char **why);

/* The DS offset of counter `bit`'s reset value (unified bit), 0 when it has none. */
u32 pebs_reset_offset(const struct pebs_caps *c, u32 bit);
/* A record's size: the fixed formats' size, or the adaptive groups `data_cfg` selects (adaptive: the counter's
 * Adaptive_Record bit is set; otherwise the basic group alone). */
u32 pebs_record_size(const struct pebs_caps *c, u64 data_cfg, bool adaptive);

struct pebs_record {
    u32 size;                 /* bytes this record takes */
    u64 eventing_ip;          /* the instruction that caused the event (format 2+, adaptive basic group) */
    bool has_eventing_ip;
    u64 ip_after;             /* the instruction after it: the RIP field of formats 0-3, the GPR group's RIP */
    bool has_ip_after;
    u64 rax;                  /* RAX after the instruction (formats 0-3, the GPR group) */
    bool has_gprs;
    u64 applicable;           /* format 3 and adaptive: the counters it is for; formats 1-2: GLOBAL_STATUS */
    bool has_applicable;
    u64 tsc;
    bool has_tsc;
    u64 group;                /* adaptive: the record-format field (MSR_PEBS_DATA_CFG, or 0 for a basic record) */
    u32 lbr_entries, lbr_nonzero; /* adaptive LBR group: entries, and those with FROM or TO non-zero */
};
/* Decode the record at p (avail bytes left in the buffer). Returns false, with *why, for a record that does not
 * fit or whose adaptive size field disagrees with its groups. */
bool pebs_decode(const struct pebs_caps *c, const u8 *p, u64 avail, struct pebs_record *out, const char **why);
