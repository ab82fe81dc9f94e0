#include "tests/host/support/caps_fixture.h"

#include "emul/emul.h"

/* The signature of the emulated kind `name`, so a fixture presents the same part as that kind. */
static u32 signature_of(const char *name)
{
    return pmu_emul_kind_find(name)->signature;
}

void fixture_caps_intel(struct pmu_caps *c, u32 version, u32 num_gp, u32 gp_width, u32 num_fixed, u32 fixed_width,
                        bool fw_write)
{
    struct pmu_emul_kind k = {.name = "fixture", .kind = PMU_KIND_INTEL_ARCH, .version = version, .num_gp = num_gp,
                              .gp_width = gp_width, .num_fixed = num_fixed, .fixed_width = fixed_width,
                              .fw_write = fw_write, .signature = signature_of("intel-v4")};
    pmu_emul_caps(&k, 0, c);
}

void fixture_caps_amd(struct pmu_caps *c, enum pmu_kind kind, u32 num_gp)
{
    struct pmu_emul_kind k = {.name = "fixture", .kind = kind, .num_gp = num_gp, .gp_width = 48,
                              .signature = signature_of("amd-v2")};
    pmu_emul_caps(&k, 0, c);
}

void fixture_caps_knc(struct pmu_caps *c)
{
    pmu_emul_caps(pmu_emul_kind_find("knc"), 0, c);
}
