/* Zhaoxin (and Centaur) core PMU: "like Intel Architectural PerfMon-v2" (Linux arch/x86/events/zhaoxin/core.c,
 * which Linux selects for the vendors "CentaurHauls" and "  Shanghai  ", arch/x86/events/core.c
 * init_hw_perf_events). No public Zhaoxin manual describes it: every rule here is Linux's. Counters, selects and
 * global registers are the architectural ones (CPUID.0AH, IA32_PERFEVTSELx, IA32_PMCx, fixed counters,
 * GLOBAL_CTRL/STATUS/OVF_CTRL), programmed through the Intel backend. */
#include "pmu/pmu_internal.h"

#include "pmu/discover_internal.h"
#include "pmu/emul_face.h"
#include "pmu/kind.h"
#include "pmu/pmu_msr.h"

#include <string.h>

/* The generations Linux tells apart by family/model/stepping (zhaoxin_pmu_init). */
enum zx_gen {
    ZX_NONE,
    ZXC = 1, /* family 6 model 0x0F stepping >= 0x0E, or model 0x19 (earlier steppings of model 0x0F are Nano) */
    ZXD = 2, /* family 7 model 0x1B */
    ZXE = 4, /* family 7 model 0x3B */
};

static enum zx_gen zx_gen(const struct pmu_caps *c)
{
    if (c->family == 6 && ((c->model == 0x0f && c->stepping >= 0x0e) || c->model == 0x19))
        return ZXC;
    if (c->family == 7 && c->model == 0x1b)
        return ZXD;
    if (c->family == 7 && c->model == 0x3b)
        return ZXE;
    return ZX_NONE;
}

static const char *zx_gen_name(enum zx_gen g)
{
    return g == ZXC ? "ZXC" : g == ZXD ? "ZXD" : g == ZXE ? "ZXE" : "unknown";
}

/* cpu_ident keeps the vendor string with its blanks trimmed: "  Shanghai  " reads "Shanghai". */
static bool zhaoxin_claims(const struct cpu_ident *id)
{
    return !strcmp(id->vendor_string, "CentaurHauls") || !strcmp(id->vendor_string, "Shanghai");
}

static bool zhaoxin_discover(struct pmu_caps *caps, const struct cpu_ident *id, const struct cpuid_source *src)
{
    struct cpuid_regs r;
    /* Linux x86_model(): the extended model counts from family 6 on, for family 7 too (lib/cpu_ident.c follows
     * the SDM, family 6 and 0xF only). */
    if (id->max_leaf >= 1 && cpuid_query(src, 1, 0, &r) && id->family >= 6)
        caps->model = (((r.eax >> 16) & 0xf) << 4) | ((r.eax >> 4) & 0xf);
    if (id->max_leaf < 0x0a || !cpuid_query(src, 0x0a, 0, &r)) {
        pmu_evidence(caps, "Zhaoxin/Centaur without CPUID leaf 0x0A (max basic leaf 0x%x)", id->max_leaf);
        return false;
    }
    pmu_evidence(caps, "CPUID.0AH EAX=0x%08x EBX=0x%08x EDX=0x%08x", r.eax, r.ebx, r.edx);
    /* zhaoxin_pmu_init: at least 6 event-vector bits (ARCH_PERFMON_EVENTS_COUNT - 1) and version exactly 2. */
    if ((r.eax >> 24) < 6 || (r.eax & 0xff) != 2 || ((r.eax >> 8) & 0xff) == 0) {
        pmu_evidence(caps, "version %u, %u GP counters, event vector length %u: Linux zhaoxin_pmu_init needs "
                           "version 2 and length >= 6", r.eax & 0xff, (r.eax >> 8) & 0xff, r.eax >> 24);
        return false;
    }
    enum zx_gen g = zx_gen(caps);
    if (g == ZX_NONE) {
        pmu_evidence(caps, "family 0x%x model 0x%x stepping 0x%x: not ZXC, ZXD or ZXE (Linux zhaoxin_pmu_init)",
                     caps->family, caps->model, caps->stepping);
        return false;
    }
    caps->kind = PMU_KIND_ZHAOXIN;
    pmu_arch_perfmon_decode(caps, &r);
    pmu_arch_perfmon_msrs(caps);
    /* Linux writes (-left) & cntval_mask to IA32_PMCx itself ("For zxd/zxe, read/write operation for PMCx MSR is
     * 48 bits"; the generic x86_perf_event_set_period for every generation): the counter MSRs take the full
     * width, with no IA32_A_PMCx aliases. */
    caps->msrs.ctr0_full_width = caps->msrs.ctr0;
    pmu_evidence(caps, "%s (Linux zhaoxin_pmu_init)", zx_gen_name(g));
    if (g == ZXC)
        pmu_note_quirk(caps, "ZXC clears overflow status only while global control is enabled (Linux "
                             "zxc_pmu_ack_status): the status register is left unused, overflow is the top bit");
    return true;
}

