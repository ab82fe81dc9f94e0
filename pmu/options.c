/* The PMU's options (pmu/options.h, docs/options.md): the PMI handler's order and the LVT delivery mode. */
#include "pmu/options.h"

#include <string.h>

#include "pmu/pmi.h"

static struct pmu_options opts;

const struct pmu_options *pmu_options(void)
{
    return &opts;
}

static const char *set_pmi(void *values, const char *v)
{
    struct pmu_options *o = values;
    enum pmi_variant pv;
    if (!pmi_variant_parse(v, &pv))
        return "expects unmask-stopped, late or early";
    o->pmi_variant = pv;
    return NULL;
}

static const char *set_pmi_delivery(void *values, const char *v)
{
    struct pmu_options *o = values;
    static const char *const names[] = {"both", "fixed", "nmi", NULL}; /* enum pmi_delivery */
    return opt_choice(v, names, &o->pmi_delivery, "expects both, fixed or nmi");
}

static const struct opt_desc rows[] = {
    {"pmi", "pmi=unmask-stopped|late|early",
     "PMI handler order: unmask-stopped (default: unmask with counting stopped, safe on any APIC; also 'knc'), late "
     "(Linux), early",
     set_pmi},
    {"pmi_delivery", "pmi_delivery=both|fixed|nmi",
     "LVT performance-counter delivery for the pmi checks: each of them once with fixed vector 0xE8 and once with NMI "
     "(both, default), or only one",
     set_pmi_delivery},
};

const struct opt_table pmu_option_table = {rows, ARRAY_SIZE(rows), &opts, sizeof(opts), NULL, NULL};
