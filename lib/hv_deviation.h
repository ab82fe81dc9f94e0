/* Known local-APIC deviations of hypervisors that a check reports as TODO (FAIL with deviations=strict):
 * which hypervisor this is, from CPUID 0x40000000 (never from timing), and whether what a check observed is
 * exactly a documented behaviour of that hypervisor's APIC model. Each decision returns the sentence naming the
 * hypervisor, the behaviour and its source, or NULL when the observation is not that deviation (the FAIL
 * stands). Portable: pure decisions, host-tested in tests/host/test_hv_deviation.c. */
#pragma once
#include "lib/cpu_ident.h"
#include "lib/types.h"

enum hv_kind { HV_NONE, HV_QEMU_TCG, HV_KVM, HV_OTHER };

/* From CPUID.1:ECX[31] and the CPUID 0x40000000 signature: "TCGTCGTCGTCG" QEMU TCG, "KVMKVMKVM" KVM
 * (Linux Documentation/virt/kvm/x86/cpuid.rst). */
enum hv_kind hv_kind_of(const struct cpu_ident *id);

/* apic/esr_illegal_vector: a self-IPI with vector 2 that reached IRR or was delivered while the ESR kept
 * bits 5 and 6 clear (esr is what was read back). QEMU TCG: hw/intc/apic.c; KVM: arch/x86/kvm/lapic.c. */
const char *hv_dev_esr_illegal_vector(enum hv_kind hv, u32 esr, bool irr, u32 delivered);

/* apic/tpr: pairs of (value written to TPR, value read back from TPR or PPR with nothing in service). The
 * deviation: KVM on AMD (SVM) reloads TPR from CR8 at every #VMEXIT (arch/x86/kvm/svm/svm.c
 * sync_cr8_to_lapic), so TPR[3:0] written through the APIC register reads back 0. It applies when at least
 * one pair differs and every pair that differs reads exactly written & 0xF0. */
const char *hv_dev_tpr_low_nibble(enum hv_kind hv, enum cpu_vendor vendor, const u8 *written, const u8 *read,
                                  u32 n);

/* init/apic_reset: LVT LINT0 read after INIT of the boot CPU (IA32_APIC_BASE.BSP set). KVM's kvm_lapic_reset
 * (arch/x86/kvm/lapic.c) sets LINT0 to ExtINT, unmasked (0x700), on the BSP at INIT as at RESET
 * (KVM_X86_QUIRK_LINT0_REENABLED); the SDM says masked (Vol.3A 11.4.7.1, 11.4.7.3). */
const char *hv_dev_init_lint0(enum hv_kind hv, bool bsp, u32 lint0);

/* apic/esr_register, apic/esr_clear (xAPIC mode): a read of a reserved register offset left ESR bit 7 (Illegal
 * Register Address) clear (esr is what the write+read gave). KVM: arch/x86/kvm/lapic.c logs no such error
 * (kvm_lapic_reg_read refuses the offset, apic_mmio_read returns 0 and sets nothing). */
const char *hv_dev_esr_illegal_register(enum hv_kind hv, u32 esr);

/* apic/lvt_status_ro (xAPIC mode): what reads back of the read-only bits 12 (Delivery Status) and 14 (Remote IRR)
 * after writing them as 1, per LVT entry (reg: its APIC register offset, 0x350/0x360 LINT0/LINT1). QEMU TCG
 * (hw/intc/apic.c) stores every bit written; KVM (arch/x86/kvm/lapic.c LVT_MASK, LINT_MASK) stores bit 12 in
 * every entry and bit 14 in LINT0/LINT1. Applies when some bit read back and, for KVM, only bits its masks keep. */
const char *hv_dev_lvt_status_ro(enum hv_kind hv, const u32 *reg, const u32 *back, u32 n);
