/* CPUID as the emulated PMU kind presents it (emul/emul.h): which leaves a kind presents is its face's
 * (pmu/emul_face.h), the values the emulated part's. Leaf layouts: SDM Vol.2A CPUID (leaf 0, 01H, 07H, 0AH, 23H); AMD
 * APM Vol.3 CPUID Fn0000_0000, Fn8000_0000, Fn8000_0001 ECX, Fn8000_0022. */
#include "pmu/discover_internal.h"
#include "emul/emul.h"

/* Vendor strings as leaf 0 returns them: EBX, EDX, ECX, four little-endian characters each. */
static void put_vendor(struct cpuid_regs *r, const char *s)
{
    u32 w[3];
    for (int i = 0; i < 3; i++)
        w[i] = (u32)(u8)s[4 * i] | (u32)(u8)s[4 * i + 1] << 8 | (u32)(u8)s[4 * i + 2] << 16 |
               (u32)(u8)s[4 * i + 3] << 24;
    r->ebx = w[0];
    r->edx = w[1];
    r->ecx = w[2];
}

/* Leaf 23H is enumerated: v6, or a hybrid kind whose real part has it below v6 (Meteor Lake: v5). */
static bool has_ext_leaf(const struct pmu_emul_kind *k)
{
    return pmu_emul_face_of(k)->ext_leaf && (k->version >= 6 || k->ext_leaf);
}

/* The kind of core this thread presents, NULL for a kind that is not hybrid. */
static const struct pmu_emul_core *core_of(const struct pmu_emul_cpuid *e)
{
    return pmu_emul_core_at(e->kind, e->core < e->kind->num_cores ? e->core : 0);
}

static void put4(struct cpuid_regs *r, const u32 v[4])
{
    *r = (struct cpuid_regs){v[0], v[1], v[2], v[3]};
}

/* Leaf 0AH (SDM Vol.2A "Architectural Performance Monitoring Leaf"): EAX version, GP count, GP width, EBX
 * vector length 7; EBX 0 = all seven events available; EDX fixed count and width (v2+). */
static void leaf_0a(const struct pmu_emul_kind *k, struct cpuid_regs *r)
{
    *r = (struct cpuid_regs){0, 0, 0, 0};
    if (!pmu_emul_face_of(k)->arch_perfmon_leaf)
        return; /* e.g. KNC and AMD: no architectural perfmon leaf */
    r->eax = k->version | k->num_gp << 8 | k->gp_width << 16 | 7u << 24;
    if (k->version >= 2)
        r->edx = k->num_fixed | k->fixed_width << 5;
}

static void leaf_23(const struct pmu_emul_kind *k, u32 sub, struct cpuid_regs *r)
{
    *r = (struct cpuid_regs){0, 0, 0, 0};
    if (!pmu_emul_face_of(k)->ext_leaf || k->version < 6)
        return;
    if (sub == 0)
        r->eax = 1u << 1 | 1u << 3;           /* subleaves 1 (counter bitmaps) and 3 (events) valid */
    else if (sub == 1)
        *r = (struct cpuid_regs){pmu_low_mask(k->num_gp), pmu_low_mask(k->num_fixed), 0, 0};
    else if (sub == 3)
        r->eax = 0x7f;                        /* the seven architectural events, positive sense */
}

