/* CPU identification from CPUID: vendor, family/model/stepping (SDM Vol.2A CPUID leaf 01H, "Family and
 * Model" rules; AMD APM Vol.3 E.3.2), brand string, hypervisor signature (CPUID 0x40000000). */
#pragma once
#include "kernel/cpuid_source.h"
#include "kernel/types.h"

enum cpu_vendor { VENDOR_UNKNOWN, VENDOR_INTEL, VENDOR_AMD, VENDOR_HYGON, VENDOR_OTHER };

struct cpu_ident {
    char vendor_string[13];
    enum cpu_vendor vendor;
    u32 max_leaf, max_ext_leaf;
    u32 signature; /* CPUID.1 EAX */
    u32 family, model, stepping; /* with the extended-field rules applied */
    char brand[49];              /* empty when leaves 0x80000002..4 are absent */
    bool hypervisor_bit;         /* CPUID.1 ECX[31] */
    char hv_signature[13];       /* CPUID 0x40000000 EBX,ECX,EDX when hypervisor_bit */
    u32 hv_max_leaf;
};

void cpu_ident_decode(struct cpu_ident *id, const struct cpuid_source *src);
const char *cpu_vendor_name(enum cpu_vendor v);
