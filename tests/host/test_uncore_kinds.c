/* Every uncore kind (pmu/uncore_kind.h) has a complete descriptor and emulated face, and recognition from CPUID finds
 * the kind of each supported part, and names family, model and what was probed for every other one. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "lib/format.h"
#include "pmu/cpuid_dump.h"
#include "pmu/uncore_kind.h"
#include "tests/host/support/test_data.h"

#include <stdlib.h>

static struct cpuid_dump dump;

static u32 word(const char *s)
{
    u32 w;
    memcpy(&w, s, 4);
    return w;
}

/* CPUID leaves 0, 1 and 0x80000000/1 of a CPU; ext_ecx is 0x80000001 ECX. */
static void synth(const char *vendor, u32 family, u32 model, bool hypervisor, u32 ext_ecx)
{
    u32 fam = family > 0xf ? 0xf : family, ext_fam = family > 0xf ? family - 0xf : 0;
    cpuid_dump_init(&dump);
    cpuid_dump_set(&dump, 0, 0, 0xd, word(vendor), word(vendor + 8), word(vendor + 4));
    cpuid_dump_set(&dump, 1, 0, ext_fam << 20 | (model >> 4) << 16 | fam << 8 | (model & 0xf) << 4, 0,
                   hypervisor ? 1u << 31 : 0, 0);
    cpuid_dump_set(&dump, 0x80000000, 0, 0x80000022, 0, 0, 0);
    cpuid_dump_set(&dump, 0x80000001, 0, 0, 0, ext_ecx, 0);
}

static void recognise(struct uncore_recognition *r)
{
    struct cpuid_source src;
    cpuid_dump_source(&dump, &src);
    uncore_recognise(&src, r);
}

#define LLC_TOPOEXT (1u << 28 | 1u << 22)

static bool names_a_box(const struct uncore_kind_desc *k, const char *box)
{
    if (!strcmp(box, "fixed"))
        return k->fixed.ctl != 0;
    for (size_t i = 0; i < k->boxes_len; i++)
        if (!strcmp(k->boxes[i].name, box))
            return true;
    return false;
}

/* Every register a kind names, to find two fields naming one MSR. */
static size_t kind_msrs(const struct uncore_kind_desc *k, u32 *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < k->boxes_len; i++) {
        const struct uncore_box_desc *b = &k->boxes[i];
        for (u32 box = 0; box < b->boxes; box++)
            for (u32 c = 0; c < b->counters && n + 2 <= max; c++) {
                out[n++] = uncore_box_ctl(b, box, c);
                out[n++] = uncore_box_ctr(b, box, c);
            }
    }
    const u32 single[] = {k->fixed.ctl, k->fixed.ctr, k->global.ctrl, k->global.status, k->global.ovf_ctrl};
    for (size_t i = 0; i < ARRAY_SIZE(single) && n < max; i++)
        if (single[i])
            out[n++] = single[i];
    return n;
}

