/* The emulated uncore register model (emul/model/uncore_model.h). Behaviour as the SDM Vol.3B describes the Nehalem
 * uncore ("Performance Monitoring Facility in the Uncore": a counter counts when its select's EN and its global EN_PCn
 * are set; an overflow sets its status bit and, with the select's PMI bit, OVF_PMI and an interrupt request to the
 * cores EN_PMI_COREn names; PMI_FRZ then disables every counter until software sets the enables again; the status is
 * read-only, cleared by writing 1s to GLOBAL_OVF_CTRL, which is write-only), the client uncore (EN bit 29 enables
 * all, FREEZE clears it; the status bits are read/write) and AMD's L3 counters (count when enabled; no interrupt). */
#include "emul/model/uncore_model.h"

#include <string.h>

#include "lib/cmdline.h"

static const char *const fault_names[UNCORE_FAULT_COUNT] = {
    "uncore-pmi-wrong-core", "uncore-no-freeze", "uncore-ovf-not-cleared", "uncore-clock-rate",
    "uncore-event-undercount",
};

const char *uncore_model_fault_name(u32 fault_bit)
{
    for (u32 i = 0; i < UNCORE_FAULT_COUNT; i++)
        if (fault_bit == 1u << i)
            return fault_names[i];
    return NULL;
}

const char *uncore_model_fault_list(void)
{
    static char list[256];
    return opt_names_join(fault_names, UNCORE_FAULT_COUNT, list, sizeof(list));
}

bool uncore_model_faults_parse(const char *list, u32 *mask, char *bad, size_t bad_size)
{
    return opt_names_mask(list, fault_names, UNCORE_FAULT_COUNT, mask, bad, bad_size);
}

static u64 wmask(u8 width)
{
    return width >= 64 ? ~0ull : (1ull << width) - 1;
}

static void scope_init(struct uncore_model *u, const struct uncore_kind_desc *k, u32 faults)
{
    const struct uncore_emul_face *f = k->emul;
    memset(u, 0, sizeof(*u));
    u->kind = k;
    u->faults = faults;
    u->cores = f->cores_per_scope;
    u->tsc_hz = f->tsc_hz;
    u->clock_hz = faults & UNCORE_FAULT_CLOCK_RATE ? f->tsc_hz : f->uncore_clock_hz;
    u->boxes_msr_value = f->boxes_msr_value;
    for (size_t i = 0; i < k->boxes_len; i++) {
        const struct uncore_box_desc *b = &k->boxes[i];
        u32 boxes = b->boxes;
        if (b->boxes_capped_by_cores && boxes > f->cores_per_scope)
            boxes = f->cores_per_scope;
        if (b->boxes_msr && (f->boxes_msr_value & b->boxes_mask) < boxes)
            boxes = (u32)(f->boxes_msr_value & b->boxes_mask);
        for (u32 box = 0; box < boxes; box++)
            for (u32 c = 0; c < b->counters && u->ncounters < UNCORE_MODEL_MAX_COUNTERS; c++)
                u->c[u->ncounters++] = (struct uncore_model_counter){
                    .box = b, .index = c, .ctl = uncore_box_ctl(b, box, c), .ctr = uncore_box_ctr(b, box, c),
                    .box_index = box, .boxes = boxes};
    }
}

bool uncore_machine_init(struct uncore_machine *m, const struct uncore_kind_desc *k, u32 faults, const char **why)
{
    memset(m, 0, sizeof(*m));
    const struct uncore_emul_face *f = k ? k->emul : NULL;
    if (!f) {
        *why = "the kind has no emulated face";
        return false;
    }
    u32 n = f->packages * f->scopes_per_package;
    if (!n || n > UNCORE_MODEL_MAX_SCOPES || f->cores_per_scope > UNCORE_MODEL_MAX_CORES) {
        *why = "the face has more scopes or cores than the model holds";
        return false;
    }
    m->kind = k;
    m->nscopes = n;
    for (u32 i = 0; i < n; i++)
        scope_init(&m->scope[i], k, faults);
    return true;
}

u32 uncore_machine_threads(const struct uncore_machine *m)
{
    const struct uncore_emul_face *f = m->kind->emul;
    return m->nscopes * f->cores_per_scope * f->threads_per_core;
}

struct uncore_model *uncore_machine_scope_of(struct uncore_machine *m, u32 thread)
{
    const struct uncore_emul_face *f = m->kind->emul;
    u32 s = thread / (f->cores_per_scope * f->threads_per_core);
    return s < m->nscopes ? &m->scope[s] : NULL;
}

