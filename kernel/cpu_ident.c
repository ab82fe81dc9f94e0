#include "kernel/cpu_ident.h"

#include <string.h>

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
}

const char *cpu_vendor_name(enum cpu_vendor v)
{
    switch (v) {
    case VENDOR_INTEL:
        return "Intel";
    case VENDOR_AMD:
        return "AMD";
    case VENDOR_HYGON:
        return "Hygon";
    case VENDOR_OTHER:
        return "other";
    default:
        return "unknown";
    }
}
