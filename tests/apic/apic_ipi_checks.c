/* The apic suite's interrupt checks: self-IPI, IPIs to each CPU and broadcast, NMI IPIs (SDM Vol.3A 11.6),
 * task and processor priority (11.8.3), and EOI (11.8.5). */
#include <string.h>

#include "apic/apic.h"
#include "lib/format.h"
#include "lib/hv_deviation.h"
#include "lib/x2apic_ldr.h"
#include "kernel/boot_state.h"
#include "kernel/percpu.h"
#include "kernel/smp.h"
#include "kernel/timing.h"
#include "kernel/traps.h"
#include "kernel/x86.h"
#include "tests/apic/apic_checks.h"
#include "harness/test_util.h"
#include "harness/framework.h"
#include "kernel/percpu_array.h"

/* SDM 11.6.1 (shorthand "self"), 11.8.4: an accepted fixed interrupt waits in IRR while IF=0, moves to ISR
 * when dispatched, and EOI (11.8.5) clears the ISR bit. */
void self_ipi_check(struct check *c)
{
    struct irq_rec *r = irq_rec_here(SLOT_IPI);
    irq_rec_clear(r);
    irq_borrow(VEC_IPI, counting_handler);
    expect_eq(c, "ISR bit before", 0, apic_vector_bit(APIC_ISR0, VEC_IPI));
    u64 flags = read_flags();
    cli(); /* "while IF=0" whatever the caller had */
    apic_self_ipi(VEC_IPI);
    /* Read at least once: a vCPU descheduled past the deadline before the first read must not read as "not
     * pending". */
    u64 end = rdtsc() + 1000 * tsc_per_us();
    bool irr = apic_vector_bit(APIC_IRR0, VEC_IPI);
    while (!irr && rdtsc() < end)
        irr = apic_vector_bit(APIC_IRR0, VEC_IPI);
    expect_eq(c, "IRR bit while IF=0", 1, irr);
    if (flags & RFLAGS_IF)
        sti();
    u32 n = wait_with_interrupts(&r->count, 1, ARRIVAL_TIMEOUT_US, 1000);
    irq_give_back(VEC_IPI);
    expect_eq_dec(c, "deliveries", 1, n);
    if (n) {
        expect_eq(c, "ISR bit in the handler", 1, r->isr_at_entry);
        expect_eq(c, "ISR bit after EOI", 0, r->isr_after_eoi);
    }
    expect_eq(c, "IRR bit after", 0, apic_vector_bit(APIC_IRR0, VEC_IPI));
    expect_eq(c, "ISR bit after", 0, apic_vector_bit(APIC_ISR0, VEC_IPI));
}

/* Send one IPI to each target (or one broadcast), wait for each target's count, report per APIC ID. */
static void ipi_report(struct check *c, u32 slot, const bool *target, u32 targets, u64 timeout_us)
{
    u64 deadline = rdtsc() + timeout_us * tsc_per_us();
    for (;;) {
        bool all = true;
        for (u32 i = 0; i < smp.count && all; i++)
            all = !target[i] || irq_recs[i][slot].count >= 1;
        if (all || rdtsc() > deadline)
            break;
        spin_wait_step();
    }
    udelay(2000); /* time for a duplicate to show */
    u32 exact = 0, wrong_cpu = 0, bad_listed = 0;
    struct pair_notes pn;
    pair_notes_begin(&pn, c, "deliveries by APIC ID");
    for (u32 i = 0; i < smp.count; i++) {
        if (!target[i])
            continue;
        u32 n = irq_recs[i][slot].count;
        pair_notes_add(&pn, smp.cpu[i].apic_id, n);
        exact += n == 1;
        if (n && irq_recs[i][slot].apic_id != smp.cpu[i].apic_id)
            wrong_cpu++;
        if (n != 1 && bad_listed++ < 4) {
            char what[48];
            k_snprintf(what, sizeof(what), "APIC ID %u deliveries", smp.cpu[i].apic_id);
            expect_eq_dec(c, what, 1, n);
        }
    }
    pair_notes_end(&pn);
    expect_eq_dec(c, "targets that took exactly one", targets, exact);
    expect_eq_dec(c, "deliveries whose handler saw another APIC ID", 0, wrong_cpu);
}

static u32 pick_targets(bool *target, bool include_self)
{
    u32 n = 0;
    for (u32 i = 0; i < smp.count; i++) {
        target[i] = smp.cpu[i].state == CPU_ONLINE && (include_self || i != this_cpu()->index);
        n += target[i];
    }
    return n;
}

/* The targets of an IPI to every other online CPU, with the records cleared and the counting handler on the test
 * vector; 0 (and the check skipped) when no other CPU is online. */
