/* IA32_PERF_CAPABILITIES (MSR 0x345) decoding. Layout: SDM Vol.3B ch.21 figure "Layout of
 * IA32_PERF_CAPABILITIES MSR"; field names as Linux arch/x86/events/perf_event.h union perf_capabilities
 * (bit 18, once called anythread_deprecated, is reserved: the AnyThread deprecation is CPUID.0AH.EDX[15]). */
#include "pmu/pmu_caps.h"

#include "pmu/kind.h"
#include "pmu/pmu_msr.h"

void pmu_perf_capabilities_decode(u64 v, struct pmu_perf_capabilities *out)
{
    out->raw = v;
    out->lbr_format = v & 0x3f;
    out->pebs_trap = (v >> 6) & 1;
    out->pebs_arch_regs = (v >> 7) & 1;
    out->pebs_record_format = (v >> 8) & 0xf;
    out->smm_freeze = (v >> 12) & 1;
    out->full_width_write = (v >> 13) & 1;
    out->pebs_baseline = (v >> 14) & 1;
    out->perf_metrics = (v >> 15) & 1;
    out->pebs_output_pt = (v >> 16) & 1;
    out->pebs_timing_info = (v >> 17) & 1;
    out->rdpmc_metrics_clear = (v >> 19) & 1;
}

void pmu_caps_apply_perf_capabilities(struct pmu_caps *caps, u64 value)
{
    caps->has_perf_capabilities = true;
    pmu_perf_capabilities_decode(value, &caps->perf_caps);
    /* SDM: with FW_WRITE, IA32_A_PMCx (0x4C1 + x) accept full-width writes; IA32_PMCx keep the 32-bit
     * sign-extending write behaviour. Where the kind has such aliases (pmu_kind_desc.full_width_alias0). */
    u32 alias0 = pmu_kind_get(caps->kind)->full_width_alias0;
    caps->msrs.ctr0_full_width = alias0 && caps->perf_caps.full_width_write ? alias0 : 0;
}

/* Linux arch/x86/events/intel/lbr.c LBR_FORMAT_* names. */
static const char *lbr_format_name(u8 f)
{
    static const char *const names[] = {
        "32-bit",          "64-bit LIP",       "64-bit EIP",          "64-bit EIP + flags",
        "64-bit EIP + flags + TSX", "64-bit EIP + LBR_INFO", "64-bit LIP + flags + cycles", "64-bit LIP + LBR_INFO",
    };
    if (f < ARRAY_SIZE(names))
        return names[f];
    if (f == 0x3f)
        return "architectural LBR (see CPUID leaf 0x1C)";
    return "unknown";
}

void pmu_perf_capabilities_describe(const struct pmu_perf_capabilities *pc, struct strbuf *sb)
{
    sb_printf(sb, "pmu: IA32_PERF_CAPABILITIES=0x%llx: LBR format %u (%s), PEBS record format %u%s%s\n",
              (unsigned long long)pc->raw, pc->lbr_format, lbr_format_name(pc->lbr_format), pc->pebs_record_format,
              pc->pebs_trap ? ", PEBS trap" : "", pc->pebs_arch_regs ? ", PEBS saves arch regs" : "");
    sb_printf(sb, "pmu: IA32_PERF_CAPABILITIES: SMM freeze %s, full-width writes %s, adaptive PEBS %s, perf "
                  "metrics %s, PEBS to PT %s, PEBS timing info %s, RDPMC metrics clear %s\n",
              pc->smm_freeze ? "yes" : "no", pc->full_width_write ? "yes" : "no", pc->pebs_baseline ? "yes" : "no",
              pc->perf_metrics ? "yes" : "no", pc->pebs_output_pt ? "yes" : "no",
              pc->pebs_timing_info ? "yes" : "no", pc->rdpmc_metrics_clear ? "yes" : "no");
}