static void test_every_kind_complete(void **state)
{
    (void)state;
    size_t kinds = 0;
    for (const struct uncore_kind_desc *const *kp = uncore_kinds; *kp; kp++, kinds++) {
        const struct uncore_kind_desc *k = *kp;
        assert_non_null(k->name);
        assert_non_null(k->title);
        assert_non_null(k->source);
        assert_ptr_equal(uncore_kind_by_name(k->name), k);
        if (k->enumeration == UNCORE_ENUM_MODEL_LIST) {
            assert_true(k->models_len > 0);
            assert_null(k->claims);
        } else {
            assert_int_equal(k->enumeration, UNCORE_ENUM_CPUID);
            assert_non_null(k->claims);
        }
        assert_true(k->boxes_len > 0);
        for (size_t i = 0; i < k->boxes_len; i++) {
            const struct uncore_box_desc *b = &k->boxes[i];
            assert_non_null(b->name);
            assert_true(b->boxes > 0 && b->counters > 0);
            assert_true(b->width >= 32 && b->width <= 64);
            assert_true(b->ctl0 && b->ctr0 && b->counter_stride);
            assert_true(b->sel_enable && b->sel_event_mask);
            assert_int_equal(b->sel_enable & b->sel_event_mask, 0);
            assert_true(b->boxes == 1 || b->box_stride);
            assert_int_equal(b->boxes_msr != 0, b->boxes_mask != 0);
            /* An overflow PMI needs a routing field to go anywhere, and the routing a core-side enable. */
            if (b->sel_pmi)
                assert_true(k->global.ctrl_route_mask || !k->global.status);
        }
        if (k->fixed.ctl)
            assert_true(k->fixed.ctr && k->fixed.width && k->fixed.ctl_enable && k->fixed.counts);
        const struct uncore_global_desc *g = &k->global;
        if (g->ctrl_route_mask)
            assert_true(g->ctrl && g->debugctl_pmi);
        assert_int_equal(g->freeze != UNCORE_FREEZE_NONE, g->ctrl_freeze != 0);
        assert_int_equal(g->status != 0, g->clear != UNCORE_CLEAR_NONE);
        assert_int_equal(g->clear == UNCORE_CLEAR_OVF_CTRL_W1, g->ovf_ctrl != 0);
        if (g->status)
            assert_true(uncore_status_overflow_bits(k) != 0);
        assert_true(k->events_len > 0);
        for (size_t i = 0; i < k->events_len; i++) {
            assert_non_null(k->events[i].name);
            assert_true(names_a_box(k, k->events[i].box));
        }
        u32 msrs[512];
        size_t n = kind_msrs(k, msrs, ARRAY_SIZE(msrs));
        for (size_t i = 0; i < n; i++)
            for (size_t j = i + 1; j < n; j++)
                if (msrs[i] == msrs[j])
                    fail_msg("%s: MSR 0x%x named twice", k->name, msrs[i]);
        if (k->emul) {
            const struct uncore_emul_face *f = k->emul;
            assert_non_null(f->name);
            assert_int_equal(strlen(f->vendor), 12);
            assert_ptr_equal(uncore_kind_by_emul_name(f->name), k);
            assert_true(f->packages && f->scopes_per_package && f->cores_per_scope && f->threads_per_core);
            assert_true(f->tsc_hz > 0);
            assert_int_equal(f->uncore_clock_hz != 0, k->fixed.ctl != 0);
            if (g->ctrl_route_mask)
                assert_true(uncore_route_width(k) >= f->cores_per_scope);
        }
    }
    assert_true(kinds >= 3);
}

/* No model in two kinds' lists: recognition would depend on the table's order. */
static void test_model_lists_disjoint(void **state)
{
    (void)state;
    for (const struct uncore_kind_desc *const *a = uncore_kinds; *a; a++)
        for (const struct uncore_kind_desc *const *b = a + 1; *b; b++)
            for (size_t i = 0; i < (*a)->models_len; i++)
                for (size_t j = 0; j < (*b)->models_len; j++)
                    if ((*a)->models[i] == (*b)->models[j])
                        fail_msg("model 0x%x in %s and %s", (*a)->models[i], (*a)->name, (*b)->name);
}

/* Each emulated face's CPU is recognised as its own kind. */
static void test_emul_faces_recognised(void **state)
{
    (void)state;
    u32 faces = 0;
    for (const struct uncore_kind_desc *const *kp = uncore_kinds; *kp; kp++) {
        const struct uncore_emul_face *f = (*kp)->emul;
        if (!f)
            continue;
        faces++;
        synth(f->vendor, f->family, f->model, false, LLC_TOPOEXT);
        struct uncore_recognition r;
        recognise(&r);
        assert_ptr_equal(r.kind, *kp);
    }
    assert_true(faces >= 3);
}

static void test_recognise_intel(void **state)
{
    (void)state;
    struct uncore_recognition r;
    synth("GenuineIntel", 6, 0x2c, false, 0);
    recognise(&r);
    assert_string_equal(r.kind->name, "nhm");
    assert_non_null(strstr(r.why, "family 0x6 model 0x2c"));
    synth("GenuineIntel", 6, 0x2a, false, 0);
    recognise(&r);
    assert_string_equal(r.kind->name, "snb");
    synth("GenuineIntel", 6, 0x9e, false, 0);
    recognise(&r);
    assert_string_equal(r.kind->name, "skl");
    synth("GenuineIntel", 6, 0xba, false, 0);
    recognise(&r);
    assert_string_equal(r.kind->name, "adl");
    synth("GenuineIntel", 6, 0xc6, false, 0);
    recognise(&r);
    assert_string_equal(r.kind->name, "mtl");
}

