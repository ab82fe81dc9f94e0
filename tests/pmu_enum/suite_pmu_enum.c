/* Suite "pmu_enum": each thread's PMU as CPUID describes it, printed; identical across threads of one kind of core
 * (CPUID.1AH:EAX on hybrid parts); and the PMU registers as the firmware left them. An AMD guest without
 * PerfCtrExtCore is first probed for the K7 counters (pmu_probe_amd_legacy, pmu/kernel/pmu_cpu.c), and the evidence
 * says what the probe saw. Without a PMU every check SKIPs with that evidence: never a PASS without a PMU. */
#include <string.h>

#include "pmu/kernel/pmu_cpu.h"
#include "harness/report.h"
#include "kernel/smp.h"
#include "pmu/entry_state.h"
#include "pmu/event_catalog.h"
#include "harness/framework.h"
#include "tests/pmu_enum/portable/pmu_enum_judge.h"

/* Which part of the vendor's event catalog (pmu/event_catalog.h: intel/perfmon, Linux's pmu-events for AMD) this
 * thread's family, model, stepping and core type select; the catalog's own words where it has none. */
static void note_event_catalog(struct check *c, const struct pmu_caps *k)
{
    if (k->vendor != VENDOR_INTEL && k->vendor != VENDOR_AMD)
        return;
    const struct catalog_part *p = event_catalog_find(k->vendor, k->family, k->model, k->stepping, k->core_type);
    if (p)
        check_note(c, "event catalog", "%s version %s (%s %s; %u of its %u events the oracle can construct)",
                   p->name, p->version, p->catalog, p->file, p->count, p->total);
    else
        check_note(c, "event catalog", "%s's mapfile.csv has no core row for family 0x%x model 0x%x stepping %u%s",
                   k->vendor == VENDOR_INTEL ? "intel/perfmon" : "Linux tools/perf/pmu-events", k->family, k->model,
                   k->stepping, k->core_type ? " and this core type" : "");
}

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
    note_event_catalog(c, &pc->caps);
    /* The Last Branch Records this thread's CPUID (and model, and IA32_PERF_CAPABILITIES) describe (docs/lbr.md). */
    if (pc->lbr.kind == LBR_NONE)
        check_note(c, "lbr", "none: %s", pc->lbr.why_none);
    else
        check_note(c, "lbr", "%s, %u entries, FROM at MSR 0x%x%s (%s)", lbr_kind_name(pc->lbr.kind), pc->lbr.depth,
                   pc->lbr.from, pc->lbr.kind == LBR_LEGACY ? (pc->lbr.info ? ", LBR_INFO" : "") : "", pc->lbr.source);
    if (pc->pebs.present)
        check_note(c, "pebs", "record format %u%s, counters 0x%llx", pc->pebs.format,
                   pc->pebs.adaptive ? ", adaptive (PEBS_BASELINE)" : "", (unsigned long long)pc->pebs.counters);
    else
        check_note(c, "pebs", "none: %s", pc->pebs.why_none);
    SKIP_WITHOUT_PMU(c, pc);
    const struct pmu_caps *k = &pc->caps;
    /* GP counters 1..64, widths 32..64 bits (tests/pmu_enum/portable/pmu_enum_judge.c, shared with pmu-decode --checks). */
    struct pmu_caps_bound bounds[PMU_CAPS_BOUNDS];
    for (u32 i = 0, n = pmu_caps_bounds(k, bounds); i < n; i++)
        expect_true(c, bounds[i].what, bounds[i].ok, bounds[i].expected, "%u", bounds[i].value);
    if (k->pdcm)
        expect_eq(c, "IA32_PERF_CAPABILITIES readable (PDCM=1)", 0, (u64)pc->perf_caps_rc);
    if (k->version_beyond_known)
        check_todo(c, "architectural perfmon v%u is newer than the newest known (v%u): decoded with v%u rules",
                   k->version, PMU_INTEL_NEWEST_KNOWN_VERSION, PMU_INTEL_NEWEST_KNOWN_VERSION);
}

/* Same PMU on every thread of the same kind of core (the reference is the first thread of that kind): the whole
 * CPUID.1AH:EAX (cpu_ident_kind), as smp/features groups threads. The core type alone would compare Arrow Lake-H's
 * Crestmont low-power E-cores (fixed counters 0-2) with its Skymont E-cores (fixed 0-2 and 4-6) and fail. */
static void consistent_check(struct check *c)
{
    struct pmu_cpu *pc = this_pmu_cpu();
    SKIP_WITHOUT_PMU(c, pc);
    u32 kind = cpu_ident_kind(&pc->id);
    const struct pmu_cpu *ref = NULL;
    u32 ref_idx = 0;
    for (u32 i = 0; i < smp.count && !ref; i++)
        if (pmu_cpus[i].discovered && cpu_ident_kind(&pmu_cpus[i].id) == kind) {
            ref = &pmu_cpus[i];
            ref_idx = i;
        }
    check_note(c, "reference", "cpu%u (CPUID.1AH:EAX 0x%08x: %s core, native model 0x%06x)", ref_idx, kind,
               cpu_core_type_name(pc->id.core_type), pc->id.native_model_id);
    /* The fields compared: tests/pmu_enum/portable/pmu_enum_judge.c, shared with pmu-decode --checks. */
    struct pmu_caps_field f[PMU_CAPS_COMPARED];
    pmu_caps_compare(&ref->caps, &pc->caps, f);
    for (u32 i = 0; i < PMU_CAPS_COMPARED; i++)
        (f[i].hex ? expect_eq : expect_eq_dec)(c, f[i].what, f[i].reference, f[i].value);
}