u32 uncore_machine_core_of(const struct uncore_machine *m, u32 thread)
{
    const struct uncore_emul_face *f = m->kind->emul;
    return thread / f->threads_per_core % f->cores_per_scope;
}

static struct uncore_model_counter *counter_at(struct uncore_model *u, u32 msr, bool *is_ctl)
{
    for (u32 i = 0; i < u->ncounters; i++) {
        if (u->c[i].ctl == msr) {
            *is_ctl = true;
            return &u->c[i];
        }
        if (u->c[i].ctr == msr) {
            *is_ctl = false;
            return &u->c[i];
        }
    }
    return NULL;
}

int uncore_model_rdmsr(struct uncore_model *u, u32 msr, u64 *v)
{
    const struct uncore_kind_desc *k = u->kind;
    bool is_ctl;
    struct uncore_model_counter *c = counter_at(u, msr, &is_ctl);
    if (c)
        *v = is_ctl ? c->sel : c->value;
    else if (k->fixed.ctl && msr == k->fixed.ctl)
        *v = u->fixed_ctl;
    else if (k->fixed.ctl && msr == k->fixed.ctr)
        *v = u->fixed_value;
    else if (k->global.ctrl && msr == k->global.ctrl)
        *v = u->global_ctrl;
    else if (k->global.status && msr == k->global.status)
        *v = u->status;
    else if (k->boxes_len && msr && msr == k->boxes[0].boxes_msr)
        *v = u->boxes_msr_value;
    else
        return -1; /* includes the write-only GLOBAL_OVF_CTRL */
    return 0;
}

bool uncore_model_has_msr(const struct uncore_model *u, u32 msr)
{
    const struct uncore_kind_desc *k = u->kind;
    for (u32 i = 0; i < u->ncounters; i++)
        if (u->c[i].ctl == msr || u->c[i].ctr == msr)
            return true;
    if (k->fixed.ctl && (msr == k->fixed.ctl || msr == k->fixed.ctr))
        return true;
    if (k->global.ctrl && msr == k->global.ctrl)
        return true;
    if (k->global.status && msr == k->global.status)
        return true;
    if (k->global.ovf_ctrl && msr == k->global.ovf_ctrl)
        return true;
    return k->boxes_len && k->boxes[0].boxes_msr && msr == k->boxes[0].boxes_msr;
}

static void status_clear(struct uncore_model *u, u64 bits)
{
    if (u->faults & UNCORE_FAULT_OVF_NOT_CLEARED)
        return;
    u->status &= ~bits;
}

int uncore_model_wrmsr(struct uncore_model *u, u32 msr, u64 v)
{
    const struct uncore_kind_desc *k = u->kind;
    bool is_ctl;
    struct uncore_model_counter *c = counter_at(u, msr, &is_ctl);
    if (c) {
        const struct uncore_box_desc *b = c->box;
        if (is_ctl)
            c->sel = v & (b->sel_enable | b->sel_pmi | b->sel_event_mask | b->sel_count_all);
        else
            c->value = v & wmask(b->width);
    } else if (k->fixed.ctl && msr == k->fixed.ctl) {
        u->fixed_ctl = v & (k->fixed.ctl_enable | k->fixed.ctl_pmi);
    } else if (k->fixed.ctl && msr == k->fixed.ctr) {
        u->fixed_value = v & wmask(k->fixed.width);
    } else if (k->global.ctrl && msr == k->global.ctrl) {
        u->global_ctrl = v & (k->global.ctrl_enable | k->global.ctrl_route_mask | k->global.ctrl_freeze |
                              k->global.ctrl_wake);
    } else if (k->global.ovf_ctrl && msr == k->global.ovf_ctrl) {
        status_clear(u, v);
    } else if (k->global.status && msr == k->global.status) {
        if (k->global.clear != UNCORE_CLEAR_STATUS_W0)
            return -1; /* read-only (Nehalem) */
        status_clear(u, ~v);
    } else {
        return -1;
    }
    return 0;
}

/* Whether counter `c` counts now: locally enabled, and enabled in the global control (per counter or as a whole). */
static bool counting(const struct uncore_model *u, const struct uncore_model_counter *c)
{
    const struct uncore_kind_desc *k = u->kind;
    if (!(c->sel & c->box->sel_enable))
        return false;
    if (c->box->sel_count_all && !(c->sel & c->box->sel_count_all))
        return false; /* counting no slice and no thread */
    if (!k->global.ctrl)
        return true;
    u64 en = c->box->global_enable_per_counter ? uncore_box_status_bit(c->box, c->index) : k->global.ctrl_enable;
    return (u->global_ctrl & en) == en;
}

