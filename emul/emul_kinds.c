/* The kinds of pmu=emulated:KIND and the capabilities each one's model implements (see emul/emul.h). Counter
 * counts and widths are those of a representative part of each generation (SDM Vol.3B 21.2.1-21.2.6; AMD APM
 * Vol.2 13.2; KNC PMU 1.4), kept small where the manuals allow so single-stepped runs stay cheap. */
#include "emul/emul.h"

#include <string.h>

#include "lib/cpu_ident.h"
#include "pmu/event_catalog.h"
#include "pmu/kind.h"
#include "pmu/lbr.h"
#include "pmu/pebs.h"

/* CPUID.01H:EAX signatures (SDM Vol.2A CPUID Table 3-8 encoding; APM Vol.3 CPUID Fn0000_0001 EAX):
 * Intel family 6 model 55H (Skylake-SP), KNC family 0BH model 01H, AMD family 10h (K10), 15h, 19h. */
#define SIG_INTEL_SKX 0x00050654u
#define SIG_KNC 0x00000b10u
#define SIG_AMD_10H 0x00100f42u
#define SIG_AMD_15H 0x00600f12u
#define SIG_AMD_19H 0x00a00f10u
/* The hybrid kinds present the signatures of the dumps their cores are copied from: Core i3-1220P (Alder Lake-P,
 * 6/0x9A) and Core Ultra 5 125H (Meteor Lake, 6/0xAA), tests/host/data/PROVENANCE.md. */
#define SIG_ADL_P 0x000906a4u
#define SIG_MTL 0x000a06a4u
/* Zhaoxin KaiXian KX-U5581 (KX-5000), family 7 model 1BH stepping 5, as VirtualBox's CPU database records it
 * (src/VBox/VMM/VMMR3/cpus/ZHAOXIN_KaiXian_KX_U5581_1_8GHz.h, leaf 1 EAX): the part Linux zhaoxin_pmu_init calls ZXD
 * (arch/x86/events/zhaoxin/core.c, family 7 model 0x1b: "ZXD events"). */
#define SIG_ZX_KX5000 0x000107b5u

/* Alder Lake-P, tests/host/data/intel_alderlake_p_hybrid_000906A4.txt: CPU 0 (P-core, Golden Cove) and CPU 1 (E-core,
 * Gracemont) answer the same CPUID.0AH, 07300605 00000000 00000007 00008603 (v5, 6 GP x 48 bits, 7 events, fixed
 * 0-2 x 48 bits, AnyThread deprecated), and differ in CPUID.1AH:EAX, 40000001 and 20000001. Linux intel_pmu_init()
 * (arch/x86/events/intel/core.c, INTEL_ALDERLAKE/_L: hybrid_big_small) gives the E-core PMU what 0AH says and the
 * P-core PMU 2 more GP counters and 1 more fixed counter ("num_counters + 2", "num_counters_fixed + 1"; since 6.11
 * "cntr_mask64 <<= 2 | 0x3", "fixed_cntr_mask64 <<= 1 | 0x1"): P-core 8 GP + fixed 0-3 (topdown slots), E-core 6 GP
 * + fixed 0-2. pmu_discover() applies the same widening (pmu/discover_intel.c adl_hybrid_quirk). */
static const struct pmu_emul_core adl_cores[] = {
    {.name = "P-core (Golden Cove)", .leaf_1a = 0x40000001u, .leaf_0a = {0x07300605u, 0, 0x7, 0x8603},
     .num_gp = 8, .fixed_mask = 0xf, .arch_events = 0x7f},
    {.name = "E-core (Gracemont)", .leaf_1a = 0x20000001u, .leaf_0a = {0x07300605u, 0, 0x7, 0x8603},
     .num_gp = 6, .fixed_mask = 0x7, .arch_events = 0x7f},
};

