/* Suite "pmu_enum": each thread's PMU as CPUID describes it, printed; identical across threads except by
 * hybrid core type. An AMD guest without PerfCtrExtCore is first probed for the K7 counters
 * (pmu_probe_amd_legacy, kernel/pmu_cpu.c), and the evidence says what the probe saw. Without a PMU every check
 * SKIPs with that evidence: never a PASS without a PMU. */
#include <string.h>

#include "kernel/pmu_cpu.h"
#include "kernel/report.h"
#include "kernel/smp.h"
#include "tests/framework.h"

/* The capabilities, as lines of YAML evidence, and the SDM/APM ranges they must fall in. */
static void discover_check(struct check *c)
{
    struct pmu_cpu *pc = this_pmu_cpu();
    char buf[1536];
    struct strbuf sb;
    sb_init(&sb, buf, sizeof(buf));
    pmu_caps_describe(&pc->caps, &sb);
    u32 line = 0;
    for (const char *p = buf; *p; line++) {
        const char *nl = strchr(p, '\n');
        int n = nl ? (int)(nl - p) : (int)strlen(p);
        char key[16], val[200];
        k_snprintf(key, sizeof(key), "caps %u", line + 1);
        k_snprintf(val, sizeof(val), "%.*s", n, p);
        check_note(c, key, "%s", val);
        p += n + (nl ? 1 : 0);
    }
    for (u32 i = 0; i < pc->caps.num_quirks; i++) {
        char key[16];
        k_snprintf(key, sizeof(key), "quirk %u", i + 1);
        check_note(c, key, "%s", pc->caps.quirks[i]);
    }
    SKIP_WITHOUT_PMU(c, pc);
    const struct pmu_caps *k = &pc->caps;
    expect_true(c, "GP counters", k->num_gp >= 1 && k->num_gp <= 64, "1..64", "%u", k->num_gp);
    /* Counter widths: KNC 40 bits (KNC PMU 1.4), AMD 48 (APM Vol.2 13.2.1), Intel as CPUID says, at least
     * 32 (the legacy write width, SDM Vol.3B 21.2.6) and at most 64. */
    expect_true(c, "GP width", k->gp_width >= 32 && k->gp_width <= 64, "32..64 bits", "%u", k->gp_width);
    if (k->num_fixed)
        expect_true(c, "fixed width", k->fixed_width >= 32 && k->fixed_width <= 64, "32..64 bits", "%u",
                    k->fixed_width);
    if (k->pdcm)
        expect_eq(c, "IA32_PERF_CAPABILITIES readable (PDCM=1)", 0, (u64)pc->perf_caps_rc);
    if (k->version_beyond_known)
        check_todo(c, "architectural perfmon v%u is newer than the newest known (v%u): decoded with v%u rules",
                   k->version, PMU_INTEL_NEWEST_KNOWN_VERSION, PMU_INTEL_NEWEST_KNOWN_VERSION);
}

/* Same PMU on every thread of the same core type (the reference is the first thread of that type). */
static void consistent_check(struct check *c)
{
    struct pmu_cpu *pc = this_pmu_cpu();
    SKIP_WITHOUT_PMU(c, pc);
    const struct pmu_cpu *ref = NULL;
    u32 ref_idx = 0;
    for (u32 i = 0; i < smp.count && !ref; i++)
        if (pmu_cpus[i].discovered && pmu_cpus[i].id.core_type == pc->id.core_type) {
            ref = &pmu_cpus[i];
            ref_idx = i;
        }
    check_note(c, "reference", "cpu%u (core type 0x%02x)", ref_idx, pc->id.core_type);
    const struct pmu_caps *a = &ref->caps, *b = &pc->caps;
    expect_eq_dec(c, "kind", a->kind, b->kind);
    expect_eq_dec(c, "version", a->version, b->version);
    expect_eq(c, "GP counter mask", a->gp_mask, b->gp_mask);
    expect_eq_dec(c, "GP width", a->gp_width, b->gp_width);
    expect_eq(c, "fixed counter mask", a->fixed_mask, b->fixed_mask);
    expect_eq_dec(c, "fixed width", a->fixed_width, b->fixed_width);
    expect_eq(c, "architectural events", a->arch_events, b->arch_events);
    expect_eq_dec(c, "TSX (CPUID.(7,0):EBX HLE/RTM)", a->tsx, b->tsx);
    expect_eq(c, "IA32_PERF_CAPABILITIES", a->perf_caps.raw, b->perf_caps.raw);
}

static const struct check_def pmu_enum_checks[] = {
    {"discover", discover_check, SCOPE_PER_CPU, NO_FAULT},
    {"consistent", consistent_check, SCOPE_PER_CPU, NO_FAULT},
};

const struct suite suite_pmu_enum = {"pmu_enum", "PMU capabilities from CPUID on every thread", true,
                                     SUITE_CHECKS(pmu_enum_checks)};
