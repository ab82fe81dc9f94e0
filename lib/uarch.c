/* Family/model -> microarchitecture tables.
 * Intel: Linux arch/x86/include/asm/intel-family.h (model numbers and core names, up to Panther/Wildcat/Nova
 * Lake and Diamond Rapids), SDM Vol.4 Table 2-1 (Dothan .. Ivy Bridge signatures), Knights Corner family
 * 0x0B model 0x01 (Linux events/intel/knc.c is selected by family 0x0B).
 * AMD: family names from the AMD BKDGs/PPRs for each family; Zen generations by model range as in Linux
 * arch/x86/kernel/cpu/amd.c bsp_init_amd() ("Figure out Zen generations"). Hygon family 0x18 is Zen based.
 * Several parts share a model number (e.g. 0x55 is Skylake-SP, Cascade Lake and Cooper Lake, told apart by
 * stepping only); the name lists them rather than guessing. */
#include "lib/uarch.h"

#include "lib/types.h"

struct uarch_range {
    enum cpu_vendor vendor;
    u16 family;
    u8 model_lo, model_hi;
    const char *name;
};

static const struct uarch_range table[] = {
    /* Intel family 5 / 6 before Core */
    {VENDOR_INTEL, 5, 0x00, 0x08, "P5 (Pentium)"},
    {VENDOR_INTEL, 5, 0x09, 0x09, "Quark X1000"},
    {VENDOR_INTEL, 6, 0x01, 0x01, "P6 (Pentium Pro)"},
    {VENDOR_INTEL, 6, 0x03, 0x06, "P6 (Pentium II)"},
    {VENDOR_INTEL, 6, 0x07, 0x08, "P6 (Pentium III)"},
    {VENDOR_INTEL, 6, 0x09, 0x09, "Pentium M (Banias)"},
    {VENDOR_INTEL, 6, 0x0a, 0x0b, "P6 (Pentium III)"},
    {VENDOR_INTEL, 6, 0x0d, 0x0d, "Pentium M (Dothan)"},
    /* Core and big cores */
    {VENDOR_INTEL, 6, 0x0e, 0x0e, "Core (Yonah)"},
    {VENDOR_INTEL, 6, 0x0f, 0x0f, "Core 2 (Merom)"},
    {VENDOR_INTEL, 6, 0x16, 0x16, "Core 2 (Merom-L)"},
    {VENDOR_INTEL, 6, 0x17, 0x17, "Core 2 (Penryn)"},
    {VENDOR_INTEL, 6, 0x1d, 0x1d, "Core 2 (Dunnington)"},
    {VENDOR_INTEL, 6, 0x1a, 0x1a, "Nehalem-EP"},
    {VENDOR_INTEL, 6, 0x1e, 0x1e, "Nehalem"},
    {VENDOR_INTEL, 6, 0x1f, 0x1f, "Nehalem-G"},
    {VENDOR_INTEL, 6, 0x2e, 0x2e, "Nehalem-EX"},
    {VENDOR_INTEL, 6, 0x25, 0x25, "Westmere"},
    {VENDOR_INTEL, 6, 0x2c, 0x2c, "Westmere-EP"},
    {VENDOR_INTEL, 6, 0x2f, 0x2f, "Westmere-EX"},
    {VENDOR_INTEL, 6, 0x2a, 0x2a, "Sandy Bridge"},
    {VENDOR_INTEL, 6, 0x2d, 0x2d, "Sandy Bridge-X"},
    {VENDOR_INTEL, 6, 0x3a, 0x3a, "Ivy Bridge"},
    {VENDOR_INTEL, 6, 0x3e, 0x3e, "Ivy Bridge-X"},
    {VENDOR_INTEL, 6, 0x3c, 0x3c, "Haswell"},
    {VENDOR_INTEL, 6, 0x3f, 0x3f, "Haswell-X"},
    {VENDOR_INTEL, 6, 0x45, 0x45, "Haswell-L"},
    {VENDOR_INTEL, 6, 0x46, 0x46, "Haswell-G"},
    {VENDOR_INTEL, 6, 0x3d, 0x3d, "Broadwell"},
    {VENDOR_INTEL, 6, 0x47, 0x47, "Broadwell-G"},
    {VENDOR_INTEL, 6, 0x4f, 0x4f, "Broadwell-X"},
    {VENDOR_INTEL, 6, 0x56, 0x56, "Broadwell-D"},
    {VENDOR_INTEL, 6, 0x4e, 0x4e, "Skylake-L"},
    {VENDOR_INTEL, 6, 0x5e, 0x5e, "Skylake"},
    {VENDOR_INTEL, 6, 0x55, 0x55, "Skylake-X / Cascade Lake / Cooper Lake"},
    {VENDOR_INTEL, 6, 0x8e, 0x8e, "Kaby Lake-L (Skylake core)"},
    {VENDOR_INTEL, 6, 0x9e, 0x9e, "Kaby Lake / Coffee Lake (Skylake core)"},
    {VENDOR_INTEL, 6, 0xa5, 0xa5, "Comet Lake (Skylake core)"},
    {VENDOR_INTEL, 6, 0xa6, 0xa6, "Comet Lake-L (Skylake core)"},
    {VENDOR_INTEL, 6, 0x66, 0x66, "Cannon Lake-L"},
    {VENDOR_INTEL, 6, 0x6a, 0x6a, "Ice Lake-X (Sunny Cove)"},
    {VENDOR_INTEL, 6, 0x6c, 0x6c, "Ice Lake-D (Sunny Cove)"},
    {VENDOR_INTEL, 6, 0x7d, 0x7d, "Ice Lake (Sunny Cove)"},
    {VENDOR_INTEL, 6, 0x7e, 0x7e, "Ice Lake-L (Sunny Cove)"},
    {VENDOR_INTEL, 6, 0x9d, 0x9d, "Ice Lake-NNPI (Sunny Cove)"},
    {VENDOR_INTEL, 6, 0xa7, 0xa7, "Rocket Lake (Cypress Cove)"},
    {VENDOR_INTEL, 6, 0x8c, 0x8c, "Tiger Lake-L (Willow Cove)"},
    {VENDOR_INTEL, 6, 0x8d, 0x8d, "Tiger Lake (Willow Cove)"},
    {VENDOR_INTEL, 6, 0x8f, 0x8f, "Sapphire Rapids-X (Golden Cove)"},
    {VENDOR_INTEL, 6, 0xcf, 0xcf, "Emerald Rapids-X (Raptor Cove)"},
    {VENDOR_INTEL, 6, 0xad, 0xad, "Granite Rapids-X (Redwood Cove)"},
    {VENDOR_INTEL, 6, 0xae, 0xae, "Granite Rapids-D (Redwood Cove)"},
    {VENDOR_INTEL, 6, 0xd7, 0xd7, "Bartlett Lake (Raptor Cove)"},
    {VENDOR_INTEL, 19, 0x01, 0x01, "Diamond Rapids-X (Panther Cove)"},
    /* Hybrid (P-core / E-core) */
    {VENDOR_INTEL, 6, 0x8a, 0x8a, "Lakefield (Sunny Cove / Tremont)"},
    {VENDOR_INTEL, 6, 0x97, 0x97, "Alder Lake (Golden Cove / Gracemont)"},
    {VENDOR_INTEL, 6, 0x9a, 0x9a, "Alder Lake-L (Golden Cove / Gracemont)"},
    {VENDOR_INTEL, 6, 0xb7, 0xb7, "Raptor Lake (Raptor Cove / Gracemont)"},
    {VENDOR_INTEL, 6, 0xba, 0xba, "Raptor Lake-P (Raptor Cove / Gracemont)"},
    {VENDOR_INTEL, 6, 0xbf, 0xbf, "Raptor Lake-S (Raptor Cove / Gracemont)"},
    {VENDOR_INTEL, 6, 0xac, 0xac, "Meteor Lake (Redwood Cove / Crestmont)"},
    {VENDOR_INTEL, 6, 0xaa, 0xaa, "Meteor Lake-L (Redwood Cove / Crestmont)"},
    /* Three kinds: Lion Cove, Skymont E-cores and Crestmont low-power E-cores (Linux events/intel/core.c
     * intel_pmu_init: INTEL_ARROWLAKE_H is hybrid_big_small_tiny; CPUID.1AH of a Core Ultra 9 285H, tests/host/data:
     * 0x40000003, 0x20000003, 0x20000002). */
    {VENDOR_INTEL, 6, 0xc5, 0xc5, "Arrow Lake-H (Lion Cove / Skymont / Crestmont LP)"},
    {VENDOR_INTEL, 6, 0xc6, 0xc6, "Arrow Lake (Lion Cove / Skymont)"},
    /* Meteor Lake's cores, not Lion Cove / Skymont: intel-family.h lists INTEL_ARROWLAKE_U IFM(6, 0xB5) with no core
     * names, under INTEL_ARROWLAKE_H's; Linux "perf/x86/intel: Add Arrow Lake U support" (Kan Liang, Nov 2024): "From
     * PMU's perspective, the new Arrow Lake U is the same as the Meteor Lake" (intel_pmu_init: case
     * INTEL_ARROWLAKE_U with INTEL_METEORLAKE, hybrid_big_small); CPUID.1AH of a Core Ultra 7 265U (tests/host/data):
     * 0x40000002 Redwood Cove, 0x20000002 Crestmont, native model 2 as on Meteor Lake. */
    {VENDOR_INTEL, 6, 0xb5, 0xb5, "Arrow Lake-U (Redwood Cove / Crestmont)"},
    {VENDOR_INTEL, 6, 0xbd, 0xbd, "Lunar Lake-M (Lion Cove / Skymont)"},
    {VENDOR_INTEL, 6, 0xcc, 0xcc, "Panther Lake-L (Cougar Cove / Darkmont)"},
    {VENDOR_INTEL, 6, 0xd5, 0xd5, "Wildcat Lake-L"},
    {VENDOR_INTEL, 18, 0x01, 0x01, "Nova Lake (Coyote Cove / Arctic Wolf)"},
    {VENDOR_INTEL, 18, 0x03, 0x03, "Nova Lake-L (Coyote Cove / Arctic Wolf)"},
    /* Atom / E-core */
    {VENDOR_INTEL, 6, 0x1c, 0x1c, "Atom Bonnell"},
    {VENDOR_INTEL, 6, 0x26, 0x26, "Atom Bonnell-Mid"},
    {VENDOR_INTEL, 6, 0x36, 0x36, "Atom Saltwell"},
    {VENDOR_INTEL, 6, 0x27, 0x27, "Atom Saltwell-Mid"},
    {VENDOR_INTEL, 6, 0x35, 0x35, "Atom Saltwell-Tablet"},
    {VENDOR_INTEL, 6, 0x37, 0x37, "Atom Silvermont (Bay Trail)"},
    {VENDOR_INTEL, 6, 0x4d, 0x4d, "Atom Silvermont-D (Avoton)"},
    {VENDOR_INTEL, 6, 0x4a, 0x4a, "Atom Silvermont-Mid"},
    {VENDOR_INTEL, 6, 0x5a, 0x5a, "Atom Silvermont-Mid2 (Anniedale)"},
    {VENDOR_INTEL, 6, 0x4c, 0x4c, "Atom Airmont (Cherry Trail)"},
    {VENDOR_INTEL, 6, 0x75, 0x75, "Atom Airmont-NP"},
    {VENDOR_INTEL, 6, 0x5c, 0x5c, "Atom Goldmont (Apollo Lake)"},
    {VENDOR_INTEL, 6, 0x5f, 0x5f, "Atom Goldmont-D (Denverton)"},
    {VENDOR_INTEL, 6, 0x7a, 0x7a, "Atom Goldmont Plus (Gemini Lake)"},
    {VENDOR_INTEL, 6, 0x86, 0x86, "Atom Tremont-D (Jacobsville)"},
    {VENDOR_INTEL, 6, 0x96, 0x96, "Atom Tremont (Elkhart Lake)"},
    {VENDOR_INTEL, 6, 0x9c, 0x9c, "Atom Tremont-L (Jasper Lake)"},
    {VENDOR_INTEL, 6, 0xbe, 0xbe, "Atom Gracemont (Alder Lake-N)"},
    {VENDOR_INTEL, 6, 0xaf, 0xaf, "Atom Crestmont-X (Sierra Forest)"},
    {VENDOR_INTEL, 6, 0xb6, 0xb6, "Atom Crestmont (Grand Ridge)"},
    {VENDOR_INTEL, 6, 0xdd, 0xdd, "Atom Darkmont-X (Clearwater Forest)"},
    /* Xeon Phi */
    {VENDOR_INTEL, 11, 0x01, 0x01, "Knights Corner (Xeon Phi coprocessor)"},
    {VENDOR_INTEL, 6, 0x57, 0x57, "Knights Landing (Xeon Phi)"},
    {VENDOR_INTEL, 6, 0x85, 0x85, "Knights Mill (Xeon Phi)"},
    /* NetBurst */
    {VENDOR_INTEL, 15, 0x00, 0x01, "NetBurst (Willamette)"},
    {VENDOR_INTEL, 15, 0x02, 0x02, "NetBurst (Northwood)"},
    {VENDOR_INTEL, 15, 0x03, 0x04, "NetBurst (Prescott)"},
    {VENDOR_INTEL, 15, 0x06, 0x06, "NetBurst (Cedar Mill / Presler)"},

    /* AMD */
    {VENDOR_AMD, 6, 0x00, 0xff, "K7 (Athlon)"},
    {VENDOR_AMD, 15, 0x00, 0xff, "K8 (Hammer)"},
    {VENDOR_AMD, 16, 0x00, 0xff, "K10 (family 10h)"},
    {VENDOR_AMD, 17, 0x00, 0xff, "K8 Griffin (family 11h)"},
    {VENDOR_AMD, 18, 0x00, 0xff, "K10 Llano (family 12h)"},
    {VENDOR_AMD, 20, 0x00, 0xff, "Bobcat (family 14h)"},
    {VENDOR_AMD, 21, 0x00, 0x01, "Bulldozer (family 15h)"},
    {VENDOR_AMD, 21, 0x02, 0x02, "Piledriver (family 15h)"},
    {VENDOR_AMD, 21, 0x10, 0x1f, "Piledriver (family 15h)"},
    {VENDOR_AMD, 21, 0x30, 0x3f, "Steamroller (family 15h)"},
    {VENDOR_AMD, 21, 0x60, 0x7f, "Excavator (family 15h)"},
    {VENDOR_AMD, 22, 0x00, 0x0f, "Jaguar (family 16h)"},
    {VENDOR_AMD, 22, 0x30, 0x3f, "Puma (family 16h)"},
    {VENDOR_AMD, 23, 0x00, 0x2f, "Zen / Zen+"},
    {VENDOR_AMD, 23, 0x50, 0x5f, "Zen / Zen+"},
    {VENDOR_AMD, 23, 0x30, 0x4f, "Zen 2"},
    {VENDOR_AMD, 23, 0x60, 0x7f, "Zen 2"},
    {VENDOR_AMD, 23, 0x90, 0x91, "Zen 2"},
    {VENDOR_AMD, 23, 0xa0, 0xaf, "Zen 2"},
    {VENDOR_AMD, 25, 0x00, 0x0f, "Zen 3"},
    {VENDOR_AMD, 25, 0x20, 0x5f, "Zen 3"},
    {VENDOR_AMD, 25, 0x10, 0x1f, "Zen 4"},
    {VENDOR_AMD, 25, 0x60, 0xaf, "Zen 4"},
    {VENDOR_AMD, 26, 0x00, 0x2f, "Zen 5"},
    {VENDOR_AMD, 26, 0x40, 0x4f, "Zen 5"},
    {VENDOR_AMD, 26, 0x60, 0x7f, "Zen 5"},
    {VENDOR_AMD, 26, 0x50, 0x5f, "Zen 6"},
    {VENDOR_AMD, 26, 0x80, 0xaf, "Zen 6"},
    {VENDOR_AMD, 26, 0xc0, 0xcf, "Zen 6"},
    {VENDOR_HYGON, 24, 0x00, 0xff, "Hygon Dhyana (Zen)"},
};

const char *cpu_uarch_name(enum cpu_vendor vendor, u32 family, u32 model)
{
    for (size_t i = 0; i < ARRAY_SIZE(table); i++) {
        const struct uarch_range *e = &table[i];
        if (e->vendor == vendor && e->family == family && model >= e->model_lo && model <= e->model_hi)
            return e->name;
    }
    return "unknown";
}