/* The registers of state s judged `which`, as "name=0xvalue" separated by blanks. */
static void list_left(const struct pmu_state *s, const struct pmu_entry_judgement *j, enum pmu_left which,
                      struct strbuf *sb)
{
    for (u32 i = 0; i < s->count; i++) {
        if (j->left[i] != which)
            continue;
        char name[32];
        pmu_state_name(&s->e[i], name, sizeof(name));
        sb_printf(sb, "%s%s=0x%llx", sb->len ? " " : "", name, (unsigned long long)s->e[i].value);
    }
}

/* Counter bits as "gp0 fixed1", or "none". */
static void list_counters(u64 bits, struct strbuf *sb)
{
    for (u32 b = 0; b < 64; b++)
        if ((bits >> b) & 1)
            sb_printf(sb, "%s%s%u", sb->len ? " " : "", PMU_IS_FIXED(b) ? "fixed" : "gp",
                      PMU_IS_FIXED(b) ? b - PMU_FIXED_BIT : b);
    if (!sb->len)
        sb_printf(sb, "none");
}

/* What Linux does with the same registers at boot (check_hw_exists(), arch/x86/events/core.c). */
static const char *linux_reaction(const struct pmu_entry_judgement *j)
{
    if (j->all_gp_enabled)
        return "check_hw_exists(): no GP counter free to test, \"Broken PMU hardware detected, using software events "
               "only\" (hypervisor: \"PMU not available due to virtualization\"): the PMU is not used";
    if (j->enabled)
        return "check_hw_exists(): \"Broken BIOS detected, complain to your hardware vendor\", \"[Firmware Bug]: the "
               "BIOS has corrupted hw-PMU resources (MSR <reg> is <value>)\"; the PMU is used anyway";
    return "check_hw_exists() tests only the enable bits (select EN, fixed OS/USR): it says nothing";
}

/* Every PMU register as the firmware left it on this thread (recorded at entry, before any check wrote one:
 * pmu/kernel/pmu_cpu.c), sorted as pmu/entry_state.h does: the YAML lists each register away from its reset value.
 * A counter left enabled is a FAIL on bare metal: firmware that leaves counters running may still use them (from
 * SMM), disturbing every count measured after this, and Linux calls it a firmware bug. Under a hypervisor it is the
 * guest firmware's or the hypervisor's vCPU reset's, a platform deviation (TODO, FAIL with deviations=strict).
 * Registers left programmed but nothing enabled are a TODO: pmu_reset clears them before each check. */
static void firmware_state_check(struct check *c)
{
    struct pmu_cpu *pc = this_pmu_cpu();
    SKIP_WITHOUT_PMU(c, pc);
    struct pmu_entry_judgement j;
    pmu_entry_judge(&pc->caps, &pc->entry, &j);
    char enabled[400], programmed[400], counting[160];
    struct strbuf se, sp, sc;
    sb_init(&se, enabled, sizeof(enabled));
    sb_init(&sp, programmed, sizeof(programmed));
    sb_init(&sc, counting, sizeof(counting));
    list_left(&pc->entry, &j, PMU_LEFT_ENABLED, &se);
    list_left(&pc->entry, &j, PMU_LEFT_PROGRAMMED, &sp);
    list_counters(j.counting, &sc);
    check_note(c, "read at entry", "%u registers, before any PMU write", pc->entry.count);
    for (u32 i = 0; i < pc->entry.count; i++) {
        if (j.left[i] == PMU_LEFT_RESET)
            continue;
        const struct pmu_state_entry *e = &pc->entry.e[i];
        char name[32];
        pmu_state_name(e, name, sizeof(name));
        if (e->rc)
            check_note(c, name, "unreadable: %s", pmu_strerror(e->rc));
        else
            check_note(c, name, "0x%llx (%s)", (unsigned long long)e->value, pmu_left_name(j.left[i]));
    }
    expect_eq_dec(c, "registers unreadable at entry", 0, j.unreadable);
    if (j.enabled || j.programmed) {
        check_note(c, "counting at entry", "%s", counting);
        check_note(c, "linux", "%s", linux_reaction(&j));
    }
    u32 failures = c->failures;
    expect_true(c, "counters left enabled by firmware", !j.enabled, "none", "%s", j.enabled ? enabled : "none");
    if (j.enabled && failures == 0 && pc->id.hypervisor_bit)
        return check_deviation(c, "hypervisor: counters enabled at entry (%s), left by the guest firmware or the "
                                  "hypervisor's vCPU reset",
                               enabled);
    if (!j.enabled && j.programmed && c->failures == 0)
        check_todo(c, "firmware left %u PMU registers programmed, none enabled: %s", j.programmed, programmed);
}

static const struct check_def pmu_enum_checks[] = {
    {"discover", discover_check, SCOPE_PER_CPU, NO_FAULT},
    {"consistent", consistent_check, SCOPE_PER_CPU, NO_FAULT},
    {"firmware_state", firmware_state_check, SCOPE_PER_CPU, NO_FAULT},
};

const struct suite suite_pmu_enum = {"pmu_enum", "PMU capabilities from CPUID on every thread", true,
                                     SUITE_CHECKS(pmu_enum_checks), .uses_pmu = true};
