#include "lib/cpu_ident.h"

#include <string.h>
#include "lib/format.h"
#include "lib/uarch.h"

static void regs_to_str(char *dst, const u32 *words, int n)
{
    memcpy(dst, words, (size_t)n * 4);
    dst[n * 4] = '\0';
}

/* Printable ASCII only, leading blanks trimmed: brand strings are right-justified on some Intel parts. */
static void tidy(char *s)
{
    size_t i = 0, j = 0;
    while (s[i] == ' ')
        i++;
    for (; s[i]; i++)
        s[j++] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
    s[j] = '\0';
    while (j && s[j - 1] == ' ')
        s[--j] = '\0';
}

void cpu_ident_decode(struct cpu_ident *id, const struct cpuid_source *src)
{
    struct cpuid_regs r;
    memset(id, 0, sizeof(*id));
    if (cpuid_query(src, 0, 0, &r)) {
        u32 v[3] = {r.ebx, r.edx, r.ecx};
        regs_to_str(id->vendor_string, v, 3);
        tidy(id->vendor_string);
        id->max_leaf = r.eax;
    }
    if (!strcmp(id->vendor_string, "GenuineIntel"))
        id->vendor = VENDOR_INTEL;
    else if (!strcmp(id->vendor_string, "AuthenticAMD"))
        id->vendor = VENDOR_AMD;
    else if (!strcmp(id->vendor_string, "HygonGenuine"))
        id->vendor = VENDOR_HYGON;
    else if (id->vendor_string[0])
        id->vendor = VENDOR_OTHER;

    if (id->max_leaf >= 1 && cpuid_query(src, 1, 0, &r)) {
        u32 base_family = (r.eax >> 8) & 0xf, base_model = (r.eax >> 4) & 0xf;
        u32 ext_family = (r.eax >> 20) & 0xff, ext_model = (r.eax >> 16) & 0xf;
        id->signature = r.eax;
        id->stepping = r.eax & 0xf;
        /* SDM Vol.2A Table 3-8 notes: family adds the extended family only when the base family is 0xF;
         * model adds the extended model when the base family is 6 or 0xF (Intel), 0xF (AMD). */
        id->family = base_family == 0xf ? base_family + ext_family : base_family;
        bool use_ext_model = base_family == 0xf || (base_family == 6 && id->vendor != VENDOR_AMD);
        id->model = use_ext_model ? (ext_model << 4) | base_model : base_model;
        id->hypervisor_bit = (r.ecx >> 31) & 1;
    }
    if (cpuid_query(src, 0x80000000, 0, &r) && r.eax >= 0x80000000 && r.eax < 0x8000ffff)
        id->max_ext_leaf = r.eax;
    if (id->max_ext_leaf >= 0x80000004) {
        u32 words[12];
        for (u32 i = 0; i < 3; i++) {
            cpuid_query(src, 0x80000002 + i, 0, &r);
            words[i * 4 + 0] = r.eax;
            words[i * 4 + 1] = r.ebx;
            words[i * 4 + 2] = r.ecx;
            words[i * 4 + 3] = r.edx;
        }
        regs_to_str(id->brand, words, 12);
        tidy(id->brand);
    }
    if (id->hypervisor_bit && cpuid_query(src, 0x40000000, 0, &r)) {
        u32 v[3] = {r.ebx, r.ecx, r.edx};
        regs_to_str(id->hv_signature, v, 3);
        tidy(id->hv_signature);
        id->hv_max_leaf = r.eax;
    }
    /* Hybrid parts: SDM Vol.2A CPUID leaf 07H EDX[15] "Hybrid", leaf 1AH "Native Model ID Enumeration":
     * EAX[31:24] core type, EAX[23:0] native model ID. Per thread: each logical CPU reports its own. */
    if (id->vendor == VENDOR_INTEL && id->max_leaf >= 7 && cpuid_query(src, 7, 0, &r))
        id->hybrid = (r.edx >> 15) & 1;
    if (id->vendor == VENDOR_INTEL && id->max_leaf >= 0x1a && cpuid_query(src, 0x1a, 0, &r)) {
        id->core_type = (u8)(r.eax >> 24);
        id->native_model_id = r.eax & 0xffffff;
    }
    id->uarch = cpu_uarch_name(id->vendor, id->family, id->model);
}

const char *cpu_core_type_name(u8 core_type)
{
    switch (core_type) {
    case 0:
        return "none";
    case 0x20:
        return "Atom";
    case 0x40:
        return "Core";
    default:
        return "unknown";
    }
}

u32 cpu_ident_kind(const struct cpu_ident *id)
{
    return ((u32)id->core_type << 24) | id->native_model_id;
}

bool cpu_has_smi_count(const struct cpu_ident *id)
{
    /* Family 6 models from Nehalem (0x1A) on that are not Nehalem-era: Bonnell 0x1C/0x26, Dunnington (Penryn)
     * 0x1D, Saltwell 0x27/0x35/0x36 (Linux intel-family.h). */
    static const u8 older[] = {0x1c, 0x1d, 0x26, 0x27, 0x35, 0x36};
    if (id->vendor != VENDOR_INTEL)
        return false;
    if (id->family != 6)
        return id->family > 0xf; /* not P5/P6-era, NetBurst (0xF) or Knights Corner (0xB); 18, 19 and later */
    if (id->model < 0x1a)
        return false;
    for (u32 i = 0; i < ARRAY_SIZE(older); i++)
        if (id->model == older[i])
            return false;
    return true;
}

void cpu_ident_describe(const struct cpu_ident *id, struct strbuf *sb)
{
    sb_printf(sb, "cpu: %s family 0x%x model 0x%x stepping 0x%x (signature 0x%08x): %s\n",
              id->vendor_string[0] ? id->vendor_string : "(no vendor: CPUID leaf 0 missing)", id->family, id->model,
              id->stepping, id->signature, id->uarch ? id->uarch : "unknown");
    sb_printf(sb, "brand: %s\n", id->brand[0] ? id->brand : "(none: CPUID 0x80000002..4 absent)");
    if (id->hybrid || id->core_type)
        sb_printf(sb, "core type: %s (CPUID.1AH.EAX=0x%08x, native model 0x%06x)%s\n",
                  cpu_core_type_name(id->core_type), cpu_ident_kind(id),
                  id->native_model_id, id->hybrid ? ", hybrid part (CPUID.(7,0):EDX[15]=1)" : "");
    if (id->hypervisor_bit)
        sb_printf(sb, "hypervisor: \"%s\" (CPUID 0x40000000 max leaf 0x%x)\n", id->hv_signature, id->hv_max_leaf);
    else
        sb_printf(sb, "hypervisor: none reported (CPUID.1 ECX[31]=0)\n");
}
