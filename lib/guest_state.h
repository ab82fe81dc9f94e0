/* The segment registers, TR and LDTR as VM entry sees them, and the checks VM entry makes on them (SDM Vol.3C
 * 27.3.1.2 "Checks on Guest Segment Registers"; 26.3.1.2 in editions before 2024), for a hypervisor whose VMX
 * has "unrestricted guest" 0: a state that fails one of them cannot be entered, and KVM then runs the guest
 * through its instruction emulator until the state is valid again (Linux arch/x86/kvm/vmx/vmx.c
 * guest_state_valid(), which tests a subset of these). Also the descriptor encoding pmuboot's GDTs use, so the
 * kernel and the host test build the same bytes. Portable: host-tested in tests/host/test_guest_state.c over
 * the GDTs of the built image. Virtual-8086 mode and real mode (vm86 under such a hypervisor) are not modelled:
 * pmuboot's only real-mode code is the AP trampoline's few instructions before its far jump. */
#pragma once
#include "lib/types.h"

/* The hidden part of a segment register in the VMCS format (SDM Vol.3C 25.4.1, Table 25-2): access rights
 * bits 3:0 type, 4 S, 6:5 DPL, 7 P, 12 AVL, 13 L, 14 D/B, 15 G, 16 unusable; the limit in bytes. */
struct seg_state {
    u16 sel;
    u64 base;
    u32 limit;
    u32 ar;
};
#define SEG_AR_TYPE(ar) ((ar) & 0xFu)
#define SEG_AR_S (1u << 4)
#define SEG_AR_DPL(ar) (((ar) >> 5) & 3u)
#define SEG_AR_P (1u << 7)
#define SEG_AR_L (1u << 13)
#define SEG_AR_DB (1u << 14)
#define SEG_AR_G (1u << 15)
#define SEG_AR_UNUSABLE (1u << 16)
#define SEG_AR_RESERVED 0xFFFE0F00u /* bits 11:8 and 31:17 */

enum guest_seg { GSEG_ES, GSEG_CS, GSEG_SS, GSEG_DS, GSEG_FS, GSEG_GS, GSEG_LDTR, GSEG_TR, GSEG_N };
const char *guest_seg_name(enum guest_seg s); /* "ES", "CS", ... */

struct guest_segs {
    struct seg_state s[GSEG_N];
    bool pe;    /* CR0.PE */
    bool ia32e; /* IA-32e mode guest (EFER.LMA) */
};

/* What loading selector sel from a GDT of n 8-byte entries gives (SDM Vol.3A 3.4.5, 5.4.1): base, limit
 * (scaled by G), access rights with the accessed bit set (the processor sets it on the load). A system
 * descriptor takes 16 bytes in IA-32e mode (the base's upper half in the next entry). A null selector gives an
 * unusable register (SDM Vol.3C 25.4.1), DPL = RPL (what SS gets in 64-bit mode). Returns false when sel is
 * beyond the GDT or uses the LDT. */
bool seg_load(const u64 *gdt, u32 n, u16 sel, bool ia32e, struct seg_state *out);

/* The state after RESET or INIT (SDM Vol.3A Table 10-1): selector 0 (CS F000H), base 0 (CS FFFF0000H),
 * limit FFFFH, present R/W accessed data; LDTR an LDT, TR a busy 32-bit TSS, as KVM sets them
 * (arch/x86/kvm/vmx/vmx.c vmx_vcpu_reset, seg_setup: AR 0x82 and 0x8b). */
struct seg_state seg_after_reset(enum guest_seg s);

/* SDM Vol.3C 27.3.1.2 with "unrestricted guest" 0, not virtual-8086: every rule on the selectors, bases and
 * access rights (limits: the G-bit consistency). Writes up to max messages of the form "CS: ..." into
 * out[i] (each at most GUEST_STATE_MSG bytes) and returns how many rules failed (0: VM entry accepts it). */
#define GUEST_STATE_MSG 120
u32 guest_segs_check(const struct guest_segs *g, char (*out)[GUEST_STATE_MSG], u32 max);

/* A 64-bit TSS descriptor, type 9 (available; LTR makes it busy, 11), present, DPL 0, byte-granular limit
 * (SDM Vol.3A 8.2.3, Figure 8-4): two GDT entries. */
void tss64_descriptor(u64 slot[2], u64 base, u32 limit);
