/* Per-CPU report buffers (cpu_report.h). A buffer is a sequence of records: a header, then the text. The
 * owning CPU appends (text first, then publishes the new length), the boot CPU reads up to the published length
 * once the owner is idle, or up to the length frozen when the owner stopped answering. */
#include "harness/cpu_report.h"

#include <string.h>

#include "kernel/memory.h"
#include "kernel/percpu.h"
#include "harness/report.h"
#include "harness/framework.h"
#include "harness/tap_report.h"
#include "kernel/smp.h"
#include "lib/tap_fold.h"
#include "lib/verdict_repeat.h"
#include "kernel/percpu_array.h"

struct record {
    u16 slot;
    u8 kind; /* enum report_verdict, or CPU_REPORT_COMMENT */
    u8 pad;
    u32 len; /* of the text that follows */
};

struct cpu_buf {
    char *mem;
    volatile u32 used;
    u32 frozen; /* readable length; UINT32_MAX while not frozen */
};
PER_CPU_ARRAY(struct cpu_buf, bufs);
static char boot_cpu_mem[CPU_REPORT_BYTES] __attribute__((aligned(8)));

/* Per table slot, the CPU (+1) whose verdict was printed first in this suite: a later CPU's SKIP that repeats it
 * word for word is printed short (verdict_repeat.h). 0 = none printed yet. */
#define REF_SLOTS 128
static u32 ref_cpu[REF_SLOTS];

bool cpu_report_reset(u32 cpu)
{
    struct cpu_buf *b = &bufs[cpu];
    if (!b->mem)
        b->mem = cpu == 0 ? boot_cpu_mem : early_alloc(CPU_REPORT_BYTES, 8);
    b->used = 0;
    b->frozen = UINT32_MAX;
    memset(ref_cpu, 0, sizeof(ref_cpu)); /* a new suite */
    return b->mem != NULL;
}

/* Room for a record's text at the end of this CPU's buffer, at most REPORT_RECORD_MAX; 0 when too little is
 * left for even a verdict line with a short block. */
static u32 room(const struct cpu_buf *b)
{
    if (!b->mem)
        return 0;
    u32 left = CPU_REPORT_BYTES - b->used;
    if (left < sizeof(struct record) + 512)
        return 0;
    return MIN(left - (u32)sizeof(struct record), REPORT_RECORD_MAX);
}

static void publish(struct cpu_buf *b, u32 slot, u8 kind, u32 len)
{
    struct record r = {.slot = (u16)slot, .kind = kind, .len = len};
    memcpy(b->mem + b->used, &r, sizeof(r));
    u32 next = b->used + (u32)sizeof(r) + ((len + 7) & ~7u);
    __atomic_store_n(&b->used, MIN(next, CPU_REPORT_BYTES), __ATOMIC_RELEASE);
}

bool cpu_report_check(u32 slot, const struct check *c)
{
    struct cpu_buf *b = &bufs[this_cpu()->index];
    u32 n = room(b);
    if (!n)
        return false;
    u32 len = report_render(c, b->mem + b->used + sizeof(struct record), n);
    publish(b, slot, (u8)report_verdict_kind(c), len);
    return true;
}

bool cpu_report_comment(u32 slot, const char *text)
{
    struct cpu_buf *b = &bufs[this_cpu()->index];
    u32 n = room(b);
    if (!n)
        return false;
    int len = k_snprintf(b->mem + b->used + sizeof(struct record), n, "# %s\n", text);
    publish(b, slot, CPU_REPORT_COMMENT, MIN((u32)len, n - 1));
    return true;
}

void cpu_report_freeze(u32 cpu)
{
    bufs[cpu].frozen = __atomic_load_n(&bufs[cpu].used, __ATOMIC_ACQUIRE);
}

/* The readable records of cpu, in order: *off advances; false at the end. */
static bool next_record(const struct cpu_buf *b, u32 end, u32 *off, struct record *r, const char **text)
{
    while (*off + sizeof(struct record) <= end) {
        memcpy(r, b->mem + *off, sizeof(*r));
        *text = b->mem + *off + sizeof(*r);
        bool whole = *off + sizeof(*r) + r->len <= end;
        *off += (u32)sizeof(*r) + ((r->len + 7) & ~7u);
        if (whole)
            return true;
    }
    return false;
}

static u32 readable(const struct cpu_buf *b)
{
    return MIN(__atomic_load_n(&b->used, __ATOMIC_ACQUIRE), b->frozen);
}

/* The verdict record of `slot` on cpu, if any. */
static bool find_verdict(u32 cpu, u32 slot, struct record *r, const char **text)
{
    const struct cpu_buf *b = &bufs[cpu];
    if (!b->mem)
        return false;
    for (u32 off = 0, end = readable(b); next_record(b, end, &off, r, text);)
        if (r->slot == slot && r->kind != CPU_REPORT_COMMENT)
            return true;
    return false;
}

