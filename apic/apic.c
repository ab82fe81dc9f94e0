#include "apic/apic.h"

#include <string.h>

#include "lib/format.h"
#include "kernel/safe.h"
#include "kernel/x86.h"

#define XAPIC_MSR_BASE 0x800u
#define ICR_WAIT_LIMIT 1000000

static enum apic_mode mode = APIC_MODE_XAPIC;
static volatile u32 *mmio = (volatile u32 *)0xFEE00000ull;

const struct lvt_desc apic_lvts[7] = {
    {"timer", APIC_LVT_TIMER, 0},     {"lint0", APIC_LVT_LINT0, 0},     {"lint1", APIC_LVT_LINT1, 0},
    {"error", APIC_LVT_ERROR, 0},     {"pmc", APIC_LVT_PMC, 4},         {"thermal", APIC_LVT_THERMAL, 5},
    {"cmci", APIC_LVT_CMCI, 6},
};

bool apic_x2apic_supported(void)
{
    u32 a, b, c, d;
    cpuid_count(1, 0, &a, &b, &c, &d);
    return (c >> 21) & 1; /* CPUID.01H:ECX[21] x2APIC */
}

const char *apic_mode_name(enum apic_mode m)
{
    return m == APIC_MODE_X2APIC ? "x2apic" : "xapic";
}

bool apic_choose_mode(enum apic_request req, char *err, size_t err_size)
{
    bool x2 = apic_x2apic_supported();
    u64 base = rdmsr(MSR_APIC_BASE);
    bool already_x2 = (base & (APIC_BASE_EN | APIC_BASE_EXTD)) == (APIC_BASE_EN | APIC_BASE_EXTD);
    if (req == APIC_REQ_X2APIC && !x2) {
        k_snprintf(err, err_size, "apic=x2apic requested but CPUID.01H:ECX[21]=0 (no x2APIC)");
        return false;
    }
    if (req == APIC_REQ_XAPIC && already_x2) {
        /* Leaving x2APIC mode needs a full disable first (SDM Vol.3A 11.12.5); firmware that hands over in
         * x2APIC mode usually has APIC IDs above 255 too, which xAPIC cannot address. */
        k_snprintf(err, err_size, "apic=xapic requested but firmware left the APIC in x2APIC mode");
        return false;
    }
    mode = (req == APIC_REQ_X2APIC || (req == APIC_REQ_AUTO && x2) || already_x2) ? APIC_MODE_X2APIC
                                                                                  : APIC_MODE_XAPIC;
    mmio = (volatile u32 *)(uintptr_t)(base & 0xFFFFFF000ull);
    return true;
}

enum apic_mode apic_mode(void)
{
    return mode;
}

void apic_cpu_init(void)
{
    u64 base = rdmsr(MSR_APIC_BASE);
    if (mode == APIC_MODE_X2APIC) {
        /* xAPIC -> x2APIC: set EN then EXTD (SDM Vol.3A 11.12.5, Figure 11-27 state transitions). */
        if (!(base & APIC_BASE_EN))
            wrmsr(MSR_APIC_BASE, base | APIC_BASE_EN);
        wrmsr(MSR_APIC_BASE, base | APIC_BASE_EN | APIC_BASE_EXTD);
    } else if (!(base & APIC_BASE_EN)) {
        wrmsr(MSR_APIC_BASE, base | APIC_BASE_EN);
    }
    u32 max_lvt = apic_max_lvt();
    for (u32 i = 0; i < ARRAY_SIZE(apic_lvts); i++)
        if (max_lvt >= apic_lvts[i].min_max_lvt)
            apic_write(apic_lvts[i].reg, LVT_MASKED);
    apic_write(APIC_TPR, 0);
    apic_write(APIC_SVR, SVR_APIC_ENABLE | 0xFF); /* spurious vector 0xFF */
    apic_write(APIC_ESR, 0);                      /* a write arms ESR; the next write latches errors */
    apic_write(APIC_ESR, 0);
}

u32 apic_read(u32 reg)
{
    if (mode == APIC_MODE_X2APIC)
        return (u32)rdmsr(XAPIC_MSR_BASE + (reg >> 4));
    return mmio[reg / 4];
}

void apic_write(u32 reg, u32 val)
{
    if (mode == APIC_MODE_X2APIC)
        wrmsr(XAPIC_MSR_BASE + (reg >> 4), val);
    else
        mmio[reg / 4] = val;
}

int apic_read_safe(u32 reg, u32 *val)
{
    if (mode == APIC_MODE_X2APIC) {
        u64 v;
        int r = rdmsr_safe(XAPIC_MSR_BASE + (reg >> 4), &v);
        *val = (u32)v;
        return r;
    }
    return read_u32_safe((u64)(uintptr_t)&mmio[reg / 4], val); /* aligned 32-bit access only */
}

u32 apic_id(void)
{
    u32 id = apic_read(APIC_ID);
    return mode == APIC_MODE_X2APIC ? id : id >> 24;
}

u32 apic_max_lvt(void)
{
    return (apic_read(APIC_VERSION) >> 16) & 0xFF;
}

bool apic_vector_bit(u32 base_reg, u8 vector)
{
    return (apic_read(base_reg + (vector >> 5) * 0x10) >> (vector & 31)) & 1;
}

void apic_eoi(void)
{
    apic_write(APIC_EOI, 0);
}

static inline void x2apic_store_fence(void)
{
    asm volatile("mfence; lfence" ::: "memory");
}

bool apic_send_ipi(u32 dest, u32 icr_low)
{
    if (mode == APIC_MODE_X2APIC) {
        /* One 64-bit write, destination in bits 63:32; no delivery-status bit (SDM Vol.3A 11.12.9). A WRMSR to
         * an x2APIC register is not serializing and may complete before earlier stores are globally visible
         * (SDM Vol.3A 11.12.3): MFENCE; LFENCE first, as Linux's weak_wrmsr_fence() before x2APIC IPIs, so the
         * target sees the mailbox the IPI announces. */
        x2apic_store_fence();
        wrmsr(XAPIC_MSR_BASE + (APIC_ICR_LO >> 4), ((u64)dest << 32) | icr_low);
        return true;
    }
    apic_write(APIC_ICR_HI, dest << 24);
    apic_write(APIC_ICR_LO, icr_low);
    for (u32 i = 0; i < ICR_WAIT_LIMIT; i++) {
        if (!(apic_read(APIC_ICR_LO) & ICR_BUSY))
            return true;
        cpu_relax();
    }
    return false;
}

void apic_self_ipi(u8 vector)
{
    if (mode == APIC_MODE_X2APIC) {
        x2apic_store_fence();
        wrmsr(XAPIC_MSR_BASE + (APIC_SELF_IPI >> 4), vector); /* SDM Vol.3A 11.12.11 */
    }
    else
        apic_send_ipi(0, ICR_SH_SELF | ICR_DM_FIXED | vector);
}
