/* The table of uncore kinds, recognition from CPUID with its evidence, and register helpers over a descriptor. */
#include "pmu/uncore_kind.h"

#include "lib/format.h"

#include <string.h>

/* Defined in the kind files (pmu/uncore_kind_*.c). */
extern const struct uncore_kind_desc uncore_kind_nhm, uncore_kind_snb, uncore_kind_skl, uncore_kind_icl,
    uncore_kind_tgl, uncore_kind_adl, uncore_kind_mtl, uncore_kind_amd_l3_zen12, uncore_kind_amd_l3_zen3;

const struct uncore_kind_desc *const uncore_kinds[] = {
    &uncore_kind_nhm, &uncore_kind_snb, &uncore_kind_skl, &uncore_kind_icl, &uncore_kind_tgl,
    &uncore_kind_adl, &uncore_kind_mtl, &uncore_kind_amd_l3_zen12, &uncore_kind_amd_l3_zen3, NULL,
};

const struct uncore_kind_desc *uncore_kind_by_name(const char *name)
{
    for (const struct uncore_kind_desc *const *k = uncore_kinds; name && *k; k++)
        if (!strcmp((*k)->name, name))
            return *k;
    return NULL;
}

const struct uncore_kind_desc *uncore_kind_by_emul_name(const char *name)
{
    for (const struct uncore_kind_desc *const *k = uncore_kinds; name && *k; k++)
        if ((*k)->emul && !strcmp((*k)->emul->name, name))
            return *k;
    return NULL;
}

/* Family 6 models whose uncore Linux drives with code not built here, so that their SKIP says so. */
static const struct {
    u8 model;
    const char *linux_file;
} not_built[] = {
    {0x2e, "intel/uncore_nhmex.c"}, {0x2f, "intel/uncore_nhmex.c"}, {0x2d, "intel/uncore_snbep.c"},
    {0x3e, "intel/uncore_snbep.c"}, {0x3f, "intel/uncore_snbep.c"}, {0x4f, "intel/uncore_snbep.c"},
    {0x56, "intel/uncore_snbep.c"}, {0x55, "intel/uncore_snbep.c"}, {0x6a, "intel/uncore_snbep.c"},
    {0x6c, "intel/uncore_snbep.c"}, {0x86, "intel/uncore_snbep.c"}, {0x57, "intel/uncore_snbep.c"},
    {0x85, "intel/uncore_snbep.c"}, {0x8f, "intel/uncore_discovery.c"}, {0xcf, "intel/uncore_discovery.c"},
    {0xad, "intel/uncore_discovery.c"}, {0xae, "intel/uncore_discovery.c"}, {0xaf, "intel/uncore_discovery.c"},
    {0xb6, "intel/uncore_discovery.c"}, {0xbd, "intel/uncore_snb.c (Lunar Lake)"},
    {0xcc, "intel/uncore_snb.c (Panther Lake)"},
};

static bool in_models(const struct uncore_kind_desc *k, u32 model)
{
    for (size_t i = 0; i < k->models_len; i++)
        if (k->models[i] == model)
            return true;
    return false;
}

void uncore_recognise(const struct cpuid_source *src, struct uncore_recognition *r)
{
    struct strbuf sb;
    memset(r, 0, sizeof(*r));
    sb_init(&sb, r->why, sizeof(r->why));
    cpu_ident_decode(&r->id, src);
    const struct cpu_ident *id = &r->id;
    bool intel6 = id->vendor == VENDOR_INTEL && id->family == 6;
    u32 lists = 0;
    char probe[200];
    struct strbuf psb;
    sb_init(&psb, probe, sizeof(probe));

    sb_printf(&sb, "%s family 0x%x model 0x%x (%s)", id->vendor_string[0] ? id->vendor_string : "no vendor",
              id->family, id->model, id->uarch ? id->uarch : "unknown");
    for (const struct uncore_kind_desc *const *k = uncore_kinds; *k; k++) {
        if ((*k)->enumeration == UNCORE_ENUM_MODEL_LIST) {
            lists++;
            if (!intel6 || !in_models(*k, id->model))
                continue;
            /* Linux intel/uncore.c intel_uncore_init: no uncore under a hypervisor (X86_FEATURE_HYPERVISOR). */
            if (id->hypervisor_bit) {
                sb_printf(&sb, ": the %s uncore's model, but under a hypervisor (CPUID.1 ECX[31]), where Linux "
                          "intel/uncore.c does not drive the uncore", (*k)->name);
                return;
            }
            r->kind = *k;
            sb_printf(&sb, ": in the %s uncore's model list (Linux intel/uncore.c intel_uncore_match)", (*k)->name);
            return;
        }
        if ((*k)->enumeration == UNCORE_ENUM_CPUID && (*k)->claims) {
            size_t mark = psb.len;
            if ((*k)->claims(id, src, &psb)) {
                r->kind = *k;
                sb_printf(&sb, ": %s by CPUID (PerfCtrExtLLC, TOPOEXT)%s", (*k)->name, probe + mark);
                return;
            }
        }
    }
    for (size_t i = 0; intel6 && i < ARRAY_SIZE(not_built); i++)
        if (not_built[i].model == id->model) {
            sb_printf(&sb, ": an uncore Linux drives in %s, not built here", not_built[i].linux_file);
            return;
        }
    sb_printf(&sb, ": no uncore kind; probed the Intel family 6 model lists of %u kinds and AMD CPUID 0x80000001 "
              "PerfCtrExtLLC%s", lists, probe);
}

void uncore_recognition_describe(const struct uncore_recognition *r, struct strbuf *sb)
{
    if (r->kind)
        sb_printf(sb, "uncore: %s (%s): %s\n", r->kind->name, r->kind->title, r->why);
    else
        sb_printf(sb, "uncore: none: %s\n", r->why);
}

u32 uncore_box_ctl(const struct uncore_box_desc *b, u32 box, u32 counter)
{
    return b->ctl0 + box * b->box_stride + counter * b->counter_stride;
}

u32 uncore_box_ctr(const struct uncore_box_desc *b, u32 box, u32 counter)
{
    return b->ctr0 + box * b->box_stride + counter * b->counter_stride;
}

u64 uncore_box_status_bit(const struct uncore_box_desc *b, u32 counter)
{
    return b->status_per_counter ? BIT(b->status_shift + counter) : BIT(b->status_shift);
}

u64 uncore_status_overflow_bits(const struct uncore_kind_desc *k)
{
    if (!k->global.status)
        return 0;
    u64 m = k->fixed.ctl ? k->fixed.status_bit : 0;
    for (size_t i = 0; i < k->boxes_len; i++)
        for (u32 c = 0; c < k->boxes[i].counters; c++)
            m |= uncore_box_status_bit(&k->boxes[i], c);
    return m;
}

u32 uncore_route_width(const struct uncore_kind_desc *k)
{
    return popcount64(k->global.ctrl_route_mask);
}

u64 uncore_route_bits(const struct uncore_kind_desc *k, u32 core_mask)
{
    return ((u64)core_mask << k->global.ctrl_route_shift) & k->global.ctrl_route_mask;
}

u32 uncore_route_cores(const struct uncore_kind_desc *k, u64 ctrl)
{
    return (u32)((ctrl & k->global.ctrl_route_mask) >> k->global.ctrl_route_shift);
}
