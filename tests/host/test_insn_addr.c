/* lib/insn_addr.c: the address of an instruction's memory operand. The bytes come from nasm 2.16 (bits 64)
 * assembling the instruction shown; the addresses follow SDM Vol.2A 2.1.5 and 2.2.1. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "lib/insn_addr.h"

/* RAX..R15 = 0x1000 * (n + 1): each register's value names it. */
static u64 regs[16];

static void fill(void)
{
    for (u32 n = 0; n < 16; n++)
        regs[n] = 0x1000ull * (n + 1);
}

struct row {
    const char *text;
    u8 bytes[15];
    u8 len;
    bool known;
    u64 addr;
};

#define R(n) (0x1000ull * ((n) + 1))
#define NEXT 0x400000ull

static const struct row rows[] = {
    {"clflush [rdx]", {0x0f, 0xae, 0x3a}, 3, true, R(2)},
    {"mov rsi, [rdx]", {0x48, 0x8b, 0x32}, 3, true, R(2)},
    {"mov rax, [r9+r10*8+0x40]", {0x4b, 0x8b, 0x44, 0xd1, 0x40}, 5, true, R(9) + R(10) * 8 + 0x40},
    {"clflush [rsp+8]", {0x0f, 0xae, 0x7c, 0x24, 0x08}, 5, true, R(4) + 8},
    {"mov eax, [rbp-16]", {0x8b, 0x45, 0xf0}, 3, true, R(5) - 16},
    {"mov r8, [r13]", {0x4d, 0x8b, 0x45, 0x00}, 4, true, R(13)},
    {"add rax, [rel $+0x100]", {0x48, 0x03, 0x05, 0xf9, 0x00, 0x00, 0x00}, 7, true, NEXT + 0xf9},
    {"mov eax, [rcx*4+0x1000]", {0x8b, 0x04, 0x8d, 0x00, 0x10, 0x00, 0x00}, 7, true, R(1) * 4 + 0x1000},
    {"mov rax, [r12]", {0x49, 0x8b, 0x04, 0x24}, 4, true, R(12)},
    {"lock add [rbx+rdi*2-4], ecx", {0xf0, 0x01, 0x4c, 0x7b, 0xfc}, 5, true, R(3) + R(7) * 2 - 4},
    {"mov eax, [fs:rax]", {0x64, 0x8b, 0x00}, 3, false, 0},
    {"mov eax, ebx", {0x89, 0xd8}, 2, false, 0},
};

static void test_rows(void **state)
{
    (void)state;
    fill();
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        u64 a = 0;
        bool ok = insn_mem_address(rows[i].bytes, rows[i].len, regs, NEXT, &a);
        if (ok != rows[i].known || (ok && a != rows[i].addr))
            fail_msg("%s: %s 0x%llx, expected %s 0x%llx", rows[i].text, ok ? "known" : "unknown",
                     (unsigned long long)a, rows[i].known ? "known" : "unknown", (unsigned long long)rows[i].addr);
    }
}

/* A truncated instruction is unknown, never read past the bytes given. */
static void test_truncated(void **state)
{
    (void)state;
    fill();
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
        for (u8 n = 0; n < rows[i].len; n++) {
            u64 a;
            u8 *heap = test_malloc(n ? n : 1); /* exactly n bytes: ASan flags a read past them */
            memcpy(heap, rows[i].bytes, n);
            assert_false(insn_mem_address(heap, n, regs, NEXT, &a)); /* cut short: unknown */
            test_free(heap);
        }
    u64 a;
    const u8 disp32[] = {0x48, 0x03, 0x05, 0xf9, 0x00}; /* add rax, [rel ...] cut in its displacement */
    assert_false(insn_mem_address(disp32, sizeof(disp32), regs, NEXT, &a));
    const u8 sib[] = {0x4b, 0x8b, 0x44}; /* cut before its SIB */
    assert_false(insn_mem_address(sib, sizeof(sib), regs, NEXT, &a));
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_rows), cmocka_unit_test(test_truncated)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