static u32 begin_to_others(struct check *c, bool *target)
{
    u32 n = pick_targets(target, false);
    if (!n) {
        check_skip(c, "no other CPU online (%u known)", smp.count);
        return 0;
    }
    irq_rec_clear_all_cpus(SLOT_IPI);
    irq_borrow(VEC_IPI, counting_handler);
    return n;
}

/* SDM 11.6.1: fixed delivery, physical destination mode (ICR[11]=0), no shorthand, to each other CPU. */
void ipi_each_check(struct check *c)
{
    PER_CPU_ARRAY(bool, target);
    u32 n = begin_to_others(c, target);
    if (!n)
        return;
    u32 send_fail = 0;
    for (u32 i = 0; i < smp.count; i++)
        if (target[i] && !apic_send_ipi(smp.cpu[i].apic_id, ICR_DM_FIXED | VEC_IPI))
            send_fail++;
    ipi_report(c, SLOT_IPI, target, n, 2000000);
    expect_eq_dec(c, "ICR sends still busy after the wait (delivery status)", 0, send_fail);
    /* With IF=0 here, one that wrongly came back to the sender waits in IRR: take it before the handler goes. */
    u32 self = wait_with_interrupts(&irq_rec_here(SLOT_IPI)->count, ~0u, 1000, 0);
    expect_eq_dec(c, "deliveries to the sender", 0, self);
    irq_give_back(VEC_IPI);
}

/* SDM 11.6.1: destination shorthand 11b "all excluding self": every other CPU once, the sender never. */
void ipi_all_but_self_check(struct check *c)
{
    PER_CPU_ARRAY(bool, target);
    u32 n = begin_to_others(c, target);
    if (!n)
        return;
    bool sent = apic_send_ipi(0, ICR_SH_OTHERS | ICR_DM_FIXED | VEC_IPI);
    ipi_report(c, SLOT_IPI, target, n, 2000000);
    expect_true(c, "ICR send completed", sent, "delivery status idle", "%s", sent ? "idle" : "still busy");
    expect_eq(c, "sender's IRR bit", 0, apic_vector_bit(APIC_IRR0, VEC_IPI));
    u32 self = wait_with_interrupts(&irq_rec_here(SLOT_IPI)->count, 1, 1000, 0);
    expect_eq_dec(c, "deliveries to the sender", 0, self);
    irq_give_back(VEC_IPI);
}

static void set_ldr(void *arg)
{
    apic_write(APIC_DFR, 0xFFFFFFFFu); /* flat model (SDM 11.6.2.2) */
    apic_write(APIC_LDR, *(const u32 *)arg);
}

/* SDM 11.6.2.2: logical destination mode (ICR[11]=1). xAPIC flat model: each CPU's LDR[31:24] holds a one-bit
 * logical ID, and an IPI reaches every CPU whose bit is in the 8-bit destination: one IPI here to all
 * other CPUs among the first 8 at once. x2APIC (SDM 11.12.10.2): the LDR is read-only, cluster ID[19:4] in
 * bits 31:16 and 1 << ID[3:0] below; one IPI per target to its logical ID. */
void ipi_logical_check(struct check *c)
{
    PER_CPU_ARRAY(bool, target);
    u32 me = this_cpu()->index, n = 0;
    bool x2 = apic_mode() == APIC_MODE_X2APIC;
    for (u32 i = 0; i < smp.count; i++) {
        target[i] = smp.cpu[i].state == CPU_ONLINE && i != me && (x2 || i < 8);
        n += target[i];
    }
    if (!n)
        return check_skip(c, "no other CPU online%s (%u known)", x2 ? "" : " among the first 8 (flat model)",
                          smp.count);
    irq_rec_clear_all_cpus(SLOT_IPI);
    irq_borrow(VEC_IPI, counting_handler);
    u32 send_fail = 0, mask = 0;
    if (!x2) {
        for (u32 i = 0; i < smp.count && i < 8; i++) {
            if (smp.cpu[i].state != CPU_ONLINE)
                continue;
            u32 ldr = 1u << (24 + i);
            smp_run_on(i, set_ldr, &ldr, 1000);
            if (target[i])
                mask |= 1u << i;
        }
        check_note(c, "mode", "xAPIC flat model, destination mask 0x%02x, CPUs beyond the 8th not addressable", mask);
        if (!apic_send_ipi(mask, ICR_DEST_LOGICAL | ICR_DM_FIXED | VEC_IPI))
            send_fail++;
    } else {
        check_note(c, "mode", "x2APIC cluster model, one IPI per target to its logical ID");
        for (u32 i = 0; i < smp.count; i++) {
            if (!target[i])
                continue;
            if (!apic_send_ipi(x2apic_logical_id(smp.cpu[i].apic_id), ICR_DEST_LOGICAL | ICR_DM_FIXED | VEC_IPI))
                send_fail++;
        }
        u32 own = apic_read(APIC_LDR), id = apic_id();
        expect_eq(c, "own LDR derived from the x2APIC ID", x2apic_logical_id(id), own);
    }
    ipi_report(c, SLOT_IPI, target, n, 2000000);
    expect_eq_dec(c, "ICR sends still busy after the wait (delivery status)", 0, send_fail);
    u32 self = wait_with_interrupts(&irq_rec_here(SLOT_IPI)->count, ~0u, 1000, 0);
    expect_eq_dec(c, "deliveries to the sender", 0, self);
    irq_give_back(VEC_IPI);
    if (!x2) { /* back to no logical ID, as apic_cpu_init left it */
        u32 zero = 0;
        for (u32 i = 0; i < smp.count && i < 8; i++)
            if (smp.cpu[i].state == CPU_ONLINE)
                smp_run_on(i, set_ldr, &zero, 1000);
    }
}

