/* lib/insn_class.c: the single-step oracle's opcode classifier. The byte sequences and their lengths come
 * from nasm 2.16 (bits 64) assembling the instruction shown (lengths also checked against objdump -D); the
 * class columns are the SDM's (Vol.2 instruction pages; branch = control transfer, load/store = data memory
 * read/written, implicit stack accesses included). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "lib/insn_class.h"

struct row {
    const char *text;
    u8 bytes[15];
    u8 len, kind;
    bool branch, cond, load, store, rep;
};

static const struct row known[] = {
    {"add [rax], ecx", {0x01, 0x08}, 2, INSN_OTHER, false, false, true, true, false},
    {"add ecx, [rax+4]", {0x03, 0x48, 0x04}, 3, INSN_OTHER, false, false, true, false, false},
    {"add al, 5", {0x04, 0x05}, 2, INSN_OTHER, false, false, false, false, false},
    {"add eax, 0x12345678", {0x05, 0x78, 0x56, 0x34, 0x12}, 5, INSN_OTHER, false, false, false, false, false},
    {"cmp [rbx+rcx*4+8], edx", {0x39, 0x54, 0x8b, 0x08}, 4, INSN_OTHER, false, false, true, false, false},
    {"cmp qword [rsp], 1", {0x48, 0x83, 0x3c, 0x24, 0x01}, 5, INSN_OTHER, false, false, true, false, false},
    {"sub dword [rel $+0x100], 0x1000", {0x81, 0x2d, 0xf6, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00}, 10, INSN_OTHER, false, false, true, true, false},
    {"push rbx", {0x53}, 1, INSN_OTHER, false, false, false, true, false},
    {"pop r12", {0x41, 0x5c}, 2, INSN_OTHER, false, false, true, false, false},
    {"push 5", {0x6a, 0x05}, 2, INSN_OTHER, false, false, false, true, false},
    {"push 0x1000", {0x68, 0x00, 0x10, 0x00, 0x00}, 5, INSN_OTHER, false, false, false, true, false},
    {"jz $+2", {0x74, 0x00}, 2, INSN_JCC, true, true, false, false, false},
    {"jnz $+0x200", {0x0f, 0x85, 0xfa, 0x01, 0x00, 0x00}, 6, INSN_JCC, true, true, false, false, false},
    {"jmp short $+2", {0xeb, 0x00}, 2, INSN_JMP, true, false, false, false, false},
    {"jmp $+0x300", {0xe9, 0xfb, 0x02, 0x00, 0x00}, 5, INSN_JMP, true, false, false, false, false},
    {"call $+0x400", {0xe8, 0xfb, 0x03, 0x00, 0x00}, 5, INSN_CALL, true, false, false, true, false},
    {"ret", {0xc3}, 1, INSN_RET, true, false, true, false, false},
    {"ret 8", {0xc2, 0x08, 0x00}, 3, INSN_RET, true, false, true, false, false},
    {"jmp rax", {0xff, 0xe0}, 2, INSN_JMP_IND, true, false, false, false, false},
    {"jmp [rax]", {0xff, 0x20}, 2, INSN_JMP_IND, true, false, true, false, false},
    {"call rbx", {0xff, 0xd3}, 2, INSN_CALL_IND, true, false, false, true, false},
    {"call [rbx+8]", {0xff, 0x53, 0x08}, 3, INSN_CALL_IND, true, false, true, true, false},
    {"loop $", {0xe2, 0xfe}, 2, INSN_LOOP, true, true, false, false, false},
    {"jrcxz $", {0xe3, 0xfe}, 2, INSN_JRCXZ, true, true, false, false, false},
    {"int3", {0xcc}, 1, INSN_INT, true, false, false, true, false},
    {"int 0x80", {0xcd, 0x80}, 2, INSN_INT, true, false, false, true, false},
    {"iretq", {0x48, 0xcf}, 2, INSN_IRET, true, false, true, false, false},
    {"syscall", {0x0f, 0x05}, 2, INSN_SYSCALL, true, false, false, false, false},
    {"cpuid", {0x0f, 0xa2}, 2, INSN_CPUID, false, false, false, false, false},
    {"rdtsc", {0x0f, 0x31}, 2, INSN_OTHER, false, false, false, false, false},
    {"rep movsb", {0xf3, 0xa4}, 2, INSN_STRING, false, false, true, true, true},
    {"rep stosq", {0xf3, 0x48, 0xab}, 3, INSN_STRING, false, false, false, true, true},
    {"movsb", {0xa4}, 1, INSN_STRING, false, false, true, true, false},
    {"repe cmpsb", {0xf3, 0xa6}, 2, INSN_STRING, false, false, true, false, true},
    {"lodsb", {0xac}, 1, INSN_STRING, false, false, true, false, false},
    {"mov eax, [rbp-8]", {0x8b, 0x45, 0xf8}, 3, INSN_OTHER, false, false, true, false, false},
    {"mov [rsp+8], rax", {0x48, 0x89, 0x44, 0x24, 0x08}, 5, INSN_OTHER, false, false, false, true, false},
    {"mov rax, 0x123456789abcdef0", {0x48, 0xb8, 0xf0, 0xde, 0xbc, 0x9a, 0x78, 0x56, 0x34, 0x12}, 10, INSN_OTHER, false, false, false, false, false},
    {"mov eax, 1", {0xb8, 0x01, 0x00, 0x00, 0x00}, 5, INSN_OTHER, false, false, false, false, false},
    {"mov ax, 1", {0x66, 0xb8, 0x01, 0x00}, 4, INSN_OTHER, false, false, false, false, false},
    {"lea rax, [rel $+0x10]", {0x48, 0x8d, 0x05, 0x09, 0x00, 0x00, 0x00}, 7, INSN_OTHER, false, false, false, false, false},
    {"test eax, [rdi]", {0x85, 0x07}, 2, INSN_OTHER, false, false, true, false, false},
    {"xchg [rdi], eax", {0x87, 0x07}, 2, INSN_OTHER, false, false, true, true, false},
    {"clflush [rdi]", {0x0f, 0xae, 0x3f}, 3, INSN_OTHER, false, false, false, false, false},
    {"lfence", {0x0f, 0xae, 0xe8}, 3, INSN_OTHER, false, false, false, false, false},
    {"mfence", {0x0f, 0xae, 0xf0}, 3, INSN_OTHER, false, false, false, false, false},
    {"movzx eax, byte [rdi]", {0x0f, 0xb6, 0x07}, 3, INSN_OTHER, false, false, true, false, false},
    {"cmovz eax, [rsi]", {0x0f, 0x44, 0x06}, 3, INSN_OTHER, false, false, true, false, false},
    {"setnz byte [rdi]", {0x0f, 0x95, 0x07}, 3, INSN_OTHER, false, false, false, true, false},
    {"imul eax, [rdi], 12", {0x6b, 0x07, 0x0c}, 3, INSN_OTHER, false, false, true, false, false},
    {"imul eax, [rdi], 0x1234", {0x69, 0x07, 0x34, 0x12, 0x00, 0x00}, 6, INSN_OTHER, false, false, true, false, false},
    {"inc qword [rdi]", {0x48, 0xff, 0x07}, 3, INSN_OTHER, false, false, true, true, false},
    {"dec ecx", {0xff, 0xc9}, 2, INSN_OTHER, false, false, false, false, false},
    {"neg dword [rdi]", {0xf7, 0x1f}, 2, INSN_OTHER, false, false, true, true, false},
    {"mul dword [rdi]", {0xf7, 0x27}, 2, INSN_OTHER, false, false, true, false, false},
    {"test byte [rdi], 1", {0xf6, 0x07, 0x01}, 3, INSN_OTHER, false, false, true, false, false},
    {"test dword [rdi], 0x100", {0xf7, 0x07, 0x00, 0x01, 0x00, 0x00}, 6, INSN_OTHER, false, false, true, false, false},
    {"shl dword [rdi], 3", {0xc1, 0x27, 0x03}, 3, INSN_OTHER, false, false, true, true, false},
    {"shr eax, 1", {0xd1, 0xe8}, 2, INSN_OTHER, false, false, false, false, false},
    {"shl eax, cl", {0xd3, 0xe0}, 2, INSN_OTHER, false, false, false, false, false},
    {"nop", {0x90}, 1, INSN_OTHER, false, false, false, false, false},
    {"pause", {0xf3, 0x90}, 2, INSN_OTHER, false, false, false, false, false},
    {"nop dword [rax+rax*1+0]", {0x0f, 0x1f, 0x04, 0x00}, 4, INSN_OTHER, false, false, false, false, false},
    {"leave", {0xc9}, 1, INSN_OTHER, false, false, true, false, false},
    {"mov eax, [abs qword 0x1234]", {0xa1, 0x34, 0x12, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}, 9, INSN_OTHER, false, false, true, false, false},
    {"mov al, [qword 0x1122334455667788]", {0xa0, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11}, 9, INSN_OTHER, false, false, true, false, false},
    {"xor eax, eax", {0x31, 0xc0}, 2, INSN_OTHER, false, false, false, false, false},
    {"bt dword [rdi], 5", {0x0f, 0xba, 0x27, 0x05}, 4, INSN_OTHER, false, false, true, false, false},
    {"bts [rdi], eax", {0x0f, 0xab, 0x07}, 3, INSN_OTHER, false, false, true, true, false},
    {"ud2", {0x0f, 0x0b}, 2, INSN_UD, false, false, false, false, false},
    {"endbr64", {0xf3, 0x0f, 0x1e, 0xfa}, 4, INSN_OTHER, false, false, false, false, false},
    {"lock add [rdi], eax", {0xf0, 0x01, 0x07}, 3, INSN_OTHER, false, false, true, true, false},
    {"movsxd rax, dword [rdi]", {0x48, 0x63, 0x07}, 3, INSN_OTHER, false, false, true, false, false},
    {"xadd [rdi], eax", {0x0f, 0xc1, 0x07}, 3, INSN_OTHER, false, false, true, true, false},
    {"popcnt eax, [rdi]", {0xf3, 0x0f, 0xb8, 0x07}, 4, INSN_OTHER, false, false, true, false, false},
    {"bswap eax", {0x0f, 0xc8}, 2, INSN_OTHER, false, false, false, false, false},
    {"push qword [rdi]", {0xff, 0x37}, 2, INSN_OTHER, false, false, true, true, false},
    {"pop qword [rdi]", {0x8f, 0x07}, 2, INSN_OTHER, false, false, true, true, false},
    {"mov edx, cs", {0x8c, 0xca}, 2, INSN_OTHER, false, false, false, false, false},
    {"mov [rdi], ds", {0x8c, 0x1f}, 2, INSN_OTHER, false, false, false, true, false},
    {"pushfq", {0x9c}, 1, INSN_OTHER, false, false, false, true, false},
    {"popfq", {0x9d}, 1, INSN_OTHER, false, false, true, false, false},
    {"retf", {0xcb}, 1, INSN_FAR_RET, true, false, true, false, false},
    {"o64 retf", {0x48, 0xcb}, 2, INSN_FAR_RET, true, false, true, false, false},
    {"jmp far [rdi]", {0x48, 0xff, 0x2f}, 3, INSN_FAR_JMP, true, false, true, false, false},
    {"call far [rdi]", {0x48, 0xff, 0x1f}, 3, INSN_FAR_CALL, true, false, true, true, false},
    {"mov eax, [rsp+rbp*2+0x12345678]", {0x8b, 0x84, 0x6c, 0x78, 0x56, 0x34, 0x12}, 7, INSN_OTHER, false, false, true, false, false},
    {"mov eax, [r13]", {0x41, 0x8b, 0x45, 0x00}, 4, INSN_OTHER, false, false, true, false, false},
    {"mov eax, [r12]", {0x41, 0x8b, 0x04, 0x24}, 4, INSN_OTHER, false, false, true, false, false},
    {"mov eax, [rbp*4+0x10]", {0x8b, 0x04, 0xad, 0x10, 0x00, 0x00, 0x00}, 7, INSN_OTHER, false, false, true, false, false},
    {"o16 add word [rdi], 0x1234", {0x66, 0x81, 0x07, 0x34, 0x12}, 5, INSN_OTHER, false, false, true, true, false},
    {"a32 mov eax, [ebx]", {0x67, 0x8b, 0x03}, 3, INSN_OTHER, false, false, true, false, false},
};

static void known_instructions(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
        const struct row *r = &known[i];
        struct insn_class c;
        bool ok = insn_classify(r->bytes, r->len, &c);
        if (!ok || c.len != r->len || c.kind != r->kind || c.branch != r->branch || c.cond != r->cond ||
            c.load != r->load || c.store != r->store || c.rep != r->rep)
            fail_msg("%s: ok %d len %u/%u kind %s/%s branch %d/%d cond %d/%d load %d/%d store %d/%d rep %d/%d",
                     r->text, ok, c.len, r->len, insn_kind_name(c.kind), insn_kind_name(r->kind), c.branch,
                     r->branch, c.cond, r->cond, c.load, r->load, c.store, r->store, c.rep, r->rep);
    }
}

/* One byte short of the whole instruction is never enough; trailing bytes are ignored. */
static void length_bounds(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
        const struct row *r = &known[i];
        struct insn_class c;
        assert_false(insn_classify(r->bytes, r->len - 1u, &c));
        assert_int_equal(c.len, 0);
        u8 buf[32];
        memset(buf, 0x90, sizeof(buf));
        memcpy(buf, r->bytes, r->len);
        assert_true(insn_classify(buf, sizeof(buf), &c));
        assert_int_equal(c.len, r->len);
    }
}