/* Meteor Lake, tests/host/data/intel_meteorlake_hybrid_000A06A4.txt: CPUID.0AH 07300805 00000000 00000007 00008603
 * on both (v5, 8 GP x 48 bits), CPUID.(7,1):EAX[8] ArchPerfmonExt set, and leaf 23H per core type: subleaf 0 EAX 0xB
 * (subleaves 0, 1, 3), ECX 6 on the E-core; subleaf 1 GP 0xFF, fixed 0xF (P-core, Redwood Cove) or 0x7 (E-core,
 * Crestmont); subleaf 3 events 0xDFF (P: the seven, topdown slots, backend, frontend, retiring) or 0x7F (E). The
 * low-power E-cores of the SoC tile are Crestmont too and answer as the E-cores, CPUID.1AH:EAX 20000002 included:
 * the Arrow Lake-U dump (tests/host/data/intel_arrowlake_u_hybrid_000B0650.txt, 6/0xB5, "from PMU's perspective the
 * same as the Meteor Lake", Linux "perf/x86/intel: Add Arrow Lake U support") shows its "Intel Atom LP" core #12
 * with the E-core's 1AH, 0AH and 23H answers, and Linux gives Meteor Lake two PMUs (hybrid_big_small; in
 * find_hybrid_pmu_for_cpu() every Atom thread of a two-PMU part takes the small one). Only Arrow Lake-H's low-power
 * E-cores (Crestmont beside Skymont E-cores, native model 2 against 3) are a third kind. */
static const struct pmu_emul_core mtl_cores[] = {
    {.name = "P-core (Redwood Cove)", .leaf_1a = 0x40000002u, .leaf_0a = {0x07300805u, 0, 0x7, 0x8603},
     .leaf_23 = {{0xb, 0, 0, 0}, {0xff, 0xf, 0, 0}, {0}, {0xdff, 0, 0, 0}}, .num_gp = 8, .fixed_mask = 0xf,
     .arch_events = 0xdff},
    {.name = "E-core (Crestmont)", .leaf_1a = 0x20000002u, .leaf_0a = {0x07300805u, 0, 0x7, 0x8603},
     .leaf_23 = {{0xb, 0, 0x6, 0}, {0xff, 0x7, 0, 0}, {0}, {0x7f, 0, 0, 0}}, .num_gp = 8, .fixed_mask = 0x7,
     .arch_events = 0x7f},
    {.name = "LP E-core (Crestmont)", .leaf_1a = 0x20000002u, .leaf_0a = {0x07300805u, 0, 0x7, 0x8603},
     .leaf_23 = {{0xb, 0, 0x6, 0}, {0xff, 0x7, 0, 0}, {0}, {0x7f, 0, 0, 0}}, .num_gp = 8, .fixed_mask = 0x7,
     .arch_events = 0x7f},
};

/* One row per kind, named fields only: a field left out reads 0, which is "none" for every optional feature (no
 * fixed counters, no LBR, no PEBS, not hybrid). Each row begins `{.name = "KIND", .kind = PMU_KIND_` on one line:
 * tools/emul-check.sh finds the kinds `make check` runs by it. */
