#include "lib/hv_deviation.h"

#include <string.h>

enum hv_kind hv_kind_of(const struct cpu_ident *id)
{
    if (!id->hypervisor_bit)
        return HV_NONE;
    if (!strcmp(id->hv_signature, "TCGTCGTCGTCG"))
        return HV_QEMU_TCG;
    /* "KVMKVMKVM\0\0\0": the string ends at the ninth byte. */
    if (!strcmp(id->hv_signature, "KVMKVMKVM"))
        return HV_KVM;
    return HV_OTHER;
}

#define ESR_SEND_ILLEGAL_VECTOR (1u << 5)
#define ESR_RECV_ILLEGAL_VECTOR (1u << 6)

const char *hv_dev_esr_illegal_vector(enum hv_kind hv, u32 esr, bool irr, u32 delivered)
{
    if (!(irr || delivered) || (esr & (ESR_SEND_ILLEGAL_VECTOR | ESR_RECV_ILLEGAL_VECTOR)))
        return NULL;
    if (hv == HV_QEMU_TCG)
        return "QEMU TCG deviation: hw/intc/apic.c does not check vectors 0-15: the self-IPI was accepted into "
               "IRR and delivered, and no ESR bit was set";
    if (hv == HV_KVM)
        return "KVM deviation: arch/x86/kvm/lapic.c never latches an illegal-vector error (writes to the ESR are "
               "ignored, __apic_accept_irq does not check vectors 0-15): the self-IPI was accepted into IRR, and "
               "no ESR bit was set";
    return NULL;
}

const char *hv_dev_tpr_low_nibble(enum hv_kind hv, enum cpu_vendor vendor, const u8 *written, const u8 *read,
                                  u32 n)
{
    if (hv != HV_KVM || (vendor != VENDOR_AMD && vendor != VENDOR_HYGON))
        return NULL;
    u32 differ = 0;
    for (u32 i = 0; i < n; i++) {
        if (read[i] == written[i])
            continue;
        if (read[i] != (written[i] & 0xF0))
            return NULL;
        differ++;
    }
    if (!differ)
        return NULL;
    return "KVM on AMD deviation: arch/x86/kvm/svm/svm.c sync_cr8_to_lapic sets TPR = (CR8 & 0xF) << 4 at every "
           "#VMEXIT while CR8 writes are not intercepted, so TPR[3:0] written through the APIC register is lost";
}

const char *hv_dev_init_lint0(enum hv_kind hv, bool bsp, u32 lint0)
{
    if (hv != HV_KVM || !bsp || lint0 != 0x700)
        return NULL;
    return "KVM deviation: arch/x86/kvm/lapic.c kvm_lapic_reset sets LVT LINT0 to ExtINT, unmasked (0x700), on "
           "the boot CPU at INIT as at RESET (KVM_X86_QUIRK_LINT0_REENABLED)";
}

#define ESR_ILLEGAL_REGISTER (1u << 7)

const char *hv_dev_esr_illegal_register(enum hv_kind hv, u32 esr)
{
    if (hv != HV_KVM || (esr & ESR_ILLEGAL_REGISTER))
        return NULL;
    return "KVM deviation: arch/x86/kvm/lapic.c never logs Illegal Register Address (ESR bit 7): a reserved "
           "offset is refused by kvm_lapic_reg_read and apic_mmio_read reads 0 without an error";
}

#define LVT_DELIVERY_STATUS (1u << 12)
#define LVT_REMOTE_IRR (1u << 14)
#define APIC_LVT_LINT0_REG 0x350u
#define APIC_LVT_LINT1_REG 0x360u

const char *hv_dev_lvt_status_ro(enum hv_kind hv, const u32 *reg, const u32 *back, u32 n)
{
    bool any = false, kvm_masks = true;
    for (u32 i = 0; i < n; i++) {
        u32 kept = LVT_DELIVERY_STATUS;
        if (reg[i] == APIC_LVT_LINT0_REG || reg[i] == APIC_LVT_LINT1_REG)
            kept |= LVT_REMOTE_IRR;
        any = any || back[i];
        kvm_masks = kvm_masks && !(back[i] & ~kept);
    }
    if (!any)
        return NULL;
    if (hv == HV_QEMU_TCG)
        return "QEMU TCG deviation: hw/intc/apic.c stores all 32 bits written to an LVT entry, so the read-only "
               "Delivery Status/Remote IRR bits read back as written";
    if (hv == HV_KVM && kvm_masks)
        return "KVM deviation: arch/x86/kvm/lapic.c keeps the bits of LVT_MASK (Delivery Status, bit 12) and, for "
               "LINT0/LINT1, LINT_MASK (Remote IRR, bit 14) as written";
    return NULL;
}
