#include "pmu/reset_values.h"

#include "pmu/kind.h"

#define SRC_KNC "KNC PMU 327357-001 1.4.4, Table 1-2"
#define SRC_SDM "SDM Vol.3A Table 10-1 (power-up/reset)"
#define SRC_SDM_079 "SDM 325462-079US (March 2023) and later: one enable bit per GP counter"
#define SRC_SDM_OLD "SDM before 325462-079US: 0"
#define SRC_AMD_V2 "AMD PPR (PerfMonV2) PerfCntrGlobalCtl: one enable bit per core counter"
#define SRC_AMD_V2_QEMU "0: QEMU's reset state, written into KVM after a machine reset since its AMD PerfMonV2 " \
                        "reset support (target/i386/kvm/kvm.c, 2025), over KVM's all-counters value"
#define SRC_AMD "AMD APM Vol.2 13.2.1 / PPR: 0"

static u64 gp_bits(const struct pmu_caps *c)
{
    return c->gp_mask ? c->gp_mask : (c->num_gp >= 64 ? ~0ull : (1ull << c->num_gp) - 1);
}

void pmu_reset_expect(const struct pmu_caps *caps, const struct pmu_state_entry *e, struct pmu_reset_expect *out)
{
    *out = (struct pmu_reset_expect){0};
    const struct pmu_kind_desc *d = pmu_kind_get(caps->kind);
    if (d->reset_expect)
        d->reset_expect(caps, e, out);
}

void pmu_reset_expect_knc(const struct pmu_caps *caps, const struct pmu_state_entry *e, struct pmu_reset_expect *out)
{
    (void)caps, (void)e;
    out->source = SRC_KNC;
}

void pmu_reset_expect_intel(const struct pmu_caps *caps, const struct pmu_state_entry *e, struct pmu_reset_expect *out)
{
    out->source = SRC_SDM;
    if (e->reg == PMU_SREG_GLOBAL_CTRL) {
        out->value = gp_bits(caps);
        out->source = SRC_SDM_079;
        out->has_alt = true;
        out->alt = 0;
        out->alt_source = SRC_SDM_OLD;
    } else if (e->reg == PMU_SREG_GLOBAL_STATUS) {
        out->tolerated = 1ull << PMU_STATUS_COND_CHGD;
    }
}

void pmu_reset_expect_amd(const struct pmu_caps *caps, const struct pmu_state_entry *e, struct pmu_reset_expect *out)
{
    (void)caps, (void)e;
    out->source = SRC_AMD;
}

void pmu_reset_expect_amd_v2(const struct pmu_caps *caps, const struct pmu_state_entry *e,
                             struct pmu_reset_expect *out)
{
    out->source = SRC_AMD;
    if (e->reg == PMU_SREG_GLOBAL_CTRL) {
        out->value = gp_bits(caps);
        out->source = SRC_AMD_V2;
        out->has_alt = true; /* which of the two was seen is reported (suite reset) */
        out->alt = 0;
        out->alt_source = SRC_AMD_V2_QEMU;
    }
}

enum pmu_reset_match pmu_reset_judge(const struct pmu_reset_expect *x, u64 observed)
{
    u64 v = observed & ~x->tolerated;
    if (v == (x->value & ~x->tolerated))
        return PMU_RESET_MATCHES;
    if (x->has_alt && v == (x->alt & ~x->tolerated))
        return PMU_RESET_MATCHES_ALT;
    return PMU_RESET_MISMATCH;
}