static const struct pmu_emul_kind kinds[] = {
    /* v1: 2 GP counters of 40 bits, no fixed counters (SDM 21.2.1; Core Solo/Duo) */
    {.name = "intel-v1", .kind = PMU_KIND_INTEL_ARCH, .version = 1, .num_gp = 2, .gp_width = 40,
     .signature = SIG_INTEL_SKX},
    /* v2: 2 GP + 3 fixed, 40 bits (SDM 21.2.2; Core 2) */
    {.name = "intel-v2", .kind = PMU_KIND_INTEL_ARCH, .version = 2, .num_gp = 2, .gp_width = 40, .num_fixed = 3,
     .fixed_width = 40, .signature = SIG_INTEL_SKX, .lbr = EMUL_LBR_LEGACY, .lbr_format = LBR_FMT_EIP_FLAGS,
     .pebs = true, .pebs_format = 0},
    /* v3: 4 GP + 3 fixed, 48 bits (SDM 21.2.3; Nehalem) */
    {.name = "intel-v3", .kind = PMU_KIND_INTEL_ARCH, .version = 3, .num_gp = 4, .gp_width = 48, .num_fixed = 3,
     .fixed_width = 48, .signature = SIG_INTEL_SKX, .lbr = EMUL_LBR_LEGACY, .lbr_format = LBR_FMT_EIP_FLAGS,
     .pebs = true, .pebs_format = 1},
    /* v4: 4 GP + 3 fixed, 48 bits, full-width writes (SDM 21.2.4; Skylake) */
    {.name = "intel-v4", .kind = PMU_KIND_INTEL_ARCH, .version = 4, .num_gp = 4, .gp_width = 48, .num_fixed = 3,
     .fixed_width = 48, .fw_write = true, .signature = SIG_INTEL_SKX, .lbr = EMUL_LBR_LEGACY,
     .lbr_format = LBR_FMT_INFO, .pebs = true, .pebs_format = 3},
    /* v5: 4 GP + 4 fixed (topdown slots), 48 bits (SDM 21.2.5; Ice Lake) */
    {.name = "intel-v5", .kind = PMU_KIND_INTEL_ARCH, .version = 5, .num_gp = 4, .gp_width = 48, .num_fixed = 4,
     .fixed_width = 48, .fw_write = true, .signature = SIG_INTEL_SKX, .lbr = EMUL_LBR_LEGACY,
     .lbr_format = LBR_FMT_INFO, .pebs = true, .pebs_format = 4, .pebs_baseline = true},
    /* v6: counters enumerated through leaf 23H, v6 MSR aliases (SDM 21.2.6 / leaf 23H) */
    {.name = "intel-v6", .kind = PMU_KIND_INTEL_ARCH, .version = 6, .num_gp = 4, .gp_width = 48, .num_fixed = 4,
     .fixed_width = 48, .fw_write = true, .signature = SIG_INTEL_SKX, .lbr = EMUL_LBR_ARCH, .pebs = true,
     .pebs_format = 5, .pebs_baseline = true},
    /* K7-style PerfEvtSel0-3 / PerfCtr0-3, 48 bits (APM 13.2.1) */
    {.name = "amd-legacy", .kind = PMU_KIND_AMD_LEGACY, .num_gp = 4, .gp_width = 48, .signature = SIG_AMD_10H},
    /* PerfCtrExtCore: 6 counters at C001_0200 (APM 13.2.1, CPUID 8000_0001 ECX[23]) */
    {.name = "amd-core-ext", .kind = PMU_KIND_AMD_CORE_EXT, .num_gp = 6, .gp_width = 48, .signature = SIG_AMD_15H},
    /* PerfMonV2: global control/status (APM 13.2.2, CPUID 8000_0022) */
    {.name = "amd-v2", .kind = PMU_KIND_AMD_PERFMON_V2, .num_gp = 6, .gp_width = 48, .signature = SIG_AMD_19H,
     .lbr = EMUL_LBR_AMD},
    /* Knights Corner: 2 counters of 40 bits (KNC PMU 1.4) */
    {.name = "knc", .kind = PMU_KIND_KNC, .num_gp = 2, .gp_width = 40, .signature = SIG_KNC},
    /* Zhaoxin KX-5000 (ZXD): CPUID.0AH 07300402 00000000 00000000 00000603 in the same VirtualBox file, perfmon v2 with
     * 4 GP x 48 bits, the seven events available, 3 fixed x 48 bits ("like Intel Architectural PerfMon-v2", Linux
     * zhaoxin/core.c); no PERF_CAPABILITIES, LBR or PEBS (pmu/kind_zhaoxin.c's face). */
    {.name = "zhaoxin-kx5000", .kind = PMU_KIND_ZHAOXIN, .version = 2, .num_gp = 4, .gp_width = 48, .num_fixed = 3,
     .fixed_width = 48, .signature = SIG_ZX_KX5000},
    /* Hybrid: Alder Lake (P-cores, then E-cores) and Meteor Lake (P-cores, E-cores, low-power E-cores), v5, 48-bit
     * counters, full-width writes (PERF_CAPABILITIES.FW_WRITE, as on every part since Skylake). */
    {.name = "adl", .kind = PMU_KIND_INTEL_ARCH, .version = 5, .gp_width = 48, .fixed_width = 48, .fw_write = true,
     .signature = SIG_ADL_P, .cores = adl_cores, .num_cores = ARRAY_SIZE(adl_cores), .lbr = EMUL_LBR_ARCH,
     .pebs = true, .pebs_format = 4, .pebs_baseline = true},
    {.name = "mtl", .kind = PMU_KIND_INTEL_ARCH, .version = 5, .gp_width = 48, .fixed_width = 48, .fw_write = true,
     .signature = SIG_MTL, .cores = mtl_cores, .num_cores = ARRAY_SIZE(mtl_cores), .ext_leaf = true,
     .lbr = EMUL_LBR_ARCH, .pebs = true, .pebs_format = 5, .pebs_baseline = true},
};