/* Opcodes outside what the classifier knows must be "unknown", never a guess. */
static void unknown_opcodes(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        u8 bytes[16];
        u8 n;
    } bad[] = {
        {"x87 fld", {0xd9, 0x00}, 2},
        {"sse movaps", {0x0f, 0x28, 0xc1}, 3},
        {"vex vaddps", {0xc5, 0xf4, 0x58, 0xc2}, 4},
        {"evex", {0x62, 0xf1, 0x74, 0x48, 0x58, 0xc2}, 6},
        {"in al, dx", {0xec}, 1},
        {"out dx, al", {0xee}, 1},
        {"0f38 map", {0x0f, 0x38, 0x00, 0xc1}, 4},
        {"0f3a map", {0x0f, 0x3a, 0x0f, 0xc1, 0x08}, 5},
        {"push es (invalid in 64-bit mode)", {0x06}, 1},
        {"daa (invalid in 64-bit mode)", {0x27}, 1},
        {"lea with a register source", {0x8d, 0xc0}, 2},
        {"mov from reserved segment register 6", {0x8c, 0xf0}, 2},
        {"c7 /1 (undefined)", {0xc7, 0xc8, 0, 0, 0, 0}, 6},
        {"xbegin", {0xc7, 0xf8, 0, 0, 0, 0}, 6},
        {"66 call rel16 (vendor-dependent)", {0x66, 0xe8, 0, 0}, 4},
        {"66 jcc rel (vendor-dependent)", {0x66, 0x0f, 0x84, 0, 0}, 5},
        {"rep add (undefined prefix use)", {0xf3, 0x01, 0x08}, 3},
        {"repne movsb", {0xf2, 0xa4}, 2},
        {"clflushopt", {0x66, 0x0f, 0xae, 0x3f}, 4},
        {"jmpe", {0x0f, 0xb8, 0, 0, 0, 0}, 6},
        {"lgdt (system)", {0x0f, 0x01, 0x10}, 3},
        {"hlt", {0xf4}, 1},
        {"two REX", {0x48, 0x48, 0x89, 0xc0}, 4},
        {"16 bytes (15 prefixes + NOP): over the 15-byte limit",
         {0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x90}, 16},
        {"nothing", {0}, 0},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct insn_class c;
        memset(&c, 0xAA, sizeof(c));
        if (insn_classify(bad[i].bytes, bad[i].n, &c))
            fail_msg("%s: classified as %s, length %u", bad[i].text, insn_kind_name(c.kind), c.len);
        assert_int_equal(c.len, 0);
    }
}

