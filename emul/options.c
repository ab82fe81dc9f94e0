/* The emulated PMU's options (emul/options.h, docs/options.md, docs/emulated-pmu.md): pmu=, pmu_fault=. */
#include "emul/options.h"

#include <string.h>

#include "emul/emul.h"
#include "emul/model/pmu_model.h"
#include "emul/model/uncore_model.h"
#include "lib/format.h"
#include "pmu/event_catalog.h"

static struct emul_options opts;

const struct emul_options *emul_options(void)
{
    return &opts;
}

/* pmu=hardware (default) or pmu=emulated:KIND (docs/emulated-pmu.md). */
static const char *set_pmu(void *values, const char *v)
{
    struct emul_options *o = values;
    static char why[OPT_WHY_MAX];
    if (!strcmp(v, "hardware")) {
        o->pmu_emulated[0] = '\0';
        o->pmu_emulated_kvm = 0;
        return NULL;
    }
    const char *kind = strncmp(v, "emulated:", 9) ? NULL : v + 9;
    char name[24] = "";
    const char *at = kind ? strchr(kind, '@') : NULL;
    if (kind)
        k_snprintf(name, sizeof(name), "%.*s", at ? (int)(at - kind) : (int)strlen(kind), kind);
    if (!kind || !pmu_emul_kind_find(name) || (at && strcmp(at, "@kvm"))) {
        k_snprintf(why, sizeof(why), "expects hardware or emulated:KIND[@kvm] with KIND one of %s",
                   pmu_emul_kind_list());
        return why;
    }
    const char *incomplete = NULL;
    if (!pmu_emul_kind_complete(pmu_emul_kind_find(name), &incomplete)) {
        k_snprintf(why, sizeof(why), "emulated:%s cannot be presented: %s", name, incomplete);
        return why;
    }
    k_snprintf(o->pmu_emulated, sizeof(o->pmu_emulated), "%s", name);
    o->pmu_emulated_kvm = at != NULL;
    return NULL;
}

static const char *set_pmu_fault(void *values, const char *v)
{
    struct emul_options *o = values;
    static char why[OPT_WHY_MAX];
    char bad[32];
    if (!pmu_model_faults_parse(v, &o->pmu_faults, bad, sizeof(bad))) {
        k_snprintf(why, sizeof(why), "has '%s', not one of %s", bad, pmu_model_fault_list());
        return why;
    }
    return NULL;
}

/* pmu_part=NAME: a part of the event catalog (pmu/event_catalog.h; docs/event-catalog-parts.md lists them). */
static const char *set_pmu_part(void *values, const char *v)
{
    struct emul_options *o = values;
    if (!event_catalog_part_named(v) || strlen(v) >= sizeof(o->pmu_part))
        return "is not a part of the event catalog (docs/event-catalog-parts.md lists them, e.g. sapphirerapids_core, "
               "amdzen4)";
    k_snprintf(o->pmu_part, sizeof(o->pmu_part), "%s", v);
    return NULL;
}

/* pmu_skid=N: instructions the emulated PMU's PMI comes after the overflowing one (docs/skid.md). */
static const char *set_pmu_skid(void *values, const char *v)
{
    struct emul_options *o = values;
    return opt_u32(v, &o->pmu_skid, 0, 64) ? NULL : "expects a number of instructions, 0..64";
}

/* pmu_lbr=: the emulated PMU's LBR (docs/lbr.md); whether it fits the kind is checked with the kind. */
static const char *set_pmu_lbr(void *values, const char *v)
{
    struct emul_options *o = values;
    if (strlen(v) >= sizeof(o->pmu_lbr))
        return "expects none, arch, amd or legacy:N with N a format 0..7";
    k_snprintf(o->pmu_lbr, sizeof(o->pmu_lbr), "%s", v);
    return NULL;
}

/* pmu_pebs=: the emulated PMU's PEBS record format (docs/pebs.md); whether it fits the kind is checked with it. */
static const char *set_pmu_pebs(void *values, const char *v)
{
    struct emul_options *o = values;
    if (strlen(v) >= sizeof(o->pmu_pebs))
        return "expects none, or a record format 0..5, with 'a' (4a, 5a) for adaptive records";
    k_snprintf(o->pmu_pebs, sizeof(o->pmu_pebs), "%s", v);
    return NULL;
}

/* uncore=none|off|emulated:FACE: the recognised uncore (none, the default), no uncore register touched (off), or the
 * emulated uncore of the kind whose face is FACE (docs/uncore.md). */