const struct pmu_emul_kind *pmu_emul_kind_find(const char *name)
{
    for (u32 i = 0; i < ARRAY_SIZE(kinds); i++)
        if (!strcmp(kinds[i].name, name))
            return &kinds[i];
    return NULL;
}

const struct pmu_emul_face *pmu_emul_face_of(const struct pmu_emul_kind *k)
{
    return pmu_kind_get(k->kind)->emul;
}

bool pmu_emul_kind_complete(const struct pmu_emul_kind *k, const char **why)
{
    const struct pmu_emul_face *f = pmu_emul_face_of(k);
    bool fixed = k->num_fixed || k->num_cores;
    *why = !k->name || !k->name[0]                        ? "it has no name"
           : !k->signature                               ? "it presents no signature (CPUID.01H:EAX)"
           : !f                                          ? "its PMU kind has no emulated face (pmu/kind_*.c .emul)"
           : !f->vendor || strlen(f->vendor) != 12       ? "its face has no 12-character CPUID vendor string"
           : !f->events || !f->events[0].name            ? "its face lists no events"
           : !f->instructions.event                      ? "its face names no retired-instructions event"
           : fixed && !f->fixed[0].event                 ? "its face says nothing of what the fixed counters count"
           : !f->msrs || !f->msrs_len                    ? "its face has no MSR map"
           : f->regs == PMU_EMUL_REGS_NONE               ? "its face names no register model"
                                                         : NULL;
    return !*why;
}

/* The names of the table's rows, in its order, joined once (the table is the one list of kinds). */
const char *pmu_emul_kind_list(void)
{
    static char list[ARRAY_SIZE(kinds) * 24];
    if (!list[0]) {
        size_t n = 0;
        for (u32 i = 0; i < ARRAY_SIZE(kinds); i++) {
            size_t len = strlen(kinds[i].name);
            if (n + len + 3 > sizeof(list))
                break;
            if (i) {
                memcpy(list + n, ", ", 2);
                n += 2;
            }
            memcpy(list + n, kinds[i].name, len);
            n += len;
        }
        list[n] = 0;
    }
    return list;
}

u32 pmu_emul_signature(u32 family, u32 model, u32 stepping)
{
    u32 base = family >= 0xF ? 0xF : family, ext = family >= 0xF ? family - 0xF : 0;
    return (stepping & 0xF) | (model & 0xF) << 4 | base << 8 | (model >> 4 & 0xF) << 16 | (ext & 0xFF) << 20;
}

