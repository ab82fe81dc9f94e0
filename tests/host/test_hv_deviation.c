/* lib/hv_deviation: which hypervisor CPUID names, and which observations are exactly a known hypervisor APIC
 * deviation (a TODO naming it) rather than a FAIL. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "lib/hv_deviation.h"

static struct cpu_ident ident(bool hv, const char *sig)
{
    struct cpu_ident id;
    memset(&id, 0, sizeof id);
    id.hypervisor_bit = hv;
    strncpy(id.hv_signature, sig, sizeof id.hv_signature - 1);
    return id;
}

static void kind_from_signature(void **state)
{
    (void)state;
    struct cpu_ident id = ident(true, "KVMKVMKVM");
    assert_int_equal(hv_kind_of(&id), HV_KVM);
    id = ident(true, "TCGTCGTCGTCG");
    assert_int_equal(hv_kind_of(&id), HV_QEMU_TCG);
    id = ident(true, "Microsoft Hv");
    assert_int_equal(hv_kind_of(&id), HV_OTHER);
    /* No hypervisor bit: a signature left over means nothing. */
    id = ident(false, "KVMKVMKVM");
    assert_int_equal(hv_kind_of(&id), HV_NONE);
}

static void esr_illegal_vector(void **state)
{
    (void)state;
    /* KVM: vector 2 reached IRR, the ESR stayed 0 (seen under KVM, PVM host, 2026-11). */
    const char *d = hv_dev_esr_illegal_vector(HV_KVM, 0, true, 0);
    assert_non_null(d);
    assert_non_null(strstr(d, "KVM deviation"));
    assert_non_null(strstr(d, "arch/x86/kvm/lapic.c"));
    d = hv_dev_esr_illegal_vector(HV_QEMU_TCG, 0, true, 1);
    assert_non_null(strstr(d, "QEMU TCG deviation"));
    assert_non_null(strstr(d, "hw/intc/apic.c"));
    /* An ESR bit set: the error was latched, whatever else went wrong is a FAIL. */
    assert_null(hv_dev_esr_illegal_vector(HV_KVM, 0x40, true, 0));
    assert_null(hv_dev_esr_illegal_vector(HV_KVM, 0x20, false, 1));
    /* Neither accepted nor delivered: not this deviation. */
    assert_null(hv_dev_esr_illegal_vector(HV_KVM, 0, false, 0));
    /* Bare metal and unknown hypervisors: never excused. */
    assert_null(hv_dev_esr_illegal_vector(HV_NONE, 0, true, 1));
    assert_null(hv_dev_esr_illegal_vector(HV_OTHER, 0, true, 1));
}

static void tpr_low_nibble(void **state)
{
    (void)state;
    static const u8 w[] = {0x00, 0x35, 0x5A, 0xA7};
    static const u8 lost[] = {0x00, 0x30, 0x50, 0xA0};
    static const u8 some_lost[] = {0x00, 0x35, 0x50, 0xA7};
    static const u8 same[] = {0x00, 0x35, 0x5A, 0xA7};
    static const u8 other[] = {0x00, 0x30, 0x40, 0xA0}; /* 0x5A read 0x40: not a lost low nibble */
    const char *d = hv_dev_tpr_low_nibble(HV_KVM, VENDOR_AMD, w, lost, 4);
    assert_non_null(d);
    assert_non_null(strstr(d, "svm.c sync_cr8_to_lapic"));
    assert_non_null(hv_dev_tpr_low_nibble(HV_KVM, VENDOR_HYGON, w, some_lost, 4));
    assert_null(hv_dev_tpr_low_nibble(HV_KVM, VENDOR_AMD, w, same, 4));
    assert_null(hv_dev_tpr_low_nibble(HV_KVM, VENDOR_AMD, w, other, 4));
    /* Intel KVM (VMX TPR shadow keeps all 8 bits) and other hypervisors: a FAIL. */
    assert_null(hv_dev_tpr_low_nibble(HV_KVM, VENDOR_INTEL, w, lost, 4));
    assert_null(hv_dev_tpr_low_nibble(HV_QEMU_TCG, VENDOR_AMD, w, lost, 4));
    assert_null(hv_dev_tpr_low_nibble(HV_NONE, VENDOR_AMD, w, lost, 4));
}

static void init_lint0(void **state)
{
    (void)state;
    const char *d = hv_dev_init_lint0(HV_KVM, true, 0x700);
    assert_non_null(d);
    assert_non_null(strstr(d, "kvm_lapic_reset"));
    assert_null(hv_dev_init_lint0(HV_KVM, false, 0x700));  /* an AP: KVM masks it */
    assert_null(hv_dev_init_lint0(HV_KVM, true, 0x8700));  /* not exactly KVM's value */
    assert_null(hv_dev_init_lint0(HV_QEMU_TCG, true, 0x700));
    assert_null(hv_dev_init_lint0(HV_NONE, true, 0x700));
}

static void esr_illegal_register(void **state)
{
    (void)state;
    const char *d = hv_dev_esr_illegal_register(HV_KVM, 0);
    assert_non_null(d);
    assert_non_null(strstr(d, "arch/x86/kvm/lapic.c"));
    assert_null(hv_dev_esr_illegal_register(HV_KVM, 0x80)); /* logged: no deviation */
    assert_null(hv_dev_esr_illegal_register(HV_QEMU_TCG, 0));
    assert_null(hv_dev_esr_illegal_register(HV_NONE, 0));
}

static void lvt_status_ro(void **state)
{
    (void)state;
    static const u32 reg[] = {0x320, 0x350, 0x360, 0x370};
    /* What KVM gave under kvm_pvm (xAPIC mode): bit 12 everywhere, bit 14 too on LINT0/LINT1. */
    static const u32 kvm[] = {0x1000, 0x5000, 0x5000, 0x1000};
    static const u32 none[] = {0, 0, 0, 0};
    static const u32 timer_irr[] = {0x4000, 0, 0, 0}; /* Remote IRR kept in the timer entry: not KVM's masks */
    const char *d = hv_dev_lvt_status_ro(HV_KVM, reg, kvm, 4);
    assert_non_null(d);
    assert_non_null(strstr(d, "LVT_MASK"));
    assert_null(hv_dev_lvt_status_ro(HV_KVM, reg, none, 4));
    assert_null(hv_dev_lvt_status_ro(HV_KVM, reg, timer_irr, 4));
    d = hv_dev_lvt_status_ro(HV_QEMU_TCG, reg, timer_irr, 4);
    assert_non_null(d);
    assert_non_null(strstr(d, "hw/intc/apic.c"));
    assert_null(hv_dev_lvt_status_ro(HV_NONE, reg, kvm, 4));
    assert_null(hv_dev_lvt_status_ro(HV_OTHER, reg, kvm, 4));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kind_from_signature),
        cmocka_unit_test(esr_illegal_vector),
        cmocka_unit_test(tpr_low_nibble),
        cmocka_unit_test(init_lint0),
        cmocka_unit_test(esr_illegal_register),
        cmocka_unit_test(lvt_status_ro),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
