/* CPU identification from CPUID: vendor, family/model/stepping (SDM Vol.2A CPUID leaf 01H, "Family and
 * Model" rules; AMD APM Vol.3 E.3.2), microarchitecture name (lib/uarch.c), hybrid core type (CPUID 1AH),
 * brand string, hypervisor signature (CPUID 0x40000000). */
#pragma once
#include "lib/cpuid_source.h"
#include "lib/types.h"

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
    const char *uarch;           /* microarchitecture name from lib/uarch.c; "unknown" if not in the table */
    bool hybrid;                 /* Intel CPUID.(7,0):EDX[15]: core types differ between threads */
    u8 core_type;                /* Intel CPUID.1AH.EAX[31:24] of this thread: 0x20 Atom, 0x40 Core; 0 = none */
    u32 native_model_id;         /* Intel CPUID.1AH.EAX[23:0] */
};

void cpu_ident_decode(struct cpu_ident *id, const struct cpuid_source *src);
/* "Atom" (0x20), "Core" (0x40), "none" (0) or "unknown". */
const char *cpu_core_type_name(u8 core_type);
/* The thread's kind of core: the whole CPUID.1AH:EAX, core type [31:24] and native model ID [23:0] (0 without leaf
 * 1AH). The core type alone does not tell the two Atom kinds of Arrow Lake-H apart (Skymont E-cores, Crestmont
 * low-power E-cores: different counters), the native model ID does: Linux intel-family.h "CPUID.1AH.EAX[31:0]
 * uniquely identifies the microarchitecture of the core" (enum intel_native_id: Crestmont 2, Skymont 3), and
 * events/intel/core.c find_hybrid_pmu_for_cpu() picks the Atom PMU by it. */
u32 cpu_ident_kind(const struct cpu_ident *id);
/* Whether the CPU has MSR_SMI_COUNT (34H, bits 31:0 the SMIs taken since reset, read-only): Intel Nehalem and later
 * cores and Silvermont and later Atoms (SDM Vol.4 ch.2, the MSR tables from Nehalem and from Silvermont on; Linux
 * turbostat reads it on the same parts). Family 6 models before Nehalem, Bonnell/Saltwell Atoms, NetBurst and
 * Knights Corner do not; an unknown later family is assumed to. Kernels still read it with rdmsr_safe. */
bool cpu_has_smi_count(const struct cpu_ident *id);

struct strbuf;
/* Identification lines (cpu, brand, core type, hypervisor), each ending in '\n', no "# " prefix. */
void cpu_ident_describe(const struct cpu_ident *id, struct strbuf *sb);
