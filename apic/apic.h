/* The local APIC behind one interface: xAPIC (MMIO at IA32_APIC_BASE) or x2APIC (MSRs 0x800+).
 * Register offsets are the xAPIC MMIO offsets (SDM Vol.3A Table 11-1); in x2APIC mode offset R is MSR
 * 0x800 + R/16 (SDM Vol.3A Table 11-6). */
#pragma once
#include "lib/types.h"

enum apic_reg {
    APIC_ID = 0x020,
    APIC_VERSION = 0x030,
    APIC_TPR = 0x080,
    APIC_PPR = 0x0A0,
    APIC_EOI = 0x0B0,
    APIC_LDR = 0x0D0,
    APIC_DFR = 0x0E0,
    APIC_SVR = 0x0F0,
    APIC_ISR0 = 0x100,
    APIC_TMR0 = 0x180,
    APIC_IRR0 = 0x200,
    APIC_ESR = 0x280,
    APIC_LVT_CMCI = 0x2F0,
    APIC_ICR_LO = 0x300,
    APIC_ICR_HI = 0x310,
    APIC_LVT_TIMER = 0x320,
    APIC_LVT_THERMAL = 0x330,
    APIC_LVT_PMC = 0x340,
    APIC_LVT_LINT0 = 0x350,
    APIC_LVT_LINT1 = 0x360,
    APIC_LVT_ERROR = 0x370,
    APIC_TIMER_ICR = 0x380,
    APIC_TIMER_CCR = 0x390,
    APIC_TIMER_DCR = 0x3E0,
    APIC_SELF_IPI = 0x3F0, /* x2APIC only */
};

/* LVT bits (SDM Vol.3A 11.5.1, Figure 11-8). */
#define LVT_MASKED BIT(16)
#define LVT_DELIVERY_STATUS BIT(12)
#define LVT_DM_FIXED (0u << 8)
#define LVT_DM_SMI (2u << 8)
#define LVT_DM_NMI (4u << 8)
#define LVT_DM_EXTINT (7u << 8)
#define LVT_TIMER_PERIODIC (1u << 17)
#define LVT_TIMER_TSC_DEADLINE (2u << 17)

/* ICR (SDM Vol.3A 11.6.1, Figure 11-12). */
#define ICR_DM_FIXED (0u << 8)
#define ICR_DM_NMI (4u << 8)
#define ICR_DM_INIT (5u << 8)
#define ICR_DM_STARTUP (6u << 8)
#define ICR_DEST_LOGICAL BIT(11)
#define ICR_BUSY BIT(12)
#define ICR_ASSERT BIT(14)
#define ICR_LEVEL BIT(15)
#define ICR_SH_SELF (1u << 18)
#define ICR_SH_ALL (2u << 18)
#define ICR_SH_OTHERS (3u << 18)

#define SVR_APIC_ENABLE BIT(8)
#define MSR_APIC_BASE 0x1Bu
#define APIC_BASE_BSP BIT(8)
#define APIC_BASE_EXTD BIT(10) /* x2APIC mode */
#define APIC_BASE_EN BIT(11)

enum apic_mode { APIC_MODE_XAPIC, APIC_MODE_X2APIC };
enum apic_request { APIC_REQ_AUTO, APIC_REQ_XAPIC, APIC_REQ_X2APIC };

/* Choose the mode on the boot CPU (x2APIC when requested or, for auto, when CPUID.1:ECX[21] offers it).
 * Returns false with a message in err when the request cannot be met. */
bool apic_choose_mode(enum apic_request req, char *err, size_t err_size);
enum apic_mode apic_mode(void);
bool apic_x2apic_supported(void);
const char *apic_mode_name(enum apic_mode m);

/* Put this CPU's APIC in the chosen mode, software-enable it with the spurious vector, mask LVTs. */
void apic_cpu_init(void);

u32 apic_read(u32 reg);
void apic_write(u32 reg, u32 val);
/* Safe variants: return 0 or FIXUP_FAULT|vector (x2APIC raises #GP for reserved/read-only registers). */
int apic_read_safe(u32 reg, u32 *val);

u32 apic_id(void);           /* this CPU's APIC ID (8 bits in xAPIC mode, 32 in x2APIC mode) */
u32 apic_max_lvt(void);      /* version register bits 23:16: the number of LVT entries minus 1 */
void apic_eoi(void);
/* One bit of a 256-bit APIC register (ISR at 0x100, TMR at 0x180, IRR at 0x200): eight 32-bit registers,
 * 16 bytes apart (SDM Vol.3A 11.8.4, Figure 11-20). */
bool apic_vector_bit(u32 base_reg, u8 vector);
/* Send an IPI: icr_low holds vector, delivery mode, level/trigger, shorthand. Waits for xAPIC's
 * delivery-status bit to clear (bounded); returns false if it never does. */
bool apic_send_ipi(u32 dest_apic_id, u32 icr_low);
void apic_self_ipi(u8 vector);

/* The LVT entries present per the version register (SDM Vol.3A 11.5.1; Linux lapic_get_maxlvt users). */
struct lvt_desc {
    const char *name;
    u32 reg;
    u32 min_max_lvt; /* present when max LVT >= this */
};
extern const struct lvt_desc apic_lvts[7];