/* SDM 11.6.1: delivery mode NMI (100b), vector ignored; to every online CPU, the sender included, by its
 * physical APIC ID. NMIs bypass IRR/ISR and IF (SDM 11.8.4 note, 6.8.1). */
void nmi_ipi_check(struct check *c)
{
    PER_CPU_ARRAY(bool, target);
    u32 n = pick_targets(target, true);
    irq_rec_clear_all_cpus(SLOT_NMI);
    irq_rec_clear_all_cpus(SLOT_ILLEGAL);
    irq_borrow(2, vector2_handler);
    u32 send_fail = 0;
    for (u32 i = 0; i < smp.count; i++)
        if (target[i] && !apic_send_ipi(smp.cpu[i].apic_id, ICR_DM_NMI))
            send_fail++;
    ipi_report(c, SLOT_NMI, target, n, 2000000);
    irq_give_back(2);
    expect_eq_dec(c, "ICR sends still busy after the wait (delivery status)", 0, send_fail);
}

static u64 read_cr8(void)
{
    u64 v;
    asm volatile("mov %%cr8, %0" : "=r"(v));
    return v;
}

static void write_cr8(u64 v)
{
    asm volatile("mov %0, %%cr8" ::"r"(v) : "memory");
}

PER_CPU_ARRAY(volatile u32[2], tpr_in_handler_ppr);

/* VEC_HIGH with TPR 0x35: inside, PPR = ISRV class (0x90); raising TPR above it to 0xA7 makes PPR = TPR. */
static void tpr_handler(struct trap_frame *f)
{
    u32 idx = this_cpu()->index;
    tpr_in_handler_ppr[idx][0] = apic_read(APIC_PPR) & 0xFF;
    apic_write(APIC_TPR, 0xA7);
    tpr_in_handler_ppr[idx][1] = apic_read(APIC_PPR) & 0xFF;
    apic_write(APIC_TPR, 0x35);
    counting_handler(f);
}

/* SDM 11.8.3.1: TPR[7:0] read/write; PPR = TPR when TPR[7:4] >= ISRV[7:4], else ISRV[7:4]:0.
 * SDM 11.8.6.1: CR8[3:0] is TPR[7:4]; a CR8 write clears TPR[3:0]. */
