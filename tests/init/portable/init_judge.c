#include "tests/init/portable/init_judge.h"

#define CR0_ET BIT(4)  /* SDM Vol.3A 2.5: extension type, reads 1 */
#define CR0_NW BIT(29) /* not write-through */
#define CR0_CD BIT(30) /* cache disable */

void init_arch_expected(u64 cr0_before, struct init_arch_regs *want)
{
    *want = (struct init_arch_regs){
        .cr0 = CR0_ET | (cr0_before & (CR0_CD | CR0_NW)),
        .dr6 = 0xFFFF0FF0,
        .dr7 = 0x400,
    };
}

bool init_cr0_is_reset_value(u64 cr0)
{
    return cr0 == 0x60000010;
}

void init_mtrr_count(const u64 *before, const u64 *after, u32 n, struct init_mtrr_tally *t)
{
    *t = (struct init_mtrr_tally){0};
    for (u32 i = 0; i < n; i++) {
        t->lost += before[i] != after[i];
        t->not_zeroed += before[i] != after[i] && after[i] != 0;
    }
}

bool init_mtrr_zeroed_by_init(const struct init_mtrr_tally *t)
{
    return t->lost && !t->not_zeroed;
}
