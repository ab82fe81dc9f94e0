/* Suite "machine": the machine is left as pmuboot found it (and each thread's PMU as the firmware left it). Run by the composition after every other suite, once the
 * ledger (kernel/ledger.h) has put back each change, whatever suites were selected; not selectable. `restored` reads
 * every ledger entry back against the value found, and the CMOS bank against its reading at boot: a byte that
 * changed without an entry is a change pmuboot did not note (or one that something else made), and fails too. */
#include "harness/framework.h"
#include "kernel/cmos.h"
#include "kernel/ledger.h"
#include "kernel/record_store.h"
#include "pmu/kernel/pmu_cpu.h"
#include "pmu/pmu_state.h"
#include "tests/machine/portable/cmos_diff.h"

static void restored(struct check *c)
{
    u32 n = ledger_count();
    check_note(c, "ledger", "%u change%s noted", n, n == 1 ? "" : "s");
    const char *failed = record_store_failure();
    expect_true(c, "record store answered to the end", !failed, "yes", "%s%s",
                failed ? "no: a record of this run may be left in it, and reading it back proves nothing: " : "yes",
                failed ? failed : "");
    if (ledger_refused())
        expect_true(c, "changes refused for a full ledger", false, "0", "%u (those changes were not made)",
                    ledger_refused());
    for (u32 i = 0; i < n; i++) {
        const struct ledger_entry *e = ledger_entry_at(i);
        u64 now = e->read(e->arg);
        expect_true(c, e->what, now == e->found, "as found", "found 0x%llx, now 0x%llx%s", (unsigned long long)e->found,
                    (unsigned long long)now, now == e->found ? "" : " (not put back)");
    }
    u8 now[CMOS_BANK_BYTES];
    bool noted[CMOS_BANK_BYTES];
    for (u32 i = 0; i < CMOS_BANK_BYTES; i++) {
        now[i] = cmos_read((u8)i);
        noted[i] = ledger_has_cmos((u8)i);
    }
    u8 idx[16];
    u32 k = cmos_untracked_changes(ledger_cmos_at_boot(), now, noted, idx, ARRAY_SIZE(idx));
    char list[16 * 16 + 8];
    struct strbuf sb;
    sb_init(&sb, list, sizeof(list));
    for (u32 i = 0; i < k && i < ARRAY_SIZE(idx); i++)
        sb_printf(&sb, "%s0x%02x: 0x%02x -> 0x%02x", i ? ", " : "", idx[i], ledger_cmos_at_boot()[idx[i]], now[idx[i]]);
    expect_true(c, "CMOS 0x0e..0x7f outside the ledger", k == 0, "as at boot", "%u changed%s%s", k, k ? ": " : "",
                list);
}

/* The PMU as the firmware left it: each control register (selects, FIXED_CTR_CTRL, the global control, SPFLT) reads
 * what this thread's PMU held at entry (pmu_enum/firmware_state), after pmu_cpu_restore_entry wrote it back. */
static void pmu_restored(struct check *c)
{
    struct pmu_cpu *pc = this_pmu_cpu();
    SKIP_WITHOUT_PMU(c, pc);
    if (!pc->entry.count)
        return check_skip(c, "no PMU register was read at entry");
    expect_true(c, "put back at the end of the run", pc->restored, "yes", "%s",
                pc->restored ? "yes" : "no (restore_skip= names it, or this CPU was not reached)");
    if (pc->restored)
        expect_true(c, "every register written", pc->restore_rc == 0, "yes", "%s%s%s",
                    pc->restore_rc ? pc->restore_why : "yes", pc->restore_rc ? ": " : "",
                    pc->restore_rc ? pmu_strerror(pc->restore_rc) : "");
    struct pmu_state now;
    pmu_state_read(&pc->pmu, &now);
    u64 d = pmu_state_controls_diff(&pc->entry, &now);
    for (u32 i = 0; i < pc->entry.count && i < 64; i++) {
        const struct pmu_state_entry *e = &pc->entry.e[i];
        if (e->rc || e->reg == PMU_SREG_GP_CTR || e->reg == PMU_SREG_FIXED_CTR || e->reg == PMU_SREG_GLOBAL_STATUS)
            continue;
        char name[32];
        pmu_state_name(e, name, sizeof(name));
        expect_true(c, name, !(d >> i & 1), "as found", "found 0x%llx, now 0x%llx", (unsigned long long)e->value,
                    (unsigned long long)now.e[i].value);
    }
    check_note(c, "counters and status", "counters written back to their values at entry, not judged (one the firmware "
               "left enabled counts on); the overflow status is not writable (SDM Vol.3B 21.2.4)");
}

static const struct check_def machine_checks[] = {
    {"restored", restored, SCOPE_GLOBAL, NO_FAULT},
    {"pmu_restored", pmu_restored, SCOPE_PER_CPU, NO_FAULT, .uses_pmu = true},
};

const struct suite suite_machine = {"machine", "the machine is left as found (the ledger of changes)", false,
                                    SUITE_CHECKS(machine_checks)};