void tpr_check(struct check *c)
{
    static const u8 vals[] = {0x00, 0x10, 0x35, 0x5A, 0x80, 0xA5, 0xF0, 0xFF};
    u32 orig = apic_read(APIC_TPR);
    char exp_tpr[64] = "", obs_tpr[64] = "", obs_ppr[64] = "", exp_cr8[32] = "", obs_cr8[32] = "";
    struct strbuf et, ot, op, ec, oc;
    sb_init(&et, exp_tpr, sizeof(exp_tpr));
    sb_init(&ot, obs_tpr, sizeof(obs_tpr));
    sb_init(&op, obs_ppr, sizeof(obs_ppr));
    sb_init(&ec, exp_cr8, sizeof(exp_cr8));
    sb_init(&oc, obs_cr8, sizeof(obs_cr8));
    bool tpr_ok = true, ppr_ok = true, cr8_ok = true;
    /* (written, read) pairs of TPR and PPR with nothing in service, for hv_dev_tpr_low_nibble. */
    u8 wrote[2 * ARRAY_SIZE(vals) + 1], got[2 * ARRAY_SIZE(vals) + 1];
    u32 pairs = 0;
    expect_eq(c, "ISR empty (ISRV 0)", 0, apic_read(APIC_ISR0 + 0x70) | apic_read(APIC_ISR0 + 0x60) |
                                                apic_read(APIC_ISR0 + 0x50) | apic_read(APIC_ISR0 + 0x40) |
                                                apic_read(APIC_ISR0 + 0x30) | apic_read(APIC_ISR0 + 0x20) |
                                                apic_read(APIC_ISR0 + 0x10) | apic_read(APIC_ISR0));
    for (u32 i = 0; i < ARRAY_SIZE(vals); i++) {
        apic_write(APIC_TPR, vals[i]);
        u32 t = apic_read(APIC_TPR) & 0xFF, p = apic_read(APIC_PPR) & 0xFF;
        u64 c8 = read_cr8();
        const char *sep = i ? " " : "";
        sb_printf(&et, "%s%02x", sep, vals[i]);
        sb_printf(&ot, "%s%02x", sep, t);
        sb_printf(&op, "%s%02x", sep, p);
        sb_printf(&ec, "%s%x", sep, vals[i] >> 4);
        sb_printf(&oc, "%s%llx", sep, (unsigned long long)c8);
        wrote[pairs] = vals[i], got[pairs++] = (u8)t;
        wrote[pairs] = vals[i], got[pairs++] = (u8)p;
        tpr_ok = tpr_ok && t == vals[i];
        ppr_ok = ppr_ok && p == vals[i];
        cr8_ok = cr8_ok && c8 == (u64)(vals[i] >> 4);
    }
    expect_true(c, "TPR readback", tpr_ok, exp_tpr, "%s", obs_tpr);
    expect_true(c, "PPR (= TPR with ISR empty)", ppr_ok, exp_tpr, "%s", obs_ppr);
    bool others_ok = expect_true(c, "CR8 (= TPR[7:4])", cr8_ok, exp_cr8, "%s", obs_cr8);
    write_cr8(0x9);
    others_ok &= expect_eq(c, "TPR after CR8 <- 9", 0x90, apic_read(APIC_TPR) & 0xFF);
    write_cr8(0);
    others_ok &= expect_eq(c, "TPR after CR8 <- 0", 0x00, apic_read(APIC_TPR) & 0xFF);

    /* PPR while VEC_HIGH (class 9) is in service. */
    struct irq_rec *r = irq_rec_here(SLOT_HIGH);
    irq_rec_clear(r);
    apic_write(APIC_TPR, 0x35);
    irq_borrow(VEC_HIGH, tpr_handler);
    apic_self_ipi(VEC_HIGH);
    u32 n = wait_with_interrupts(&r->count, 1, ARRIVAL_TIMEOUT_US, 0);
    irq_give_back(VEC_HIGH);
    apic_write(APIC_TPR, orig);
    if (expect_eq_dec(c, "deliveries of vector 0x93 at TPR 0x35", 1, n)) {
        others_ok &= expect_eq(c, "PPR in service of 0x93, TPR 0x35", 0x90, tpr_in_handler_ppr[this_cpu()->index][0]);
        /* PPR = TPR here (TPR class above ISRV's): one more TPR pair. */
        wrote[pairs] = 0xA7, got[pairs++] = (u8)tpr_in_handler_ppr[this_cpu()->index][1];
        expect_eq(c, "PPR in service of 0x93, TPR 0xa7", 0xA7, tpr_in_handler_ppr[this_cpu()->index][1]);
    } else {
        others_ok = false;
    }
    others_ok &= expect_eq(c, "TPR restored", orig & 0xFF, apic_read(APIC_TPR) & 0xFF);
    const char *dev = hv_dev_tpr_low_nibble(hv_kind_of(&boot_state()->ident), boot_state()->ident.vendor, wrote, got, pairs);
    if (dev && others_ok)
        check_deviation(c, "%s", dev);
}

/* SDM 11.8.3.1: a fixed interrupt is delivered only when its class (vector[7:4]) is above PPR[7:4]; held
 * off, it stays in IRR, and lowering TPR releases it. */
