/* The emulated PMU's options (lib/cmdline.h, docs/options.md, docs/emulated-pmu.md): pmu=, pmu_fault=. */
#include "emul/options.h"

#include <string.h>

#include "emul/emul.h"
#include "emul/model/pmu_model.h"
#include "lib/format.h"

/* pmu=hardware (default) or pmu=emulated:KIND (docs/emulated-pmu.md). */
static const char *set_pmu(struct options *o, const char *v)
{
    static char why[200];
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
    k_snprintf(o->pmu_emulated, sizeof(o->pmu_emulated), "%s", name);
    o->pmu_emulated_kvm = at != NULL;
    return NULL;
}

static const char *set_pmu_fault(struct options *o, const char *v)
{
    static char why[240];
    char bad[32];
    if (!pmu_model_faults_parse(v, &o->pmu_faults, bad, sizeof(bad))) {
        k_snprintf(why, sizeof(why), "has '%s', not one of %s", bad, pmu_model_fault_list());
        return why;
    }
    return NULL;
}

/* Faults exist only in the emulated PMU. */
static bool consistent(const struct options *o, char *err, size_t err_size)
{
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
};

const struct opt_table emul_options = {rows, ARRAY_SIZE(rows), consistent};
