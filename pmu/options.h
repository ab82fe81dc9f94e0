/* The PMU's command-line options: pmi=, pmi_delivery= (docs/options.md). */
#pragma once
#include "lib/cmdline.h"

struct pmu_options {
    u32 pmi_variant;  /* pmi=unmask-stopped|late|early: enum pmi_variant (0 = unmask-stopped) */
    u32 pmi_delivery; /* pmi_delivery=fixed|nmi|both: enum pmi_delivery; both by default */
};

extern const struct opt_table pmu_option_table;
const struct pmu_options *pmu_options(void);

/* pmi_delivery=: the delivery modes the pmi checks use. BOTH (0, the default) runs each delivery-dependent check once
 * with the fixed vector and once in NMI mode, so a PMI delivered in the wrong mode is caught on every machine. */
enum pmi_delivery { PMI_DELIVERY_BOTH, PMI_DELIVERY_FIXED, PMI_DELIVERY_NMI };
/* Whether that option value runs mode `nmi`. */
static inline bool pmi_delivery_runs(u32 delivery, bool nmi)
{
    return delivery == PMI_DELIVERY_BOTH || delivery == (nmi ? PMI_DELIVERY_NMI : PMI_DELIVERY_FIXED);
}