void tpr_holdoff_check(struct check *c)
{
    u32 orig = apic_read(APIC_TPR);
    struct irq_rec *r = irq_rec_here(SLOT_LOW);
    irq_rec_clear(r);
    irq_borrow(VEC_LOW, counting_handler);
    apic_write(APIC_TPR, 0x50);
    apic_self_ipi(VEC_LOW); /* class 5 = TPR class: not above it */
    u32 at50 = wait_with_interrupts(&r->count, 1, 2000, 0);
    apic_write(APIC_TPR, 0x5F);
    u32 at5f = wait_with_interrupts(&r->count, 1, 2000, 0);
    bool irr = apic_vector_bit(APIC_IRR0, VEC_LOW);
    apic_write(APIC_TPR, 0x4F);
    u32 at4f = wait_with_interrupts(&r->count, 1, ARRIVAL_TIMEOUT_US, 1000);
    irq_give_back(VEC_LOW);
    apic_write(APIC_TPR, orig);
    expect_eq_dec(c, "deliveries of 0x52 at TPR 0x50 (2 ms, IF=1)", 0, at50);
    expect_eq_dec(c, "deliveries of 0x52 at TPR 0x5f (2 ms, IF=1)", 0, at5f);
    expect_eq(c, "IRR bit 0x52 while held off", 1, irr);
    expect_eq_dec(c, "deliveries after TPR <- 0x4f", 1, at4f);
    expect_eq(c, "IRR bit 0x52 after", 0, apic_vector_bit(APIC_IRR0, VEC_LOW));
}

PER_CPU_ARRAY(volatile u32[6], eoi_seen);

/* Outer (class 5) handler: raise VEC_HIGH and take it nested, then EOI last. */
static void eoi_low_handler(struct trap_frame *f)
{
    u32 idx = this_cpu()->index;
    irq_rec_entry(irq_rec_here(SLOT_LOW), (u8)f->vector, rdtsc());
    apic_self_ipi(VEC_HIGH);
    wait_with_interrupts(&irq_rec_here(SLOT_HIGH)->count, 1, ARRIVAL_TIMEOUT_US, 0);
    eoi_seen[idx][3] = apic_vector_bit(APIC_ISR0, VEC_LOW);
    eoi_seen[idx][4] = apic_vector_bit(APIC_ISR0, VEC_HIGH);
    apic_eoi();
    eoi_seen[idx][5] = apic_vector_bit(APIC_ISR0, VEC_LOW);
}

static void eoi_high_handler(struct trap_frame *f)
{
    u32 idx = this_cpu()->index;
    irq_rec_entry(irq_rec_here(SLOT_HIGH), (u8)f->vector, rdtsc());
    eoi_seen[idx][0] = apic_vector_bit(APIC_ISR0, VEC_LOW);
    apic_eoi();
    eoi_seen[idx][1] = apic_vector_bit(APIC_ISR0, VEC_HIGH);
    eoi_seen[idx][2] = apic_vector_bit(APIC_ISR0, VEC_LOW);
}

/* SDM 11.8.3 / 11.8.5: a higher-class interrupt nests inside a lower one; each EOI clears the
 * highest-priority ISR bit, so the inner EOI leaves the outer vector in service. */
void eoi_check(struct check *c)
{
    u32 idx = this_cpu()->index, orig = apic_read(APIC_TPR);
    irq_rec_clear(irq_rec_here(SLOT_LOW));
    irq_rec_clear(irq_rec_here(SLOT_HIGH));
    memset((void *)eoi_seen[idx], 0xFF, sizeof(eoi_seen[idx]));
    apic_write(APIC_TPR, 0);
    irq_borrow(VEC_LOW, eoi_low_handler);
    irq_borrow(VEC_HIGH, eoi_high_handler);
    apic_self_ipi(VEC_LOW);
    u32 n = wait_with_interrupts(&irq_rec_here(SLOT_LOW)->count, 1, ARRIVAL_TIMEOUT_US, 1000);
    irq_give_back(VEC_LOW);
    irq_give_back(VEC_HIGH);
    apic_write(APIC_TPR, orig);
    if (!expect_eq_dec(c, "outer 0x52 deliveries", 1, n))
        return;
    if (!expect_eq_dec(c, "nested 0x93 deliveries", 1, irq_rec_here(SLOT_HIGH)->count))
        return;
    expect_eq(c, "nested: ISR 0x93 at entry", 1, irq_rec_here(SLOT_HIGH)->isr_at_entry);
    expect_eq(c, "nested: ISR 0x52 at entry", 1, eoi_seen[idx][0]);
    expect_eq(c, "nested: PPR at entry (class 9)", 0x90, irq_rec_here(SLOT_HIGH)->ppr_at_entry);
    expect_eq(c, "after first EOI: ISR 0x93", 0, eoi_seen[idx][1]);
    expect_eq(c, "after first EOI: ISR 0x52", 1, eoi_seen[idx][2]);
    expect_eq(c, "outer after nested return: ISR 0x52", 1, eoi_seen[idx][3]);
    expect_eq(c, "outer after nested return: ISR 0x93", 0, eoi_seen[idx][4]);
    expect_eq(c, "after second EOI: ISR 0x52", 0, eoi_seen[idx][5]);
}