/* Linux zx_arch_formats_attr: event 7:0, umask 15:8, edge 18, inv 23, cmask 31:24 (with USR, OS, INT, EN as
 * on Intel v2); AnyThread (21) and 63:32 reserved, as on Intel v2 (SDM Vol.3B 21.2.1.1 Figure 21-1). */
static u64 zhaoxin_evsel_reserved(const struct pmu *p)
{
    (void)p;
    return 0xffffffff00000000ull | EVSEL_ANY;
}

/* ZXC: no status register to rely on (above), so overflow is seen as the top bit clearing and the period stays
 * below 2^(w-1), as Linux's ZXC max_period = cntval_mask >> 1. */
static u64 zhaoxin_status_bits(const struct pmu *p)
{
    return zx_gen(p->caps) == ZXC ? 0 : p->counters | (1ull << PMU_STATUS_COND_CHGD);
}

static void zhaoxin_describe(const struct pmu_caps *c, struct strbuf *sb)
{
    sb_printf(sb, "pmu: Zhaoxin %s (Linux arch/x86/events/zhaoxin/core.c)\n", zx_gen_name(zx_gen(c)));
}

/* Linux zx_pmon_event_map and its per-generation changes in zhaoxin_pmu_init (codes as umask << 8 | event). */
#define ZX(name, ev, um, what) {name, ev, um, 0, 0, 0, "Linux zhaoxin/core.c " what}
const struct pmu_event pmu_zhaoxin_events[] = {
    ZX("cpu_cycles", 0x82, 0x00, "zx_pmon_event_map CPU_CYCLES 0x0082"),
    ZX("instructions", 0xc0, 0x00, "zx_pmon_event_map INSTRUCTIONS 0x00c0 (zxd_event_constraints: retired)"),
    ZX("bus_cycles", 0x83, 0x00, "zx_pmon_event_map BUS_CYCLES 0x0083"),
    ZX("cache_references", 0x15, 0x05, "zx_pmon_event_map CACHE_REFERENCES 0x0515"),
    ZX("cache_misses", 0x1a, 0x05, "zx_pmon_event_map CACHE_MISSES 0x051a"),
    ZX("branches", 0x00, 0x07, "ZXD BRANCH_INSTRUCTIONS 0x0700"),
    ZX("branch_misses", 0x09, 0x07, "ZXD BRANCH_MISSES 0x0709"),
    ZX("branches", 0x28, 0x00, "ZXE BRANCH_INSTRUCTIONS 0x0028"),
    ZX("branch_misses", 0x29, 0x00, "ZXE BRANCH_MISSES 0x0029"),
};
/* Per entry: the generations that have it (ZXC keeps only cycles) and its bit in CPUID.0AH.EBX, in the order of
 * Linux zx_arch_events_map (cycles, instructions, bus cycles, cache references, cache misses, branches, branch
 * misses), whose set bits zhaoxin_arch_events_quirk removes. */
static const struct {
    u8 gens;
    u8 cpuid_bit;
} zhaoxin_event_rules[] = {
    {ZXC | ZXD | ZXE, 0}, {ZXD | ZXE, 1}, {ZXD | ZXE, 2}, {ZXD | ZXE, 3}, {ZXD | ZXE, 4},
    {ZXD, 5},             {ZXD, 6},       {ZXE, 5},       {ZXE, 6},
};
_Static_assert(ARRAY_SIZE(zhaoxin_event_rules) == ARRAY_SIZE(pmu_zhaoxin_events), "one rule per Zhaoxin event");

static bool zhaoxin_event_available(const struct pmu_caps *caps, const struct pmu_event *e, const char **why)
{
    size_t i = (size_t)(e - pmu_zhaoxin_events);
    if (i >= ARRAY_SIZE(pmu_zhaoxin_events) || !(zhaoxin_event_rules[i].gens & zx_gen(caps))) {
        *why = "not an event of this Zhaoxin generation (Linux zhaoxin_pmu_init)";
        return false;
    }
    if (!(caps->arch_events & BIT(zhaoxin_event_rules[i].cpuid_bit))) {
        *why = "marked unavailable by CPUID.0AH.EBX (Linux zhaoxin_arch_events_quirk)";
        return false;
    }
    return true;
}

