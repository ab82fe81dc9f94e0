/* Suite "apic": each CPU's local APIC against SDM Vol.3A chapter 11 — version and LVT registers, the error
 * status register, IPIs (self, to each CPU, broadcast, NMI), task/processor priority, EOI, the spurious vector
 * and the timer in its three modes. Works in xAPIC and x2APIC mode through apic/apic.h. The checks live in
 * tests/apic/apic_{reg,ipi,timer}_checks.c (see tests/apic/apic_checks.h). */
#include "tests/apic/apic_checks.h"
#include "harness/framework.h"

static const struct check_def apic_checks[] = {
    {"ipi_each", ipi_each_check, SCOPE_GLOBAL, NO_FAULT},
    {"ipi_all_but_self", ipi_all_but_self_check, SCOPE_GLOBAL, NO_FAULT},
    {"ipi_logical", ipi_logical_check, SCOPE_GLOBAL, NO_FAULT},
    {"nmi_ipi", nmi_ipi_check, SCOPE_GLOBAL, NO_FAULT},
    {"version", version_check, SCOPE_PER_CPU, NO_FAULT},
    {"id", id_check, SCOPE_PER_CPU, NO_FAULT},
    {"spurious", spurious_check, SCOPE_PER_CPU, NO_FAULT},
    /* ESR checks before anything else provokes errors: QEMU TCG never clears the ESR (esr_clear). */
    {"esr_register", esr_register_check, SCOPE_PER_CPU, NO_FAULT},
    {"esr_clear", esr_clear_check, SCOPE_PER_CPU, NO_FAULT},
    {"esr_illegal_vector", esr_illegal_vector_check, SCOPE_PER_CPU, NO_FAULT},
    {"lvt_rw", lvt_rw_check, SCOPE_PER_CPU, NO_FAULT},
    {"lvt_status_ro", lvt_status_ro_check, SCOPE_PER_CPU, NO_FAULT},
    {"lvt_pmc", lvt_pmc_check, SCOPE_PER_CPU, NO_FAULT},
    {"self_ipi", self_ipi_check, SCOPE_PER_CPU, NO_FAULT},
    {"tpr", tpr_check, SCOPE_PER_CPU, NO_FAULT},
    {"tpr_holdoff", tpr_holdoff_check, SCOPE_PER_CPU, NO_FAULT},
    {"eoi", eoi_check, SCOPE_PER_CPU, NO_FAULT},
    {"timer_calibration", timer_calibration_check, SCOPE_PER_CPU, NO_FAULT},
    {"timer_divide", timer_divide_check, SCOPE_PER_CPU, NO_FAULT},
    {"timer_oneshot", timer_oneshot_check, SCOPE_PER_CPU, NO_FAULT},
    {"timer_periodic", timer_periodic_check, SCOPE_PER_CPU, NO_FAULT},
    {"timer_tsc_deadline", timer_tsc_deadline_check, SCOPE_PER_CPU, NO_FAULT},
};

const struct suite suite_apic = {"apic", "local APIC: version, LVT, ESR, IPIs, NMI, TPR/PPR, EOI, timer", true,
                                 SUITE_CHECKS(apic_checks)};