/* Linux drives no Intel uncore under a hypervisor; the reason says so. */
static void test_recognise_hypervisor(void **state)
{
    (void)state;
    struct uncore_recognition r;
    synth("GenuineIntel", 6, 0x2c, true, 0);
    recognise(&r);
    assert_null(r.kind);
    assert_non_null(strstr(r.why, "model 0x2c"));
    assert_non_null(strstr(r.why, "hypervisor"));
}

/* The line the header and pmu-decode print: the kind and why, or none and why. */
static void test_describe_line(void **state)
{
    (void)state;
    struct uncore_recognition r;
    char buf[512];
    struct strbuf sb;
    synth("GenuineIntel", 6, 0x2c, false, 0);
    recognise(&r);
    sb_init(&sb, buf, sizeof(buf));
    uncore_recognition_describe(&r, &sb);
    assert_true(strncmp(buf, "uncore: nhm (Nehalem/Westmere uncore", 36) == 0);
    assert_non_null(strstr(buf, "family 0x6 model 0x2c"));
    assert_int_equal(buf[strlen(buf) - 1], '\n');
    synth("GenuineIntel", 6, 0x2c, true, 0);
    recognise(&r);
    sb_init(&sb, buf, sizeof(buf));
    uncore_recognition_describe(&r, &sb);
    assert_true(strncmp(buf, "uncore: none: GenuineIntel family 0x6 model 0x2c", 48) == 0);
    assert_non_null(strstr(buf, "under a hypervisor"));
}

static void test_recognise_not_built(void **state)
{
    (void)state;
    struct uncore_recognition r;
    synth("GenuineIntel", 6, 0x55, false, 0); /* Skylake-X */
    recognise(&r);
    assert_null(r.kind);
    assert_non_null(strstr(r.why, "uncore_snbep.c"));
    synth("GenuineIntel", 6, 0x8f, false, 0); /* Sapphire Rapids */
    recognise(&r);
    assert_null(r.kind);
    assert_non_null(strstr(r.why, "uncore_discovery.c"));
    synth("GenuineIntel", 6, 0x0f, false, 0); /* Core 2: no uncore PMU */
    recognise(&r);
    assert_null(r.kind);
    assert_non_null(strstr(r.why, "family 0x6 model 0xf"));
    assert_non_null(strstr(r.why, "probed"));
}

static void test_recognise_amd(void **state)
{
    (void)state;
    struct uncore_recognition r;
    synth("AuthenticAMD", 0x17, 0x71, false, LLC_TOPOEXT); /* Zen 2 */
    recognise(&r);
    assert_string_equal(r.kind->name, "amd_l3_zen12");
    synth("AuthenticAMD", 0x19, 0x61, false, LLC_TOPOEXT); /* Zen 4 */
    cpuid_dump_set(&dump, 0x80000022, 0, 1, 4u << 10 | 16u << 16, 0, 0);
    recognise(&r);
    assert_string_equal(r.kind->name, "amd_l3_zen3");
    assert_non_null(strstr(r.why, "4 DF and 16 UMC"));
    synth("AuthenticAMD", 0x19, 0x21, false, 1u << 22); /* no PerfCtrExtLLC: a hypervisor's CPUID, say */
    recognise(&r);
    assert_null(r.kind);
    assert_non_null(strstr(r.why, "PerfCtrExtLLC=0"));
    synth("AuthenticAMD", 0x15, 0x02, false, LLC_TOPOEXT);
    recognise(&r);
    assert_null(r.kind);
    assert_non_null(strstr(r.why, "L2 PMU"));
    synth("AuthenticAMD", 0x15, 0x02, false, 0);
    recognise(&r);
    assert_null(r.kind);
    assert_non_null(strstr(r.why, "PerfCtrExtLLC=0"));
}

/* QEMU TCG's default CPU (qemu64: AuthenticAMD family 0xf, no PerfCtrExtLLC, the hypervisor bit). */
static void test_recognise_qemu(void **state)
{
    (void)state;
    struct uncore_recognition r;
    synth("AuthenticAMD", 0xf, 0x6b, true, 0);
    recognise(&r);
    assert_null(r.kind);
    assert_non_null(strstr(r.why, "family 0xf model 0x6b"));
    assert_non_null(strstr(r.why, "probed"));
}

