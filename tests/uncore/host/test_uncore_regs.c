/* Suite uncore's hardware path (tests/uncore/portable/uncore_regs.c) driven with the register model as the hardware:
 * the same register list, save, restore and probe the kernel runs on a recognised part, reached through a struct
 * hw_access backed by the uncore model (emul/model/uncore_model.h), by a flat MSR file that serves a box-count
 * register, by one that raises #GP everywhere (a recognised model whose uncore MSRs do not exist) and by one that
 * reads 0 and drops every write (QEMU TCG's answer to an unknown MSR). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "emul/model/uncore_model.h"
#include "lib/format.h"
#include "tests/uncore/portable/uncore_regs.h"

/* The model as the hardware. */
static int m_rd(void *ctx, u32 msr, u64 *v)
{
    return uncore_model_rdmsr(ctx, msr, v) ? HW_GP : 0;
}
static int m_wr(void *ctx, u32 msr, u64 v)
{
    return uncore_model_wrmsr(ctx, msr, v) ? HW_GP : 0;
}
static const struct hw_ops model_ops = {.rdmsr = m_rd, .wrmsr = m_wr};

/* A flat MSR file: every MSR holds what was written (0 at first); `boxes_msr` reads boxes_value, or faults. */
struct flat {
    u32 msr[256];
    u64 val[256];
    u32 n;
    u32 boxes_msr;
    u64 boxes_value;
    bool boxes_fault;
    bool gp_all, drop_all; /* every access #GP; every read 0 and every write dropped */
};
static u64 *slot(struct flat *f, u32 msr)
{
    for (u32 i = 0; i < f->n; i++)
        if (f->msr[i] == msr)
            return &f->val[i];
    assert_true(f->n < 256);
    f->msr[f->n] = msr;
    f->val[f->n] = 0;
    return &f->val[f->n++];
}
static int f_rd(void *ctx, u32 msr, u64 *v)
{
    struct flat *f = ctx;
    *v = 0;
    if (f->gp_all || (msr == f->boxes_msr && f->boxes_fault))
        return HW_GP;
    if (f->drop_all)
        return 0;
    *v = msr == f->boxes_msr ? f->boxes_value : *slot(f, msr);
    return 0;
}
static int f_wr(void *ctx, u32 msr, u64 v)
{
    struct flat *f = ctx;
    if (f->gp_all)
        return HW_GP;
    if (!f->drop_all)
        *slot(f, msr) = v;
    return 0;
}
static const struct hw_ops flat_ops = {.rdmsr = f_rd, .wrmsr = f_wr};

static struct uncore_machine m;
static struct uncore_regs r;

static struct hw_access model_access(const char *kind, struct uncore_model **u)
{
    const char *why = NULL;
    if (!uncore_machine_init(&m, uncore_kind_by_name(kind), 0, &why))
        fail_msg("%s: %s", kind, why);
    *u = &m.scope[0];
    return (struct hw_access){.ops = &model_ops, .ctx = *u};
}

/* Every register of the list reads, after a check's scribbles and the restore, what it read before. */
static void test_restore_as_found(void **state)
{
    (void)state;
    static const char *const kinds[] = {"nhm", "snb", "amd_l3_zen3"};
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
        struct uncore_model *u;
        struct hw_access a = model_access(kinds[i], &u);
        const struct uncore_kind_desc *k = m.kind;
        uncore_regs_find(&r, &a, k, k->emul->cores_per_scope);
        assert_true(r.ncounters > 0);
        /* Something found in the registers: a select and a counter value, as firmware could leave them. */
        assert_int_equal(hw_wrmsr(&a, r.c[0].ctl, r.c[0].box ? r.c[0].box->sel_enable | 0x01 : 0), 0);
        assert_int_equal(hw_wrmsr(&a, r.c[0].ctr, 0x1234), 0);
        u64 before[UNCORE_REGS_MAX / 2][2];
        for (u32 c = 0; c < r.ncounters; c++) {
            hw_rdmsr(&a, r.c[c].ctl, &before[c][0]);
            hw_rdmsr(&a, r.c[c].ctr, &before[c][1]);
        }
        uncore_regs_save(&r);
        /* The check: every counter all-ones, enabled with its PMI, the global control on, time passing (overflows,
         * status bits and, with freeze, the enables cleared). */
        for (u32 c = 0; c < r.ncounters; c++) {
            hw_wrmsr(&a, r.c[c].ctr, uncore_width_mask(r.c[c].width) - 3);
            hw_wrmsr(&a, r.c[c].ctl, r.c[c].box ? r.c[c].box->sel_enable | r.c[c].box->sel_pmi | 0xff
                                                : k->fixed.ctl_enable | k->fixed.ctl_pmi);
        }
        if (k->global.ctrl)
            hw_wrmsr(&a, k->global.ctrl, k->global.ctrl_enable | k->global.ctrl_freeze | uncore_route_bits(k, 1));
        uncore_model_tick(u, 100000, 100);
        uncore_regs_restore(&r);
        for (u32 c = 0; c < r.ncounters; c++) {
            u64 v;
            hw_rdmsr(&a, r.c[c].ctl, &v);
            assert_int_equal(v, before[c][0]);
            hw_rdmsr(&a, r.c[c].ctr, &v);
            assert_int_equal(v, before[c][1]);
        }
        u64 v;
        if (k->global.ctrl) {
            hw_rdmsr(&a, k->global.ctrl, &v);
            assert_int_equal(v, 0);
        }
        if (k->global.status) {
            hw_rdmsr(&a, k->global.status, &v);
            assert_int_equal(v, 0); /* the bits set by the check cleared by the kind's clear */
        }
    }
}