/* --- Emulated face (pmu/emul_face.h, docs/emulated-pmu.md) --- */

/* The events a retired instruction makes, named as in the table above (pmu_event_find takes the generation's
 * encoding). Linux zhaoxin/core.c zxd_event_constraints: fixed counter 0 counts 0x00c0 "retired instructions", 1
 * 0x0082 "unhalted core clock cycles", 2 0x0083 "unhalted bus clock cycles" (one rate for both here). What the branch
 * events count is nowhere stated: emulated as every retired branch and every mispredicted one, which the events
 * suite does not compare (tests/events/portable/events_spec.c). */
static const struct pmu_emul_event zhaoxin_emul_events[] = {
    {"instructions", 1u << PMU_EMUL_INSNS},     {"branches", 1u << PMU_EMUL_BRANCHES},
    {"branch_misses", 1u << PMU_EMUL_MISPREDICTS}, {"cpu_cycles", 1u << PMU_EMUL_CYCLES},
    {"bus_cycles", 1u << PMU_EMUL_CYCLES},      {NULL, 0},
};
/* The architectural registers Linux programs (x86_pmu_config_addr/event_addr, the fixed counters, GLOBAL_CTRL,
 * STATUS and OVF_CTRL): IA32_PMCx 0C1H-, IA32_PERFEVTSELx 186H-, IA32_FIXED_CTRx 309H-, 38DH-390H. */
static const struct pmu_emul_msr_block zhaoxin_emul_msrs[] = {
    {MSR_IA32_PMC0, MSR_IA32_ARCH_GP_MAX}, {MSR_IA32_PERFEVTSEL0, MSR_IA32_ARCH_GP_MAX},
    {MSR_IA32_FIXED_CTR0, 16},             {MSR_IA32_FIXED_CTR_CTRL, 4},
};

/* As the KaiXian KX-U5581 (KX-5000, ZXD) answers CPUID in VirtualBox's CPU database
 * (src/VBox/VMM/VMMR3/cpus/ZHAOXIN_KaiXian_KX_U5581_1_8GHz.h): vendor "  Shanghai  ", leaf 0AH, no PDCM
 * (01H:ECX[15] clear) and no Debug Store (01H:EDX[21] clear), so no PERF_CAPABILITIES, PEBS or LBR format; no
 * extended PMU leaves. IA32_DEBUGCTL is there with bits 0, 1 and 6-12 writable (the same file's MSR ranges): the
 * register model's architectural DEBUGCTL. No event catalog covers Zhaoxin. */
static const struct pmu_emul_face zhaoxin_emul_face = {
    .vendor = "  Shanghai  ",
    .arch_perfmon_leaf = true,
    .catalog_vendor = VENDOR_UNKNOWN,
    .events = zhaoxin_emul_events,
    .instructions = {0xc0, 0x00},
    .fixed = {{0xc0, 0x00}, {0x82, 0x00}, {0x83, 0x00}},
    .msrs = zhaoxin_emul_msrs,
    .msrs_len = ARRAY_SIZE(zhaoxin_emul_msrs),
    .route_lbr = true,
    .debugctl = true,
    .regs = PMU_EMUL_REGS_ARCH_PERFMON,
    .pmc_full_width = true, /* "For zxd/zxe, read/write operation for PMCx MSR is 48 bits" (zhaoxin_discover) */
};

const struct pmu_kind_desc pmu_kind_zhaoxin = {
    .name = "zhaoxin",
    .title = "Zhaoxin PMU (like Intel architectural performance monitoring)",
    .claims = zhaoxin_claims,
    .discover = zhaoxin_discover,
    .backend = &pmu_backend_intel,
    .evsel_reserved = zhaoxin_evsel_reserved,
    .status_bits = zhaoxin_status_bits,
    /* Linux programs it through the generic x86 path, which assumes Intel's faulting; no manual says so. */
    .reserved_faults = true,
    .reserved_faults_documented = false,
    .arch_perfmon = true,
    .describe = zhaoxin_describe,
    .events = pmu_zhaoxin_events,
    .events_len = ARRAY_SIZE(pmu_zhaoxin_events),
    .generic = {"cpu_cycles", "instructions", "branches", "branch_misses"},
    .event_available = zhaoxin_event_available,
    /* No Zhaoxin document gives reset values: Intel's architectural ones, which Linux's driver assumes. */
    .reset_expect = pmu_reset_expect_intel,
    .emul = &zhaoxin_emul_face,
};
