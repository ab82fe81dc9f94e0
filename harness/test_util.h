/* Helpers shared by the apic and x2apic suites: interrupt-register bits, bounded waits with interrupts
 * enabled, and the platform test that lets a check name a known emulator deviation. */
#pragma once
#include "kernel/traps.h"
#include "lib/types.h"

struct check;

/* A handler for the length of a check: irq_borrow installs it and keeps the one it replaced (another module's
 * permanent handler, such as the PMI code's NMI handler on vector 2); irq_give_back puts that one back. A check
 * that runs alone (check_alone) installs it for every CPU, one saved handler per vector; a check running beside
 * other CPUs' checks installs it for its own CPU only (irq_register_local), and the runner drops it at the end of
 * the check in any case. */
void irq_borrow(u8 vector, irq_handler_t h);
void irq_give_back(u8 vector);

/* TSC ticks per microsecond; 3000 when the TSC frequency is unknown, which only lengthens timeouts. */
u64 tsc_per_us(void);

/* How long to wait for an interrupt that must arrive. Generous: under TCG on a busy host the vCPU thread can
 * be descheduled for several host time slices; it costs nothing when the interrupt comes. */
#define ARRIVAL_TIMEOUT_US 100000

/* Enable interrupts until *counter reaches want or timeout_us passes, then keep them enabled settle_us more
 * (so a duplicate delivery is counted too). IF is left as it was found. Returns *counter. Under a hypervisor
 * the CPU halts through it while the APIC timer is free to wake it (apic_timer_sleep), and spins otherwise. */
u32 wait_with_interrupts(volatile u32 *counter, u32 want, u64 timeout_us, u64 settle_us);

/* Whether this is QEMU's TCG (CPUID 0x40000000 signature "TCGTCGTCGTCG"): its local APIC is QEMU's own model
 * (hw/intc/apic.c), whose known deviations the checks report as TODO. Anywhere else they fail. */
bool platform_is_qemu_tcg(void);

/* Logical processors in this package: EBX[15:0] of the last valid CPUID.0BH level; 0 without leaf 0BH. */
u32 cpuid_logical_per_package(void);
/* Called when CPUID.01H:EBX[31:24] (ebx >> 24) disagrees with apic_id & 0xFF and nothing else in the check
 * failed: notes the per-package count, and marks the check TODO when it is QEMU TCG and the mismatch is
 * exactly QEMU's unmasked per-package count overflowing EBX[23:16] into [31:24]. */
void todo_if_qemu_cpuid1_overflow(struct check *c, u32 ebx, u32 apic_id);

/* A YAML note listing "key:value" pairs in chunks that fit a note (e.g. deliveries per APIC ID). */
struct pair_notes {
    struct check *c;
    const char *key;
    char buf[200];
    u32 len, part;
};
void pair_notes_begin(struct pair_notes *pn, struct check *c, const char *key);
void pair_notes_add(struct pair_notes *pn, u32 k, u64 v);
void pair_notes_end(struct pair_notes *pn);