bool pmu_emul_cpuid_query(void *ctx, u32 leaf, u32 subleaf, struct cpuid_regs *r)
{
    const struct pmu_emul_cpuid *e = ctx;
    const struct pmu_emul_kind *k = e->kind;
    const struct pmu_emul_core *core = core_of(e);
    const struct pmu_emul_face *f = pmu_emul_face_of(k);
    bool ok = cpuid_query(e->base, leaf, subleaf, r);
    switch (leaf) {
    case 0: {
        /* Max basic leaf: 0AH with the architectural perfmon leaf, 1AH for a hybrid kind, 1CH with Arch LBR, 23H with
         * leaf 23H, at least 01H for every kind (as on every CPU since the signature leaf); the vendor of the kind. */
        u32 max = has_ext_leaf(k)           ? 0x23u
                  : k->lbr == EMUL_LBR_ARCH ? 0x1cu
                  : core                    ? 0x1au
                  : f->arch_perfmon_leaf    ? 0x0au
                                            : 1u;
        if (r->eax < max)
            r->eax = max;
        put_vendor(r, f->vendor);
        return true;
    }
    case 1:
        r->eax = k->signature;
        r->ecx &= ~(1u << 31);                /* hypervisor bit: presented as bare metal, */
        if (e->kvm)
            r->ecx |= 1u << 31;               /* or as a KVM guest (KIND@kvm) */
        r->ecx &= ~(1u << 15);                /* PDCM: IA32_PERF_CAPABILITIES, from v2 where the face has it */
        if (f->pdcm && k->version >= 2)
            r->ecx |= 1u << 15;
        /* The Debug Store, for PEBS: EDX[21] DS, ECX[2] DTES64 (the 64-bit DS layout), ECX[4] DS-CPL. */
        r->edx &= ~(1u << 21);
        r->ecx &= ~(1u << 2 | 1u << 4);
        if (f->pebs && k->pebs) {
            r->edx |= 1u << 21;
            r->ecx |= 1u << 2 | 1u << 4;
        }
        return true;
    case 7:
        if (subleaf == 0) {
            r->ebx &= ~(1u << 4 | 1u << 11);  /* no HLE/RTM: IN_TX/IN_TXCP stay reserved */
            r->edx &= ~(1u << 15 | 1u << 19); /* hybrid: the hybrid kinds only; Arch LBR: the kinds that have it */
            if (k->lbr == EMUL_LBR_ARCH)
                r->edx |= 1u << 19;
            if (core)
                r->edx |= 1u << 15;
            if (has_ext_leaf(k) && r->eax < 1)
                r->eax = 1;
        } else if (subleaf == 1) {
            r->eax &= ~(1u << 8);             /* ArchPerfmonExt: leaf 23H, v6 and Meteor Lake only */
            if (has_ext_leaf(k))
                r->eax |= 1u << 8;
        }
        return true;
    case 0x0a:
        if (core)
            put4(r, core->leaf_0a);           /* as the real part answers on this core type */
        else
            leaf_0a(k, r);
        return true;
    case 0x1a:
        /* SDM Vol.2A leaf 1AH "Native Model ID Enumeration": core type and native model of a hybrid kind's core. */
        *r = (struct cpuid_regs){core ? core->leaf_1a : 0, 0, 0, 0};
        return true;
    case 0x1c:
        /* SDM Vol.2A leaf 1CH (Architectural LBR), as an Alder Lake P-core answers it (tests/host/data/
         * intel_alderlake_p_hybrid_000906A4.txt: 4000000B-00000007-00000007): EAX[7:0] depths 8, 16 and 32, [30] LBRs
         * may be cleared in deep C-states; EBX CPL filtering [0], branch filtering [1], call-stack mode [2]; ECX
         * mispredict bit [0], timed LBRs [1], branch type [2]. */
        *r = (struct cpuid_regs){0, 0, 0, 0};
        if (k->lbr == EMUL_LBR_ARCH)
            *r = (struct cpuid_regs){0x4000000b, 0x7, 0x7, 0};
        return true;
    case 0x23:
        if (core) {
            *r = (struct cpuid_regs){0, 0, 0, 0};
            if (k->ext_leaf && subleaf < 4)
                put4(r, core->leaf_23[subleaf]);
        } else {
            leaf_23(k, subleaf, r);
        }
        return true;
    case 0x40000000:
        /* Linux arch/x86/include/uapi/asm/kvm_para.h KVM_CPUID_SIGNATURE: "KVMKVMKVM\0\0\0" in EBX, ECX, EDX. */
        *r = (struct cpuid_regs){0, 0, 0, 0};
        if (e->kvm)
            *r = (struct cpuid_regs){0x40000001u, 0x4b4d564bu, 0x564b4d56u, 0x0000004du};
        return true;
    case 0x80000000:
        if (f->max_ext_leaf) {
            /* AMD: Fn8000_0001 (PerfCtrExtCore) always, Fn8000_0022 for PerfMonV2; the vendor here too. */
            if (r->eax < f->max_ext_leaf)
                r->eax = f->max_ext_leaf;
            put_vendor(r, f->vendor);
        }
        return true;
    case 0x80000001:
        /* APM Fn8000_0001 ECX: PerfCtrExtCore[23], PerfCtrExtNB[24], PerfCtrExtLLC[28]. */
        r->ecx &= ~(1u << 23 | 1u << 24 | 1u << 28);
        if (f->perfctr_core)
            r->ecx |= 1u << 23;
        return true;
    case 0x80000022:
        /* APM Fn8000_0022: EAX[0] PerfMonV2, [1] LbrExtV2, [2] LBR and PMC freeze; EBX[3:0] core counters, [9:4]
         * the LBR stack size (16 on Zen 4, Linux amd/lbr.c reads it as lbr_v2_stack_sz). */
        *r = (struct cpuid_regs){0, 0, 0, 0};
        if (f->perfmon_v2)
            *r = (struct cpuid_regs){1, k->num_gp, 0, 0};
        if (f->perfmon_v2 && k->lbr == EMUL_LBR_AMD) {
            r->eax |= 1u << 1 | 1u << 2;
            r->ebx |= 16u << 4;
        }
        return true;
    default:
        return ok;
    }
}