static void test_route_bits(void **state)
{
    (void)state;
    const struct uncore_kind_desc *nhm = uncore_kind_by_name("nhm"), *snb = uncore_kind_by_name("snb");
    assert_int_equal(uncore_route_bits(nhm, 0x5), 0x5ull << 48);
    assert_int_equal(uncore_route_cores(nhm, BIT(63) | 0xaull << 48 | 0xff), 0xa);
    assert_int_equal(uncore_route_width(nhm), 4);
    assert_int_equal(uncore_route_bits(snb, 0x1f), 0xf); /* a fifth core is not in the field */
    assert_int_equal(uncore_route_width(uncore_kind_by_name("amd_l3_zen3")), 0);
    assert_int_equal(uncore_status_overflow_bits(nhm), 0xffull | BIT(32));
    assert_int_equal(uncore_status_overflow_bits(snb), BIT(0) | BIT(1) | BIT(3));
    assert_int_equal(uncore_box_ctl(&snb->boxes[0], 2, 1), 0x721);
    assert_int_equal(uncore_box_ctr(&snb->boxes[0], 2, 1), 0x727);
}

/* Real CPUs' dumps (tests/host/data, PROVENANCE.md): the kind each is, or NULL with the words its SKIP must hold. */
static void test_recognise_dumps(void **state)
{
    (void)state;
    static const struct {
        const char *file, *kind, *why;
    } cases[] = {
        {"intel_westmere_gulftown_000206C2.txt", "nhm", "model 0x2c"},
        {"intel_sandybridge_000206A7.txt", "snb", "model 0x2a"},
        {"intel_skylake_000506E3.txt", "skl", "model 0x5e"},
        {"intel_icelake_000706E5.txt", "icl", "model 0x7e"},
        {"intel_alderlake_p_hybrid_000906A4.txt", "adl", "model 0x9a"},
        {"intel_alderlake_s_ecores_off_00090672.txt", "adl", "model 0x97"},
        {"intel_raptorlake_p_hybrid_000B06A2.txt", "adl", "model 0xba"},
        {"intel_meteorlake_hybrid_000A06A4.txt", "mtl", "model 0xaa"},
        {"intel_arrowlake_h_hybrid_000C0652.txt", "mtl", "model 0xc5"},
        {"intel_arrowlake_u_hybrid_000B0650.txt", "mtl", "model 0xb5"},
        {"intel_core2_conroe_000006F6.txt", NULL, "model 0xf"},
        {"intel_denverton_000506F1.txt", NULL, "model 0x5f"},
        {"intel_knights_landing_00050671.txt", NULL, "uncore_snbep.c"},
        {"amd_k8_manchester_00020FB1.txt", NULL, "PerfCtrExtLLC=0"},
        {"amd_zen2_matisse_00870F10.txt", "amd_l3_zen12", "family 0x17"},
        {"amd_zen4_genoa_00A10F11.txt", "amd_l3_zen3", "PerfMonV2"},
        {"amd_zen5_strixpoint_00B20F40.txt", "amd_l3_zen3", "family 0x1a"},
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        size_t len;
        char *text = test_data_read(cases[i].file, &len);
        assert_non_null(text);
        assert_true(cpuid_dump_parse(&dump, text, len, 0));
        free(text);
        struct uncore_recognition r;
        recognise(&r);
        if (cases[i].kind ? !r.kind || strcmp(r.kind->name, cases[i].kind) : r.kind != NULL)
            fail_msg("%s: %s, expected %s (%s)", cases[i].file, r.kind ? r.kind->name : "none",
                     cases[i].kind ? cases[i].kind : "none", r.why);
        if (!strstr(r.why, cases[i].why))
            fail_msg("%s: '%s' lacks '%s'", cases[i].file, r.why, cases[i].why);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_kind_complete),   cmocka_unit_test(test_model_lists_disjoint),
        cmocka_unit_test(test_emul_faces_recognised), cmocka_unit_test(test_recognise_intel),
        cmocka_unit_test(test_recognise_hypervisor),  cmocka_unit_test(test_recognise_not_built),
        cmocka_unit_test(test_describe_line),
        cmocka_unit_test(test_recognise_amd),         cmocka_unit_test(test_recognise_qemu),
        cmocka_unit_test(test_route_bits),            cmocka_unit_test(test_recognise_dumps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
