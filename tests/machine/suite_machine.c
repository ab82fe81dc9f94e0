/* Suite "machine": the machine is left as pmuboot found it. Run by the composition after every other suite, once the
 * ledger (kernel/ledger.h) has put back each change, whatever suites were selected; not selectable. `restored` reads
 * every ledger entry back against the value found, and the CMOS bank against its reading at boot: a byte that
 * changed without an entry is a change pmuboot did not note (or one that something else made), and fails too. */
#include "harness/framework.h"
#include "kernel/cmos.h"
#include "kernel/ledger.h"
#include "kernel/record_store.h"
#include "tests/machine/portable/cmos_diff.h"

static void restored(struct check *c)
{
    u32 n = ledger_count();
    check_note(c, "ledger", "%u change%s noted", n, n == 1 ? "" : "s");
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

static const struct check_def machine_checks[] = {
    {"restored", restored, SCOPE_GLOBAL, NO_FAULT},
};

const struct suite suite_machine = {"machine", "the machine is left as found (the ledger of changes)", false,
                                    SUITE_CHECKS(machine_checks)};