bool pmu_emul_kind_as_part(const struct pmu_emul_kind *k, const struct catalog_part *p, struct pmu_emul_kind *out,
                           const char **why)
{
    u32 model = 0, stepping = 0;
    *out = *k;
    if (k->num_cores) {
        *why = "a hybrid kind presents the parts of its own cores";
        return false;
    }
    const struct pmu_emul_face *f = pmu_emul_face_of(k);
    if (f->catalog_vendor == VENDOR_UNKNOWN || p->vendor != f->catalog_vendor) {
        *why = "the part is another vendor's than the kind's";
        return false;
    }
    if (p->core_type) {
        *why = "the part is one core type of a hybrid CPU: use the hybrid kinds (adl, mtl)";
        return false;
    }
    if (!event_catalog_part_example(p, &model, &stepping)) {
        *why = "the part's catalog row matches no model";
        return false;
    }
    out->signature = pmu_emul_signature(p->family, model, stepping);
    /* The counters the part has: Linux's counter.json, else every counter the part's file lists; fixed counters only
     * where the kind has them (architectural perfmon v2 and later). The register model holds at most 8 GP and the
     * 4 fixed counters pmu_discover() accepts from CPUID.0AH. */
    if (!f->arch_perfmon_leaf)
        return true; /* AMD: the kind's counters (4 legacy, 6 with PerfCtrExtCore: every Zen part has the 6) */
    u32 gp = p->num_gp ? p->num_gp : p->gp_all != 0xffffffffu ? popcount64(p->gp_all) : k->num_gp;
    out->num_gp = gp > 8 ? 8 : gp ? gp : k->num_gp;
    if (k->num_fixed && p->num_fixed)
        out->num_fixed = p->num_fixed > 4 ? 4 : p->num_fixed;
    return true;
}

u32 pmu_emul_kind_count(void)
{
    return ARRAY_SIZE(kinds);
}

const struct pmu_emul_kind *pmu_emul_kind_at(u32 i)
{
    return i < ARRAY_SIZE(kinds) ? &kinds[i] : NULL;
}

u32 pmu_emul_core_of(const struct pmu_emul_kind *k, u32 index, u32 count)
{
    if (!k->num_cores || index >= count)
        return 0;
    return (u32)((u64)index * k->num_cores / count);
}

const struct pmu_emul_core *pmu_emul_core_at(const struct pmu_emul_kind *k, u32 core)
{
    return core < k->num_cores ? &k->cores[core] : NULL;
}

/* A CPU that answers no leaf of its own: the kind's leaves (emul/emul_cpuid.c) are then all there is. */
static bool no_leaves(void *ctx, u32 leaf, u32 subleaf, struct cpuid_regs *r)
{
    (void)ctx, (void)leaf, (void)subleaf, (void)r;
    return false;
}

/* The kind's CPUID alone, as kind of core `core` answers it (ctx holds its state: keep it while src is used). */
static void kind_cpuid(const struct pmu_emul_kind *k, u32 core, struct pmu_emul_cpuid *ctx, struct cpuid_source *src)
{
    static const struct cpuid_source blank = {no_leaves, NULL};
    *ctx = (struct pmu_emul_cpuid){k, &blank, false, core};
    *src = (struct cpuid_source){pmu_emul_cpuid_query, ctx};
}

/* The capabilities are what pmu_discover() finds on the kind's CPUID: the kind descriptors (pmu/kind_*.c) are the
 * one description of each kind's counters and MSR map, for the hardware path and the model alike. */
void pmu_emul_caps(const struct pmu_emul_kind *k, u32 core, struct pmu_caps *out)
{
    struct pmu_emul_cpuid ctx;
    struct cpuid_source src;
    kind_cpuid(k, core, &ctx, &src);
    struct cpu_ident id;
    cpu_ident_decode(&id, &src);
    pmu_discover(out, &id, &src);
    /* The kernel reads PERF_CAPABILITIES and hands it over. */
    if (out->pdcm)
        pmu_caps_apply_perf_capabilities(out, pmu_emul_perf_capabilities(k));
}

u64 pmu_emul_perf_capabilities(const struct pmu_emul_kind *k)
{
    /* SDM Vol.4 IA32_PERF_CAPABILITIES: LBR format [5:0], PEBS_TRAP [6], PEBS_ARCH_REG [7], PEBS record format
     * [11:8], FW_WRITE [13], PEBS_BASELINE [14]. */
    u64 v = (k->fw_write ? BIT(13) : 0) | (k->lbr == EMUL_LBR_LEGACY ? (k->lbr_format & 0x3f) : 0);
    if (k->pebs)
        v |= BIT(6) | BIT(7) | (u64)(k->pebs_format & 0xf) << 8 | (k->pebs_baseline ? BIT(14) : 0);
    return v;
}