static bool fixed_counting(const struct uncore_model *u)
{
    const struct uncore_kind_desc *k = u->kind;
    if (!k->fixed.ctl || !(u->fixed_ctl & k->fixed.ctl_enable))
        return false;
    u64 en = k->fixed.enable_bit ? k->fixed.enable_bit : k->global.ctrl_enable;
    return !k->global.ctrl || (u->global_ctrl & en) == en;
}

/* Add n to a counter of `width` bits; true when it wrapped. */
static bool add(u64 *value, u64 n, u8 width)
{
    u64 m = wmask(width), room = m - (*value & m);
    bool wrapped = n > room;
    *value = (*value + n) & m;
    return wrapped;
}

static void deliver(struct uncore_model *u)
{
    const struct uncore_kind_desc *k = u->kind;
    u32 cores = uncore_route_cores(k, u->global_ctrl);
    u->interrupts++;
    for (u32 c = 0; c < u->cores; c++) {
        if (!(cores & (1u << c)))
            continue;
        u32 to = u->faults & UNCORE_FAULT_PMI_WRONG_CORE ? (c + 1) % u->cores : c;
        u->pmis[to]++;
    }
}

/* Time and events pass; `one_box`: the events are one line fetch, counted by the box it falls to in each group of
 * several boxes (line % boxes), not by every box. */
static void advance(struct uncore_model *u, u64 tsc_ticks, u64 events, bool one_box, u64 line)
{
    const struct uncore_kind_desc *k = u->kind;
    /* Clocks in this span: tsc_ticks * clock_hz / tsc_hz, the remainder carried (products kept below 2^64 by the
     * callers' spans: a tick of at most a few seconds). */
    u64 num = tsc_ticks * u->clock_hz + u->clock_rem;
    u64 clocks = u->tsc_hz ? num / u->tsc_hz : 0;
    u->clock_rem = u->tsc_hz ? num % u->tsc_hz : 0;
    if (events && (u->faults & UNCORE_FAULT_EVENT_UNDERCOUNT)) {
        u64 before = u->events_seen;
        u->events_seen += events;
        events -= u->events_seen / 16 - before / 16; /* the 16th, 32nd, ... event since the start is dropped */
    }
    u64 overflowed = 0;
    bool pmi = false;
    for (u32 i = 0; i < u->ncounters; i++) {
        struct uncore_model_counter *c = &u->c[i];
        if (!counting(u, c))
            continue;
        bool clock_event = (c->sel & 0xff) == 0xff;
        u64 n = clock_event ? clocks : events;
        if (!clock_event && one_box && c->boxes > 1 && c->box_index != line % c->boxes)
            n = 0; /* another box's line */
        if (add(&c->value, n, c->box->width)) {
            overflowed |= uncore_box_status_bit(c->box, c->index);
            pmi |= (c->sel & c->box->sel_pmi) != 0;
        }
    }
    if (fixed_counting(u) && add(&u->fixed_value, clocks, k->fixed.width)) {
        overflowed |= k->fixed.status_bit;
        pmi |= (u->fixed_ctl & k->fixed.ctl_pmi) != 0;
    }
    if (!overflowed || !k->global.status)
        return;
    u->status |= overflowed | k->global.status_chg;
    if (!pmi || !k->global.ctrl_route_mask)
        return;
    u->status |= k->global.status_ovf_pmi;
    /* One interrupt request for the overflows of one span: the counters that overflowed together share it. */
    deliver(u);
    if ((u->global_ctrl & k->global.ctrl_freeze) && !(u->faults & UNCORE_FAULT_NO_FREEZE))
        u->global_ctrl &= ~k->global.ctrl_enable; /* Nehalem: every EN_PCn and EN_FC0; client: EN */
}

void uncore_model_tick(struct uncore_model *u, u64 tsc_ticks, u64 events)
{
    advance(u, tsc_ticks, events, false, 0);
}

void uncore_model_lines(struct uncore_model *u, u64 lines)
{
    for (u64 i = 0; i < lines; i++)
        advance(u, 0, 1, true, u->lines_seen++);
}

u32 uncore_model_take_pmis(struct uncore_model *u, u32 core)
{
    if (core >= UNCORE_MODEL_MAX_CORES)
        return 0;
    u32 n = u->pmis[core];
    u->pmis[core] = 0;
    return n;
}