/* Emit a verdict; a SKIP repeating the first printed CPU's word for word in its short form. */
static void emit_verdict(u32 cpu, u32 slot, const struct record *r, const char *text)
{
    static char short_form[REPORT_RECORD_MAX]; /* the boot CPU prints alone */
    if (slot >= REF_SLOTS || (r->kind & ~REPORT_EMULATED) != VERDICT_SKIP) {
        report_emit(r->kind, text, r->len);
        return;
    }
    if (!ref_cpu[slot]) {
        ref_cpu[slot] = cpu + 1;
        report_emit(r->kind, text, r->len);
        return;
    }
    struct record rr;
    const char *ref;
    u32 n = 0;
    if (find_verdict(ref_cpu[slot] - 1, slot, &rr, &ref) && rr.kind == r->kind)
        n = verdict_repeat(text, r->len, ref, rr.len, ref_cpu[slot] - 1, short_form, sizeof(short_form));
    if (n)
        report_emit(r->kind, short_form, n);
    else
        report_emit(r->kind, text, r->len);
}

bool cpu_report_print_slot(u32 cpu, u32 slot)
{
    const struct cpu_buf *b = &bufs[cpu];
    if (!b->mem)
        return false;
    bool verdict = false;
    struct record r;
    const char *text;
    for (u32 off = 0, end = readable(b); next_record(b, end, &off, &r, &text);) {
        if (r.slot != slot)
            continue;
        if (r.kind == CPU_REPORT_COMMENT) {
            report_emit_text(text, r.len);
        } else {
            emit_verdict(cpu, slot, &r, text);
            verdict = true;
        }
    }
    return verdict;
}

/* Folding: at most TAP_FOLD_GROUPS kinds of verdict per check are folded (lib/tap_fold.h). */
_Static_assert(TAP_FOLD_OUT_MAX == 2 * REPORT_RECORD_MAX, "a folded line holds two records' worth");
#define FOLD_NONE 0xffff
PER_CPU_ARRAY(u16, fold_group);
PER_CPU_ARRAY(struct tap_fold_item, fold_item);
PER_CPU_ARRAY(u8, fold_kind);
PER_CPU_ARRAY(struct tap_fold_item, fold_members);
PER_CPU_ARRAY(u32[3], fold_scratch);

void cpu_report_print_comments(u32 cpu, u32 slot)
{
    const struct cpu_buf *b = &bufs[cpu];
    if (!b->mem)
        return;
    struct record r;
    const char *text;
    for (u32 off = 0, end = readable(b); next_record(b, end, &off, &r, &text);)
        if (r.slot == slot && r.kind == CPU_REPORT_COMMENT)
            report_emit_text(text, r.len);
}

/* Group the verdicts of slot: fold_group[cpu] is the index of its group (the group's first CPU in first[]). */
static void fold_assign(u32 slot, const bool *in, bool *found, u32 *first)
{
    u32 groups = 0;
    for (u32 i = 0; i < smp.count || i == 0; i++) {
        struct record r;
        const char *text;
        fold_group[i] = FOLD_NONE;
        found[i] = in[i] && find_verdict(i, slot, &r, &text);
        if (!found[i])
            continue;
        fold_item[i] = (struct tap_fold_item){i, text, r.len};
        fold_kind[i] = r.kind;
        u32 g = 0;
        while (g < groups && !(fold_kind[first[g]] == r.kind &&
                               tap_fold_same_shape(fold_item[first[g]].text, fold_item[first[g]].len, text, r.len)))
            g++;
        if (g == groups && groups < TAP_FOLD_GROUPS)
            first[groups++] = i;
        if (g < groups)
            fold_group[i] = (u16)g;
    }
}

static void emit_folded(void *kind, const char *text, u32 len)
{
    report_emit(*(const u8 *)kind, text, len);
}

void cpu_report_print_folded(u32 slot, const bool *in, bool *found)
{
    static char folded[TAP_FOLD_OUT_MAX]; /* the boot CPU prints alone */
    u32 first[TAP_FOLD_GROUPS];
    fold_assign(slot, in, found, first);
    for (u32 i = 0; i < smp.count || i == 0; i++) {
        if (!found[i])
            continue;
        u32 g = fold_group[i];
        if (g == FOLD_NONE) {
            cpu_report_print_comments(i, slot);
            report_emit(fold_kind[i], fold_item[i].text, fold_item[i].len);
            continue;
        }
        if (first[g] != i)
            continue; /* printed with its group */
        u32 n = 0;
        for (u32 j = i; j < smp.count || j == 0; j++)
            if (found[j] && fold_group[j] == g) {
                cpu_report_print_comments(j, slot);
                fold_members[n++] = fold_item[j];
            }
        tap_fold_emit_group(fold_members, n, &fold_scratch[0][0], folded, emit_folded, &fold_kind[i]);
    }
}