void pmu_emul_lbr(const struct pmu_emul_kind *k, u32 core, struct lbr_caps *out)
{
    struct pmu_emul_cpuid ctx;
    struct cpuid_source src;
    kind_cpuid(k, core, &ctx, &src);
    struct pmu_caps caps;
    pmu_emul_caps(k, core, &caps);
    lbr_discover(&caps, &src, out);
    /* No LBR: none at all, whatever the model number would have (its MSRs #GP). */
    if (k->lbr == EMUL_LBR_NONE)
        *out = (struct lbr_caps){.kind = LBR_NONE, .why_none = "", .source = "", .stride = 1};
}

void pmu_emul_pebs(const struct pmu_emul_kind *k, u32 core, struct pebs_caps *out)
{
    struct pmu_emul_cpuid ctx;
    struct cpuid_source src;
    kind_cpuid(k, core, &ctx, &src);
    struct pmu_caps caps;
    pmu_emul_caps(k, core, &caps);
    /* IA32_MISC_ENABLE[12] as the model answers it: clear with PEBS. */
    pebs_discover(&caps, &src, 0, k->pebs ? 0 : MISC_ENABLE_PEBS_UNAVAIL, out);
}

bool pmu_emul_kind_with_pebs(const struct pmu_emul_kind *k, const char *pebs, struct pmu_emul_kind *out,
                             const char **why)
{
    *out = *k;
    if (!strcmp(pebs, "none")) {
        out->pebs = false;
        out->pebs_format = 0;
        out->pebs_baseline = false;
        return true;
    }
    bool a = pebs[0] && pebs[1] == 'a' && !pebs[2];
    if (!(pebs[0] >= '0' && pebs[0] <= '5' && (!pebs[1] || a))) {
        *why = "expects none, or a record format 0..5, with 'a' (4a, 5a) for adaptive records";
        return false;
    }
    if (a && pebs[0] < '4') {
        *why = "adaptive records (PEBS_BASELINE) come with record format 4 or later";
        return false;
    }
    if (!pmu_emul_face_of(k)->pebs || k->version < 2) {
        *why = "PEBS is Intel's, its format in IA32_PERF_CAPABILITIES, which the emulated PMU presents from v2 on";
        return false;
    }
    out->pebs = true;
    out->pebs_format = (u32)(pebs[0] - '0');
    out->pebs_baseline = a;
    return true;
}

bool pmu_emul_kind_with_lbr(const struct pmu_emul_kind *k, const char *lbr, struct pmu_emul_kind *out, const char **why)
{
    *out = *k;
    const struct pmu_emul_face *f = pmu_emul_face_of(k);
    if (!strcmp(lbr, "none")) {
        out->lbr = EMUL_LBR_NONE;
    } else if (!strcmp(lbr, "arch")) {
        if (!f->arch_lbr) {
            *why = "Architectural LBR is Intel's";
            return false;
        }
        out->lbr = EMUL_LBR_ARCH;
    } else if (!strcmp(lbr, "amd")) {
        if (!f->perfmon_v2) {
            *why = "LbrExtV2 needs PerfMonV2 (Linux amd_pmu_lbr_init: version >= 2): kind amd-v2";
            return false;
        }
        out->lbr = EMUL_LBR_AMD;
    } else if (!strncmp(lbr, "legacy:", 7) && lbr[7] >= '0' && lbr[7] <= '7' && !lbr[8]) {
        if (!f->pdcm || k->version < 2) {
            *why = "a model-specific LBR's format is in IA32_PERF_CAPABILITIES, which the emulated PMU presents "
                   "from Intel v2 on (CPUID.01H:ECX[15] PDCM)";
            return false;
        }
        out->lbr = EMUL_LBR_LEGACY;
        out->lbr_format = (u32)(lbr[7] - '0');
    } else {
        *why = "expects none, arch, amd or legacy:N with N a format 0..7";
        return false;
    }
    return true;
}