static const char *set_uncore(void *values, const char *v)
{
    struct emul_options *o = values;
    if (!strcmp(v, "none") || !strcmp(v, "off")) {
        o->uncore_emulated[0] = '\0';
        o->uncore_off = !strcmp(v, "off");
        return NULL;
    }
    const char *face = strncmp(v, "emulated:", 9) ? NULL : v + 9;
    const struct uncore_kind_desc *k = face ? uncore_kind_by_emul_name(face) : NULL;
    if (!k || strlen(face) >= sizeof(o->uncore_emulated))
        return "expects none, off or emulated:FACE with FACE one of wsm-ep (nhm, two packages), snb-client (snb), zen3-ccx "
               "(amd_l3_zen3, two L3 complexes)";
    k_snprintf(o->uncore_emulated, sizeof(o->uncore_emulated), "%s", face);
    o->uncore_off = 0;
    return NULL;
}

/* uncore_test=none|hardware-path (docs/uncore.md). */
static const char *set_uncore_test(void *values, const char *v)
{
    struct emul_options *o = values;
    if (strcmp(v, "none") && strcmp(v, "hardware-path"))
        return "expects none or hardware-path";
    o->uncore_hw_path = !strcmp(v, "hardware-path");
    return NULL;
}

static const char *set_uncore_fault(void *values, const char *v)
{
    struct emul_options *o = values;
    static char why[OPT_WHY_MAX];
    char bad[32];
    if (!uncore_model_faults_parse(v, &o->uncore_faults, bad, sizeof(bad))) {
        k_snprintf(why, sizeof(why), "has '%s', not one of %s", bad, uncore_model_fault_list());
        return why;
    }
    return NULL;
}

/* The messages of an option that refines the emulated kind: without pmu=emulated:KIND, and with a value that does not
 * fit the kind. Both return false, for the caller to return. */
static bool needs_kind(const char *opt, const char *what, char *err, size_t err_size)
{
    k_snprintf(err, err_size, "%s= needs pmu=emulated:KIND (%s)", opt, what);
    return false;
}

static bool misfit(const char *opt, const char *value, const struct pmu_emul_kind *k, const char *why, char *err,
                   size_t err_size)
{
    k_snprintf(err, err_size, "%s=%s does not fit pmu=emulated:%s: %s", opt, value, k->name, why);
    return false;
}

/* Faults, parts and skid exist only in the emulated PMU; a part must fit the kind. */
static bool consistent(const void *values, char *err, size_t err_size)
{
    const struct emul_options *o = values;
    const struct pmu_emul_kind *k = o->pmu_emulated[0] ? pmu_emul_kind_find(o->pmu_emulated) : NULL;
    struct pmu_emul_kind refined;
    const char *why = NULL;
    if (o->pmu_part[0]) {
        if (!k)
            return needs_kind("pmu_part", "the part is what the emulated PMU presents", err, err_size);
        if (!pmu_emul_kind_as_part(k, event_catalog_part_named(o->pmu_part), &refined, &why))
            return misfit("pmu_part", o->pmu_part, k, why, err, err_size);
    }
    if (o->pmu_lbr[0]) {
        if (!k)
            return needs_kind("pmu_lbr", "the LBR is the emulated PMU's", err, err_size);
        if (!pmu_emul_kind_with_lbr(k, o->pmu_lbr, &refined, &why))
            return misfit("pmu_lbr", o->pmu_lbr, k, why, err, err_size);
    }
    if (o->pmu_pebs[0]) {
        if (!k)
            return needs_kind("pmu_pebs", "the PEBS is the emulated PMU's", err, err_size);
        if (!pmu_emul_kind_with_pebs(k, o->pmu_pebs, &refined, &why))
            return misfit("pmu_pebs", o->pmu_pebs, k, why, err, err_size);
    }
    if (o->pmu_skid && !o->pmu_emulated[0]) {
        k_snprintf(err, err_size, "pmu_skid= needs pmu=emulated:KIND (silicon's skid is measured, not set)");
        return false;
    }
    if (o->uncore_emulated[0] && !o->pmu_emulated[0]) {
        k_snprintf(err, err_size, "uncore=emulated:%s needs pmu=emulated:KIND (the emulated uncore is reached through "
                   "the emulated PMU's MSR route; KIND one of %s)", o->uncore_emulated, pmu_emul_kind_list());
        return false;
    }
    if (o->uncore_emulated[0] && k && k->version >= 4) {
        /* SDM Vol.4 Table 2-2: IA32_PERF_GLOBAL_STATUS_SET 391H and IA32_PERF_GLOBAL_INUSE 392H from perfmon v4 are the
         * uncore global control and status of Nehalem and the 2nd generation Core (Vol.4 Tables 2-15, 2-20): one MSR
         * cannot be both. */
        static struct uncore_machine probe;
        const struct uncore_kind_desc *uk = uncore_kind_by_emul_name(o->uncore_emulated);
        const char *why2 = NULL;
        if (uk && uncore_machine_init(&probe, uk, 0, &why2) &&
            (uncore_model_has_msr(&probe.scope[0], 0x391) || uncore_model_has_msr(&probe.scope[0], 0x392))) {
            k_snprintf(err, err_size, "uncore=emulated:%s does not fit pmu=emulated:%s: its uncore registers 391H/392H "
                       "are that core PMU's (perfmon v%u) STATUS_SET/INUSE; present the machine's own core PMU "
                       "(intel-v3)", o->uncore_emulated, k->name, k->version);
            return false;
        }
    }
    if (o->uncore_hw_path && !o->uncore_emulated[0]) {
        k_snprintf(err, err_size, "uncore_test=hardware-path needs uncore=emulated:FACE (it drives the emulated uncore "
                   "through the hardware path)");
        return false;
    }
    if (o->uncore_faults && !o->uncore_emulated[0]) {
        k_snprintf(err, err_size,
                   "uncore_fault= needs uncore=emulated:FACE (faults exist only in the emulated uncore)");
        return false;
    }
    if (o->pmu_faults && !o->pmu_emulated[0]) {
        k_snprintf(err, err_size, "pmu_fault= needs pmu=emulated:KIND (faults exist only in the emulated PMU; KIND one "
                                  "of %s)", pmu_emul_kind_list());
        return false;
    }
    return true;
}

