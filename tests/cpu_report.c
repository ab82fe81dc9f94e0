/* Per-CPU report buffers (cpu_report.h). A buffer is a sequence of records: a header, then the text. The
 * owning CPU appends (text first, then publishes the new length), the boot CPU reads up to the published length
 * once the owner is idle, or up to the length frozen when the owner stopped answering. */
#include "tests/cpu_report.h"

#include <string.h>

#include "kernel/memory.h"
#include "kernel/percpu.h"
#include "kernel/report.h"
#include "tests/framework.h"

struct record {
    u16 slot;
    u8 kind; /* enum check_verdict, or CPU_REPORT_COMMENT */
    u8 pad;
    u32 len; /* of the text that follows */
};

struct cpu_buf {
    char *mem;
    volatile u32 used;
    u32 frozen; /* readable length; UINT32_MAX while not frozen */
};
static struct cpu_buf bufs[MAX_CPUS];
static char boot_cpu_mem[CPU_REPORT_BYTES] __attribute__((aligned(8)));

bool cpu_report_reset(u32 cpu)
{
    struct cpu_buf *b = &bufs[cpu];
    if (!b->mem)
        b->mem = cpu == 0 ? boot_cpu_mem : early_alloc(CPU_REPORT_BYTES, 8);
    b->used = 0;
    b->frozen = UINT32_MAX;
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

bool cpu_report_print_slot(u32 cpu, u32 slot)
{
    const struct cpu_buf *b = &bufs[cpu];
    if (!b->mem)
        return false;
    u32 end = MIN(__atomic_load_n(&b->used, __ATOMIC_ACQUIRE), b->frozen);
    bool verdict = false;
    for (u32 off = 0; off + sizeof(struct record) <= end;) {
        struct record r;
        memcpy(&r, b->mem + off, sizeof(r));
        const char *text = b->mem + off + sizeof(r);
        bool whole = off + sizeof(r) + r.len <= end;
        off += (u32)sizeof(r) + ((r.len + 7) & ~7u);
        if (r.slot != slot || !whole)
            continue;
        if (r.kind == CPU_REPORT_COMMENT) {
            report_emit_text(text, r.len);
        } else {
            report_emit(r.kind, text, r.len);
            verdict = true;
        }
    }
    return verdict;
}
