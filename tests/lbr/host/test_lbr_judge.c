/* Suite lbr's expectations and comparison (tests/lbr/portable/lbr_judge.c): a record out of order, missing, or extra
 * is a mismatch; a frozen stack does not move; freeze on PMI ends the stack at the overflowing branch. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "tests/lbr/portable/lbr_judge.h"

/* A stream: JZ not taken, then per iteration CALL, RET, JMP, the loop's Jcc taken. */
static u32 stream(struct lbr_ref *s, u32 iterations)
{
    u32 n = 0;
    s[n++] = (struct lbr_ref){0x10, 0x12, -1, 3, -1, 0};
    for (u32 i = 0; i < iterations; i++) {
        s[n++] = (struct lbr_ref){0x20, 0x80, LBR_BR_REL_CALL, 3, 0, 0};
        s[n++] = (struct lbr_ref){0x84, 0x25, LBR_BR_RET, 3, 0, 0};
        s[n++] = (struct lbr_ref){0x25, 0x30, LBR_BR_REL_JMP, 3, 0, 0};
        s[n++] = (struct lbr_ref){0x40, 0x20, LBR_BR_JCC, 3, 1, 0x3c};
    }
    return n;
}

static void to_records(const struct lbr_ref *e, u32 n, struct lbr_record *r, u32 depth)
{
    for (u32 i = 0; i < depth; i++)
        r[i] = i < n ? (struct lbr_record){e[i].from, e[i].to, true, false, false, 0, false, -1} : (struct lbr_record){0};
}

/* lbr/freeze_on_pmi's "does not move while frozen": equal only when every entry's FROM, TO and validity are. */
static void test_stack_same(void **state)
{
    (void)state;
    struct lbr_record a[4] = {{.from = 1, .to = 2, .valid = true}, {.from = 3, .to = 4, .valid = true}}, b[4];
    memcpy(b, a, sizeof(a));
    assert_true(lbr_stack_same(a, b, 4));
    b[1].to = 5;
    assert_false(lbr_stack_same(a, b, 4));
    memcpy(b, a, sizeof(a));
    b[3].valid = true; /* a record appeared in an empty slot */
    assert_false(lbr_stack_same(a, b, 4));
    assert_true(lbr_stack_same(a, b, 3)); /* beyond the depth nothing counts */
}

static void test_judge(void **state)
{
    (void)state;
    struct lbr_ref s[64], exp[16];
    struct lbr_record obs[16];
    struct lbr_match mt;
    u32 n = stream(s, 10);
    struct lbr_filter all = {false, true, LBR_BR_ALL}, rets = {false, true, BIT(LBR_BR_RET)};
    u32 ne = lbr_expect(s, n, &all, 8, exp);
    assert_int_equal(ne, 8);
    assert_int_equal(exp[0].kind, LBR_BR_JCC);
    assert_int_equal(exp[1].kind, LBR_BR_REL_JMP);
    to_records(exp, ne, obs, 8);
    assert_true(lbr_match(obs, 8, exp, ne, 0x999, false, false, &mt));
    /* The exit to the kernel on top is allowed and noted (the oldest expected record then falls off). */
    struct lbr_record shifted[9];
    shifted[0] = (struct lbr_record){0x999, 0xffff, true, false, false, 0, false, -1};
    memcpy(&shifted[1], obs, sizeof(obs[0]) * 8);
    assert_true(lbr_match(shifted, 9, exp, ne, 0x999, false, false, &mt));
    assert_true(mt.exit_on_top);
    /* Two records swapped: a mismatch at the first. */
    struct lbr_record x = obs[2];
    obs[2] = obs[3];
    obs[3] = x;
    assert_false(lbr_match(obs, 8, exp, ne, 0, false, false, &mt));
    assert_int_equal(mt.mismatch, 2);
    assert_int_equal(mt.matched, 2);
    /* One missing. */
    to_records(exp, ne, obs, 8);
    memmove(&obs[4], &obs[5], sizeof(obs[0]) * 3);
    obs[7] = (struct lbr_record){0};
    assert_false(lbr_match(obs, 8, exp, ne, 0, false, false, &mt));
    assert_int_equal(mt.mismatch, 4);
    /* Returns only: 10 of them; a deeper stack holds them and nothing else. */
    ne = lbr_expect(s, n, &rets, 16, exp);
    assert_int_equal(ne, 10);
    to_records(exp, ne, obs, 16);
    assert_true(lbr_match(obs, 16, exp, ne, 0, false, false, &mt));
    obs[12] = (struct lbr_record){0x1234, 0x5678, true, false, false, 0, false, -1};
    assert_false(lbr_match(obs, 16, exp, ne, 0, false, false, &mt));
    assert_int_equal(mt.extra, 1);
    /* A wrong Arch LBR type. */
    to_records(exp, ne, obs, 16);
    obs[0].type = LBR_BR_JCC;
    assert_false(lbr_match(obs, 16, exp, ne, 0, false, false, &mt));
    assert_int_equal(mt.type_wrong, 1);
    /* Mispredict flags where the format has them: the loop's Jcc is expected mispredicted (the youngest record). */
    ne = lbr_expect(s, n, &all, 8, exp);
    to_records(exp, ne, obs, 8);
    assert_false(lbr_match(obs, 8, exp, ne, 0, true, false, &mt));
    assert_int_equal(mt.mispred_wrong, 2);
    obs[0].mispred = obs[4].mispred = true;
    assert_true(lbr_match(obs, 8, exp, ne, 0, true, false, &mt));
    assert_int_equal(mt.mispred_checked, 8);
    /* AMD: a fused Jcc's FROM is the instruction before it; a wrong-path entry is left out. */
    to_records(exp, ne, obs, 8);
    obs[0].from = 0x3c;
    assert_false(lbr_match(obs, 8, exp, ne, 0, false, false, &mt));
    assert_true(lbr_match(obs, 8, exp, ne, 0, false, true, &mt));
    assert_int_equal(mt.fused, 1);
    struct lbr_record spec[9];
    spec[0] = (struct lbr_record){0x777, 0x778, false, true, false, 0, false, -1};
    memcpy(&spec[1], obs, sizeof(obs[0]) * 8);
    assert_true(lbr_match(spec, 9, exp, ne, 0, false, true, &mt));
    assert_int_equal(mt.not_retired, 1);
    /* Freeze: overflow on the 7th branch instruction (JZ, CALL, RET, JMP, Jcc, CALL, RET): the youngest record is the
     * 6th taken branch (index 5), the RET. */
    s32 top = lbr_freeze_top(s, n, &all, 7);
    assert_int_equal(top, 5);
    ne = lbr_expect_at(s, n, &all, (u32)top, 4, exp);
    assert_int_equal(ne, 4);
    assert_int_equal(exp[0].kind, LBR_BR_RET);
    assert_int_equal(exp[1].kind, LBR_BR_REL_CALL);
    assert_int_equal(lbr_freeze_top(s, n, &all, 1), -1); /* only the JZ, not taken */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_judge),
        cmocka_unit_test(test_stack_same),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
