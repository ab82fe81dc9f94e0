/* pmu_caps_describe(): the summary the kernel prints as TAP comments and tools/pmu-decode prints as is.
 * One fact per line, every line starting "pmu: " so it can be grepped out of a boot log. */
#include "pmu/kind.h"
#include "pmu/pmu_internal.h"

static void list_events(struct strbuf *sb, u32 mask, u32 len, bool available)
{
    bool any = false;
    for (u32 i = 0; i < len && i < 32; i++) {
        if (((mask >> i) & 1) != available)
            continue;
        sb_printf(sb, " %s", pmu_arch_event_name(i));
        if (i >= PMU_AE_COUNT)
            sb_printf(sb, "(%u)", i);
        any = true;
    }
    if (!any)
        sb_printf(sb, " none");
    sb_printf(sb, "\n");
}

static void describe_counters(const struct pmu_caps *c, const struct pmu_kind_desc *d, struct strbuf *sb)
{
    const struct pmu_msrs *m = &c->msrs;
    const char *step = m->stride == 2 ? "2*i" : "i";
    sb_printf(sb, "pmu: general-purpose counters: %u (mask 0x%x), %u-bit; select 0x%x + %s, counter 0x%x + %s",
              c->num_gp, c->gp_mask, c->gp_width, m->evtsel0, step, m->ctr0, step);
    if (d->arch_perfmon && m->legacy_gp < c->num_gp)
        sb_printf(sb, " for i < %u, v6 aliases from %u on", m->legacy_gp, m->legacy_gp);
    sb_printf(sb, "\n");
    if (m->ctr0_full_width)
        sb_printf(sb, "pmu: full-width counter writes: 0x%x + i (IA32_A_PMCx)\n", m->ctr0_full_width);
    if (d->arch_perfmon) {
        if (c->num_fixed)
            sb_printf(sb, "pmu: fixed counters: %u (mask 0x%x), %u-bit; counter 0x%x + i, control 0x%x\n",
                      c->num_fixed, c->fixed_mask, c->fixed_width, m->fixed_ctr0, m->fixed_ctr_ctrl);
        else
            sb_printf(sb, "pmu: fixed counters: none\n");
    }
    if (m->global_ctrl) {
        sb_printf(sb, "pmu: global: control 0x%x, status 0x%x, status %s 0x%x", m->global_ctrl, m->global_status,
                  d->status_reset_label ? d->status_reset_label : "reset", m->global_status_reset);
        if (m->global_status_set)
            sb_printf(sb, ", status set 0x%x", m->global_status_set);
        if (m->global_inuse)
            sb_printf(sb, ", in use 0x%x", m->global_inuse);
        sb_printf(sb, "\n");
    } else if (pmu_kind_present(c->kind)) {
        sb_printf(sb, "pmu: global: none (each counter is enabled in its own select register)\n");
    }
    if (m->v6_stride)
        sb_printf(sb, "pmu: v6 MSR aliases: counter 0x%x + %u*i, select 0x%x + %u*i, fixed 0x%x + %u*i\n",
                  m->v6_gp_ctr0, m->v6_stride, m->v6_gp_cfg_a0, m->v6_stride, m->v6_fixed_ctr0, m->v6_stride);
    if (m->spflt_ctrl)
        sb_printf(sb, "pmu: SPFLT control 0x%x (user-mode counter enable via SPFLT)\n", m->spflt_ctrl);
}

void pmu_describe_intel(const struct pmu_caps *c, struct strbuf *sb)
{
    if (c->hybrid || c->core_type)
        sb_printf(sb, "pmu: hybrid: this thread's core type is %s (0x%02x), native model 0x%06x\n",
                  cpu_core_type_name(c->core_type), c->core_type, c->native_model_id);
    if (c->ext_leaf)
        sb_printf(sb, "pmu: CPUID.23H: subleaves 0x%x; UMASK2 %s, EQ bit %s, RDPMC user disable %s\n",
                  c->ext_subleaves, c->umask2 ? "yes" : "no", c->eq_bit ? "yes" : "no",
                  c->rdpmc_user_disable ? "yes" : "no");
    u32 len = c->ext_leaf && (c->ext_subleaves & BIT(3)) ? PMU_AE_COUNT : c->arch_events_len;
    sb_printf(sb, "pmu: architectural events (%s, %u bits):",
              len == c->arch_events_len ? "CPUID.0AH.EBX" : "CPUID.23H.3", len);
    list_events(sb, c->arch_events, len, true);
    sb_printf(sb, "pmu: architectural events unavailable:");
    list_events(sb, c->arch_events, len, false);
    if (c->anythread_deprecated)
        sb_printf(sb, "pmu: AnyThread (select bit 21) deprecated (CPUID.0AH.EDX[15])\n");
    if (!c->pdcm)
        sb_printf(sb, "pmu: IA32_PERF_CAPABILITIES: absent (CPUID.1:ECX.PDCM=0)\n");
    else if (!c->has_perf_capabilities)
        sb_printf(sb, "pmu: IA32_PERF_CAPABILITIES: present at 0x%x (CPUID.1:ECX.PDCM=1), not read\n",
                  c->msrs.perf_capabilities);
    else
        pmu_perf_capabilities_describe(&c->perf_caps, sb);
}

void pmu_describe_amd(const struct pmu_caps *c, struct strbuf *sb)
{
    sb_printf(sb, "pmu: AMD extensions: northbridge/DF counters %s (0x80000001 ECX[24]), L2I/L3 counters %s "
                  "(ECX[28])\n",
              c->amd_perfctr_nb ? "yes" : "no", c->amd_perfctr_llc ? "yes" : "no");
}

void pmu_describe_amd_v2(const struct pmu_caps *c, struct strbuf *sb)
{
    pmu_describe_amd(c, sb);
    sb_printf(sb, "pmu: PerfMonV2: LBRv2 %s (%u entries), LBR/PMC freeze %s, DF counters %u, UMC counters %u\n",
              c->amd_lbr_v2 ? "yes" : "no", c->amd_lbr_depth, c->amd_lbr_pmc_freeze ? "yes" : "no", c->amd_num_df,
              c->amd_num_umc);
}

void pmu_caps_describe(const struct pmu_caps *c, struct strbuf *sb)
{
    const struct pmu_kind_desc *d = pmu_kind_get(c->kind);
    if (!pmu_kind_present(c->kind)) {
        sb_printf(sb, "pmu: kind none: %s\n", c->evidence[0] ? c->evidence : "no evidence recorded");
    } else {
        sb_printf(sb, "pmu: kind %s: %s", d->name, d->title);
        if (d->arch_perfmon)
            sb_printf(sb, " v%u%s", c->version,
                      c->version_beyond_known ? " (newer than v6: decoded with the v6 rules)" : "");
        sb_printf(sb, "\n");
        describe_counters(c, d, sb);
        if (d->describe)
            d->describe(c, sb);
    }
    for (u32 i = 0; i < c->num_quirks; i++)
        sb_printf(sb, "pmu: quirk: %s\n", c->quirks[i]);
    if (pmu_kind_present(c->kind) && c->evidence[0])
        sb_printf(sb, "pmu: evidence: %s\n", c->evidence);
}
