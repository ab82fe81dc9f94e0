/* The apic suite (suite_apic.c, its table) is split by area: registers and ESR (apic_reg_checks.c), IPIs,
 * priorities and EOI (apic_ipi_checks.c), the timer (apic_timer_checks.c). The test vectors and the record of
 * the interrupts the checks take are in irq_record.c. */
#pragma once
#include "tests/apic/irq_record.h"
#include "lib/types.h"

struct check;

void version_check(struct check *c);
void id_check(struct check *c);
void spurious_check(struct check *c);
void lvt_rw_check(struct check *c);
void lvt_status_ro_check(struct check *c);
void lvt_pmc_check(struct check *c);
void esr_register_check(struct check *c);
void esr_clear_check(struct check *c);
void esr_illegal_vector_check(struct check *c);

void self_ipi_check(struct check *c);
void ipi_each_check(struct check *c);
void ipi_all_but_self_check(struct check *c);
void ipi_logical_check(struct check *c);
void nmi_ipi_check(struct check *c);
void tpr_check(struct check *c);
void tpr_holdoff_check(struct check *c);
void eoi_check(struct check *c);

void timer_calibration_check(struct check *c);
void timer_divide_check(struct check *c);
void timer_oneshot_check(struct check *c);
void timer_periodic_check(struct check *c);
void timer_tsc_deadline_check(struct check *c);
