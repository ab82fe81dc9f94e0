/* Suite "init"'s expectations and decisions from what an AP found after INIT (tests/init/suite_init.c), portable
 * so that the host tests hold them against the manual's values and the emulators' known behaviour
 * (tests/init/host/test_init.c). */
#pragma once
#include "lib/types.h"

/* The architectural registers the AP trampoline records on re-entry, before it changes any. */
struct init_arch_regs {
    u64 cr0, cr2, cr3, cr4, efer, dr0, dr6, dr7;
};
/* What they must hold after INIT, given CR0 before it: SDM Vol.3A Table 10-1, INIT column (Table 9-1 in editions
 * before 2024): CR0 60000010H with CD and NW unchanged (its note 2), so ET set and CD/NW as before; CR2-CR4 0,
 * DR0-DR3 0, DR6 FFFF0FF0H, DR7 00000400H; the processor starts in real mode, so EFER.LME/LMA are clear (KVM
 * arch/x86/kvm/x86.c kvm_vcpu_reset clears all of EFER on INIT too). */
void init_arch_expected(u64 cr0_before, struct init_arch_regs *want);
/* Whether CR0 reads the power-up/reset value 60000010H (CD and NW set) after INIT: what an emulator gives that runs
 * its full CPU reset on INIT (QEMU target/i386/cpu.c x86_cpu_reset_hold from do_cpu_init, target/i386/helper.c). */
bool init_cr0_is_reset_value(u64 cr0);

/* The MTRRs read before and after INIT (SDM Vol.3A Table 10-1: unchanged). */
struct init_mtrr_tally {
    u32 lost;       /* MTRRs whose value changed */
    u32 not_zeroed; /* ... to a value other than 0 */
};
void init_mtrr_count(const u64 *before, const u64 *after, u32 n, struct init_mtrr_tally *t);
/* Whether INIT lost some MTRRs and every one it lost reads 0: the pattern of an emulator that zeroes them in its
 * CPU reset and keeps none across INIT (QEMU TCG), as opposed to MTRRs that changed to other values. */
bool init_mtrr_zeroed_by_init(const struct init_mtrr_tally *t);