static const struct opt_desc rows[] = {
    {"pmu", "pmu=hardware|emulated:KIND",
     "the PMU under test: the CPU's own (default), or a software reference PMU of that KIND, every verdict marked "
     "emulated (docs/emulated-pmu.md)",
     set_pmu},
    {"pmu_fault", "pmu_fault=NAME[,NAME]", "make the emulated PMU misbehave on purpose (needs pmu=emulated:KIND)",
     set_pmu_fault},
    {"pmu_part", "pmu_part=NAME",
     "the emulated PMU presents this part of the event catalog: its signature, counters and events "
     "(docs/event-catalog.md; needs pmu=emulated:KIND)",
     set_pmu_part},
    {"pmu_skid", "pmu_skid=N",
     "the emulated PMU's PMI interrupts the (N+1)-th instruction after the overflowing one; 0 (default) the next "
     "(docs/skid.md; needs pmu=emulated:KIND)",
     set_pmu_skid},
    {"pmu_lbr", "pmu_lbr=none|arch|amd|legacy:N",
     "the emulated PMU's Last Branch Records instead of the kind's own: none, architectural, AMD LbrExtV2, or "
     "model-specific in format N (0..7) (docs/lbr.md; needs pmu=emulated:KIND)",
     set_pmu_lbr},
    {"pmu_pebs", "pmu_pebs=none|N|Na",
     "the emulated PMU's PEBS instead of the kind's own: none, or record format N (0..5), with 'a' (4a, 5a) for "
     "adaptive records on every counter (docs/pebs.md; needs pmu=emulated:KIND)",
     set_pmu_pebs},
    {"uncore", "uncore=none|off|emulated:FACE",
     "none (default): suite uncore checks the recognised uncore's registers on hardware, put back as found; off: it "
     "writes no uncore register (every check SKIPs); emulated:FACE: an emulated uncore PMU beside the emulated core "
     "PMU: wsm-ep (Westmere-EP, two packages), snb-client (Sandy Bridge client), zen3-ccx (Zen 3 L3, two complexes) "
     "(docs/uncore.md; needs pmu=emulated:KIND)",
     set_uncore},
    {"uncore_test", "uncore_test=none|hardware-path",
     "testing: suite uncore drives the emulated uncore through the path a recognised part takes (the probe, the "
     "packages from the topology, repeats, the clock's sanity bound, the put-back), verdicts still marked emulated "
     "(docs/uncore.md; needs uncore=emulated:FACE)",
     set_uncore_test},
    {"uncore_fault", "uncore_fault=NAME[,NAME]",
     "make the emulated uncore misbehave on purpose (the faults: docs/uncore.md; a name that is none of them is "
     "answered with the list; needs uncore=emulated:FACE)",
     set_uncore_fault},
};

const struct opt_table emul_option_table = {rows, ARRAY_SIZE(rows), &opts, sizeof(opts), NULL, consistent};