/* The probe on the model holds the write and leaves the counter as found. */
static void test_probe_on_model(void **state)
{
    (void)state;
    struct uncore_model *u;
    struct hw_access a = model_access("nhm", &u);
    const struct uncore_kind_desc *k = m.kind;
    hw_wrmsr(&a, k->boxes[0].ctr0, 77);
    struct uncore_probe p;
    assert_true(uncore_regs_probe(&a, k, &p));
    assert_int_equal(p.msr, k->global.ctrl);
    assert_int_equal(p.ctr, k->boxes[0].ctr0);
    u64 v;
    hw_rdmsr(&a, k->boxes[0].ctr0, &v);
    assert_int_equal(v, 77);
    /* AMD's L3: no global control, the first select probed. */
    a = model_access("amd_l3_zen3", &u);
    assert_true(uncore_regs_probe(&a, m.kind, &p));
    assert_int_equal(p.msr, m.kind->boxes[0].ctl0);
}

/* A recognised model whose uncore MSRs do not exist: #GP, the evidence names it; nothing is written. */
static void test_probe_gp_and_unbacked(void **state)
{
    (void)state;
    const struct uncore_kind_desc *k = uncore_kind_by_name("nhm");
    static struct flat f;
    memset(&f, 0, sizeof(f));
    f.gp_all = true;
    struct hw_access a = {.ops = &flat_ops, .ctx = &f};
    struct uncore_probe p;
    assert_false(uncore_regs_probe(&a, k, &p));
    assert_int_equal(p.fault, HW_GP);
    assert_int_equal(a.msr_writes, 0);
    char buf[240];
    struct strbuf sb;
    sb_init(&sb, buf, sizeof(buf));
    uncore_probe_describe(k, &p, &sb);
    assert_non_null(strstr(buf, "MSR 0x391 (the global control) read: #GP (vector 13)"));
    /* QEMU TCG: an unknown MSR reads 0 and drops the write. */
    memset(&f, 0, sizeof(f));
    f.drop_all = true;
    assert_false(uncore_regs_probe(&a, k, &p));
    assert_int_equal(p.fault, 0);
    assert_int_equal(p.read_back, 0);
    sb_init(&sb, buf, sizeof(buf));
    uncore_probe_describe(k, &p, &sb);
    assert_non_null(strstr(buf, "counter MSR 0x3b0 written 0x5a5a5a5a reads back 0x0: the register is not backed"));
    /* A global control found set is stopped around the probe and put back. */
    memset(&f, 0, sizeof(f));
    *slot(&f, k->global.ctrl) = k->global.ctrl_enable;
    assert_true(uncore_regs_probe(&a, k, &p));
    assert_int_equal(*slot(&f, k->global.ctrl), k->global.ctrl_enable);
    assert_int_equal(*slot(&f, k->boxes[0].ctr0), 0);
}

/* The box counts from the part: MSR_UNC_CBO_CONFIG (396H) where the descriptor says, capped by the cores when it
 * faults; the client's C-Boxes capped by the cores where the kind says. */
static void test_box_count_from_the_part(void **state)
{
    (void)state;
    static struct flat f;
    struct hw_access a = {.ops = &flat_ops, .ctx = &f};
    const struct uncore_kind_desc *k = uncore_kind_by_name("adl");
    assert_non_null(k);
    const struct uncore_box_desc *cbox = &k->boxes[0];
    assert_int_equal(cbox->boxes_msr, 0x396);
    u32 others = 0; /* the counters of the other groups and the fixed one */
    for (size_t i = 1; i < k->boxes_len; i++)
        others += k->boxes[i].boxes * k->boxes[i].counters;
    others += k->fixed.ctl ? 1 : 0;
    memset(&f, 0, sizeof(f));
    f.boxes_msr = 0x396;
    f.boxes_value = 0xf0 | 6; /* bits above the mask are not the count */
    uncore_regs_find(&r, &a, k, 8);
    assert_int_equal(r.ncounters, 6 * cbox->counters + others);
    f.boxes_fault = true;
    uncore_regs_find(&r, &a, k, 4);
    assert_int_equal(r.ncounters, 4 * cbox->counters + others);
    const struct uncore_kind_desc *snb = uncore_kind_by_name("snb");
    uncore_regs_find(&r, &a, snb, 2);
    assert_int_equal(r.c[0].ctl, snb->boxes[0].ctl0);
    u32 n = snb->fixed.ctl ? 1 : 0;
    for (size_t i = 0; i < snb->boxes_len; i++)
        n += (snb->boxes[i].boxes_capped_by_cores && snb->boxes[i].boxes > 2 ? 2 : snb->boxes[i].boxes) *
             snb->boxes[i].counters;
    assert_int_equal(r.ncounters, n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_restore_as_found),
        cmocka_unit_test(test_probe_on_model),
        cmocka_unit_test(test_probe_gp_and_unbacked),
        cmocka_unit_test(test_box_count_from_the_part),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