/* Prefix effects on lengths: 66h shortens imm32 to imm16, REX.W widens B8+r to imm64 and overrides 66h,
 * 67h shortens a moffs to 4 bytes; the flags of a REP string and of CLFLUSH. */
static void prefixes(void **state)
{
    (void)state;
    struct insn_class c;
    static const u8 mov16[] = {0x66, 0xb8, 0x34, 0x12};
    assert_true(insn_classify(mov16, sizeof(mov16), &c));
    assert_int_equal(c.len, 4);
    static const u8 mov64_66[] = {0x66, 0x48, 0xb8, 1, 2, 3, 4, 5, 6, 7, 8};
    assert_true(insn_classify(mov64_66, sizeof(mov64_66), &c));
    assert_int_equal(c.len, 11);
    static const u8 moffs32[] = {0x67, 0xa1, 1, 2, 3, 4};
    assert_true(insn_classify(moffs32, sizeof(moffs32), &c));
    assert_int_equal(c.len, 6);
    assert_true(c.load);
    static const u8 flush[] = {0x0f, 0xae, 0x3f};
    assert_true(insn_classify(flush, sizeof(flush), &c));
    assert_true(c.flush && c.mem && !c.load && !c.store);
    static const u8 repret[] = {0xf3, 0xc3};
    assert_true(insn_classify(repret, sizeof(repret), &c));
    assert_int_equal(c.kind, INSN_RET);
    assert_false(c.rep);
    static const u8 max15[] = {0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x90};
    assert_true(insn_classify(max15, sizeof(max15), &c)); /* exactly 15 bytes: the limit, still valid */
    assert_int_equal(c.len, 15);
    static const u8 seg_fs[] = {0x64, 0x48, 0x8b, 0x04, 0x25, 0, 0, 0, 0};
    assert_true(insn_classify(seg_fs, sizeof(seg_fs), &c));
    assert_int_equal(c.len, 9);
    assert_true(c.load);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(known_instructions),
        cmocka_unit_test(length_bounds),
        cmocka_unit_test(unknown_opcodes),
        cmocka_unit_test(prefixes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
