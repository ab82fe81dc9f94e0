/* Opcode classifier: see insn_class.h. Decoding order (SDM Vol.2A 2.1, Figure 2-1): legacy prefixes, REX,
 * opcode (one byte or 0F xx), ModRM/SIB/displacement, immediate. Every opcode not listed below is unknown. */
#include "lib/insn_class.h"

#include <string.h>

#define MAX_INSN_LEN 15 /* SDM Vol.2A 2.3.11 */

struct dec {
    const u8 *b;
    size_t avail, pos;
    bool opsize, adsize, rep, repne, rex_w;
    u8 modrm;
    bool has_modrm;
};

/* Bytes an operand of size "z" takes: 2 with the operand-size prefix, else 4 (SDM Vol.2D A.2.2). */
static u32 imm_z(const struct dec *d)
{
    return d->opsize ? 2 : 4;
}

static bool take(struct dec *d, u32 n)
{
    if (d->pos + n > d->avail || d->pos + n > MAX_INSN_LEN)
        return false;
    d->pos += n;
    return true;
}

/* ModRM, SIB and displacement (64-bit mode: 32-bit and 64-bit addressing share the encoding; the 67h prefix
 * changes only the address size, SDM Vol.2A 2.2.1.3, Table 2-7; mod=00 rm=101 is RIP-relative). */
static bool modrm(struct dec *d, struct insn_class *c)
{
    if (d->pos >= d->avail || d->pos >= MAX_INSN_LEN)
        return false;
    d->modrm = d->b[d->pos++];
    d->has_modrm = true;
    u8 mod = d->modrm >> 6, rm = d->modrm & 7;
    if (mod == 3)
        return true;
    c->mem = true;
    u32 disp = mod == 1 ? 1 : mod == 2 ? 4 : 0;
    if (rm == 4) {
        if (d->pos >= d->avail || d->pos >= MAX_INSN_LEN)
            return false;
        u8 sib = d->b[d->pos++];
        if (mod == 0 && (sib & 7) == 5)
            disp = 4;
    } else if (mod == 0 && rm == 5) {
        disp = 4;
    }
    return take(d, disp);
}

static u8 reg_field(const struct dec *d)
{
    return (d->modrm >> 3) & 7;
}

static void set_branch(struct insn_class *c, u8 kind)
{
    c->kind = kind;
    c->branch = true;
    c->cond = kind == INSN_JCC || kind == INSN_LOOP || kind == INSN_JRCXZ;
    c->indirect = kind == INSN_JMP_IND || kind == INSN_CALL_IND || kind == INSN_RET || kind == INSN_IRET ||
                  kind == INSN_FAR_JMP || kind == INSN_FAR_CALL || kind == INSN_FAR_RET || kind == INSN_SYSRET ||
                  kind == INSN_SYSCALL || kind == INSN_INT;
    c->far = kind == INSN_INT || kind == INSN_IRET || kind == INSN_SYSCALL || kind == INSN_SYSRET ||
             kind == INSN_FAR_JMP || kind == INSN_FAR_CALL || kind == INSN_FAR_RET;
}

/* Memory access of an instruction whose ModRM r/m is the destination (read-modify-write) or a source. */
static void rm_rmw(struct insn_class *c)
{
    c->load = c->store = c->mem;
}
static void rm_read(struct insn_class *c)
{
    c->load = c->mem;
}
static void rm_write(struct insn_class *c)
{
    c->store = c->mem;
}

/* The ALU block 00-3F: op r/m,r (x0/x1: read-modify-write, CMP only reads), op r,r/m (x2/x3: reads),
 * op AL/eAX,imm (x4/x5). x6, x7 and 26/2E/36/3E's slots are handled before or invalid in 64-bit mode. */
static bool alu_block(struct dec *d, u8 op, struct insn_class *c)
{
    u8 low = op & 7;
    bool cmp = (op & 0xF8) == 0x38;
    if (low <= 3) {
        if (!modrm(d, c))
            return false;
        if (low <= 1 && !cmp)
            rm_rmw(c);
        else
            rm_read(c);
        return true;
    }
    if (low == 4)
        return take(d, 1);
    if (low == 5)
        return take(d, imm_z(d));
    return false;
}

/* Group 3 (F6/F7): /0 /1 TEST imm, /2 NOT, /3 NEG, /4-/7 MUL IMUL DIV IDIV. */
static bool group3(struct dec *d, bool wide, struct insn_class *c)
{
    if (!modrm(d, c))
        return false;
    u8 r = reg_field(d);
    if (r <= 1) {
        rm_read(c);
        return take(d, wide ? imm_z(d) : 1);
    }
    if (r <= 3)
        rm_rmw(c);
    else
        rm_read(c);
    return true;
}

/* Group 5 (FF): INC, DEC, CALL r/m, CALL far m, JMP r/m, JMP far m, PUSH r/m. */
static bool group5(struct dec *d, struct insn_class *c)
{
    if (!modrm(d, c))
        return false;
    switch (reg_field(d)) {
    case 0:
    case 1:
        rm_rmw(c);
        return true;
    case 2:
        set_branch(c, INSN_CALL_IND);
        c->load = c->mem;
        c->store = true; /* the return address */
        return true;
    case 3:
        if (!c->mem)
            return false;
        set_branch(c, INSN_FAR_CALL);
        c->load = c->store = true;
        return true;
    case 4:
        set_branch(c, INSN_JMP_IND);
        rm_read(c);
        return true;
    case 5:
        if (!c->mem)
            return false;
        set_branch(c, INSN_FAR_JMP);
        c->load = true;
        return true;
    case 6:
        rm_read(c);
        c->store = true;
        return true;
    default:
        return false;
    }
}

/* Two-byte opcodes 0F xx (SDM Vol.2D Table A-3), general-purpose ones only. */
static bool map_0f(struct dec *d, struct insn_class *c)
{
    if (!take(d, 1))
        return false;
    u8 op = d->b[d->pos - 1];
    bool f3 = d->rep;
    if ((d->rep || d->repne) && !(op >= 0x80 && op <= 0x8F) &&
        !(f3 && (op == 0xB8 || op == 0xBC || op == 0xBD || op == 0x1E)))
        return false; /* mandatory-prefix forms (SSE, RDSSP, ...) are not known here */
    if (op == 0x1E) { /* F3 0F 1E FA/FB: ENDBR64/ENDBR32, a NOP without CET (SDM Vol.2A ENDBR64) */
        if (!f3 || !take(d, 1))
            return false;
        u8 m = d->b[d->pos - 1];
        return m == 0xFA || m == 0xFB;
    }
    if (op >= 0x80 && op <= 0x8F) { /* Jcc rel32; 66h is treated differently by Intel and AMD */
        if (d->opsize)
            return false;
        set_branch(c, INSN_JCC);
        return take(d, 4);
    }
    if (op >= 0x40 && op <= 0x4F) { /* CMOVcc: the source is read whether or not the move happens */
        if (!modrm(d, c))
            return false;
        rm_read(c);
        return true;
    }
    if (op >= 0x90 && op <= 0x9F) { /* SETcc */
        if (!modrm(d, c))
            return false;
        rm_write(c);
        return true;
    }
    if (op >= 0xC8 && op <= 0xCF) /* BSWAP */
        return true;
    switch (op) {
    case 0x05:
        set_branch(c, INSN_SYSCALL);
        return true;
    case 0x07:
        set_branch(c, INSN_SYSRET);
        return true;
    case 0x0B:
        c->kind = INSN_UD;
        return true;
    case 0x1F: /* NOP r/m: no memory access (SDM Vol.2B NOP) */
        return modrm(d, c);
    case 0x31: /* RDTSC */
        return true;
    case 0xA2:
        c->kind = INSN_CPUID;
        return true;
    case 0xA3: /* BT r/m, r */
    case 0xAF: /* IMUL r, r/m */
    case 0xB6: /* MOVZX */
    case 0xB7:
    case 0xBE: /* MOVSX */
    case 0xBF:
    case 0xB8: /* POPCNT (F3 only: plain 0F B8 is JMPE, refused above) */
    case 0xBC: /* BSF / TZCNT */
    case 0xBD: /* BSR / LZCNT */
        if (op == 0xB8 && !f3)
            return false;
        if (!modrm(d, c))
            return false;
        rm_read(c);
        return true;
    case 0xAB: /* BTS, BTR, BTC r/m, r; XADD */
    case 0xB3:
    case 0xBB:
    case 0xC0:
    case 0xC1:
        if (!modrm(d, c))
            return false;
        rm_rmw(c);
        return true;
    case 0xA4: /* SHLD/SHRD imm8 and CL */
    case 0xAC:
    case 0xA5:
    case 0xAD:
        if (!modrm(d, c))
            return false;
        rm_rmw(c);
        return op == 0xA4 || op == 0xAC ? take(d, 1) : true;
    case 0xBA: { /* Group 8: /4 BT, /5 BTS, /6 BTR, /7 BTC, imm8 */
        if (!modrm(d, c) || reg_field(d) < 4)
            return false;
        if (reg_field(d) == 4)
            rm_read(c);
        else
            rm_rmw(c);
        return take(d, 1);
    }
    case 0xAE: /* Group 15: LFENCE/MFENCE/SFENCE (register forms), CLFLUSH m8 (/7 without 66h) */
        if (!modrm(d, c))
            return false;
        if (!c->mem)
            return reg_field(d) >= 5 && !d->opsize;
        if (reg_field(d) != 7 || d->opsize)
            return false;
        c->flush = true;
        return true;
    default:
        return false;
    }
}

static bool string_op(struct dec *d, u8 op, struct insn_class *c)
{
    c->kind = INSN_STRING;
    c->rep = d->rep || d->repne;
    switch (op) {
    case 0xA4: /* MOVS */
    case 0xA5:
        if (d->repne)
            return false;
        c->load = c->store = true;
        break;
    case 0xAA: /* STOS */
    case 0xAB:
        if (d->repne)
            return false;
        c->store = true;
        break;
    case 0xAC: /* LODS */
    case 0xAD:
        if (d->repne)
            return false;
        c->load = true;
        break;
    default: /* A6/A7 CMPS, AE/AF SCAS */
        c->load = true;
        break;
    }
    return true;
}

static bool one_byte(struct dec *d, u8 op, struct insn_class *c)
{
    /* F2/F3 are allowed only where they mean something known: REP strings, PAUSE, and the BND/"rep ret"
     * forms of near branches (which remain the same branches). */
    bool reppfx = d->rep || d->repne;
    bool is_string = (op >= 0xA4 && op <= 0xA7) || (op >= 0xAA && op <= 0xAF);
    bool rep_ok = is_string || op == 0x90 || op == 0xC3 || op == 0xC2 || op == 0xE8 || op == 0xE9 ||
                  (op >= 0x70 && op <= 0x7F) || op == 0xEB || op == 0xFF;
    if (reppfx && !rep_ok)
        return false;
    if (op < 0x40) {
        if ((op & 7) >= 6)
            return false; /* segment push/pop, BCD adjust, prefixes: invalid or handled before */
        return alu_block(d, op, c);
    }
    if (op >= 0x50 && op <= 0x57) {
        c->store = true;
        return true;
    }
    if (op >= 0x58 && op <= 0x5F) {
        c->load = true;
        return true;
    }
    if (op >= 0x70 && op <= 0x7F) {
        set_branch(c, INSN_JCC);
        return take(d, 1);
    }
    if (op >= 0x91 && op <= 0x97) /* XCHG eAX, r */
        return true;
    if (op >= 0xB0 && op <= 0xB7) /* MOV r8, imm8 */
        return take(d, 1);
    if (op >= 0xB8 && op <= 0xBF) /* MOV r, imm16/32/64 */
        return take(d, d->rex_w ? 8 : imm_z(d));
    if (is_string)
        return string_op(d, op, c);
    switch (op) {
    case 0x63: /* MOVSXD */
    case 0x84: /* TEST r/m, r */
    case 0x85:
    case 0x8A: /* MOV r, r/m */
    case 0x8B:
        if (!modrm(d, c))
            return false;
        rm_read(c);
        return true;
    case 0x86: /* XCHG r/m, r */
    case 0x87:
        if (!modrm(d, c))
            return false;
        rm_rmw(c);
        return true;
    case 0x88: /* MOV r/m, r */
    case 0x89:
        if (!modrm(d, c))
            return false;
        rm_write(c);
        return true;
    case 0x8C: /* MOV r/m, Sreg (Table A-2 "MOV Ev,Sw"): reg 0-5 name ES..GS, 6 and 7 are reserved (#UD) */
        if (!modrm(d, c) || reg_field(d) > 5)
            return false;
        rm_write(c);
        return true;
    case 0x8D: /* LEA: computes an address, accesses nothing; a register source is #UD */
        return modrm(d, c) && c->mem;
    case 0x8F: /* POP r/m */
        if (!modrm(d, c) || reg_field(d) != 0)
            return false;
        c->load = true;
        rm_write(c);
        return true;
    case 0x68: /* PUSH imm */
        c->store = true;
        return take(d, imm_z(d));
    case 0x6A:
        c->store = true;
        return take(d, 1);
    case 0x69: /* IMUL r, r/m, imm */
    case 0x6B:
        if (!modrm(d, c))
            return false;
        rm_read(c);
        return take(d, op == 0x69 ? imm_z(d) : 1);
    case 0x80: /* Group 1: /7 is CMP (reads), the rest read-modify-write */
    case 0x81:
    case 0x83:
        if (!modrm(d, c))
            return false;
        if (reg_field(d) == 7)
            rm_read(c);
        else
            rm_rmw(c);
        return take(d, op == 0x81 ? imm_z(d) : 1);
    case 0x90: /* NOP, PAUSE (F3 90) */
    case 0x98: /* CBW/CWDE/CDQE */
    case 0x99: /* CWD/CDQ/CQO */
    case 0x9E: /* SAHF */
    case 0x9F: /* LAHF */
    case 0xF5: /* CMC */
    case 0xF8: /* CLC, STC, CLI, STI, CLD, STD */
    case 0xF9:
    case 0xFA:
    case 0xFB:
    case 0xFC:
    case 0xFD:
        return true;
    case 0x9C: /* PUSHF */
        c->store = true;
        return true;
    case 0x9D: /* POPF */
        c->load = true;
        return true;
    case 0xA0: /* MOV AL/eAX, moffs; moffs, AL/eAX: the offset has the address size */
    case 0xA1:
    case 0xA2:
    case 0xA3:
        c->load = op <= 0xA1;
        c->store = op >= 0xA2;
        return take(d, d->adsize ? 4 : 8);
    case 0xA8: /* TEST AL, imm8 / eAX, imm */
        return take(d, 1);
    case 0xA9:
        return take(d, imm_z(d));
    case 0xC0: /* Group 2 shifts and rotates */
    case 0xC1:
    case 0xD0:
    case 0xD1:
    case 0xD2:
    case 0xD3:
        if (!modrm(d, c) || reg_field(d) == 6)
            return false;
        rm_rmw(c);
        return op <= 0xC1 ? take(d, 1) : true;
    case 0xC2: /* RET imm16 */
    case 0xC3:
        set_branch(c, INSN_RET);
        c->load = true;
        return op == 0xC2 ? take(d, 2) : true;
    case 0xC6: /* MOV r/m, imm (/0 only: C6/C7 F8 are XABORT/XBEGIN) */
    case 0xC7:
        if (!modrm(d, c) || reg_field(d) != 0)
            return false;
        rm_write(c);
        return take(d, op == 0xC6 ? 1 : imm_z(d));
    case 0xC9: /* LEAVE */
        c->load = true;
        return true;
    case 0xCA: /* RETF imm16, RETF */
    case 0xCB:
        set_branch(c, INSN_FAR_RET);
        c->load = true;
        return op == 0xCA ? take(d, 2) : true;
    case 0xCC: /* INT3, INT imm8, INT1 */
    case 0xF1:
        set_branch(c, INSN_INT);
        c->store = true;
        return true;
    case 0xCD:
        set_branch(c, INSN_INT);
        c->store = true;
        return take(d, 1);
    case 0xCF:
        set_branch(c, INSN_IRET);
        c->load = true;
        return true;
    case 0xE0: /* LOOPNE, LOOPE, LOOP, JRCXZ rel8 */
    case 0xE1:
    case 0xE2:
        set_branch(c, INSN_LOOP);
        return take(d, 1);
    case 0xE3:
        set_branch(c, INSN_JRCXZ);
        return take(d, 1);
    case 0xE8: /* CALL/JMP rel32: 66h is handled differently by Intel and AMD (SDM Vol.2A CALL) */
    case 0xE9:
        if (d->opsize)
            return false;
        set_branch(c, op == 0xE8 ? INSN_CALL : INSN_JMP);
        c->store = op == 0xE8;
        return take(d, 4);
    case 0xEB:
        set_branch(c, INSN_JMP);
        return take(d, 1);
    case 0xF6:
    case 0xF7:
        return group3(d, op == 0xF7, c);
    case 0xFE: /* Group 4: INC/DEC r/m8 */
        if (!modrm(d, c) || reg_field(d) > 1)
            return false;
        rm_rmw(c);
        return true;
    case 0xFF:
        if (!group5(d, c))
            return false;
        return !reppfx || c->kind == INSN_CALL_IND || c->kind == INSN_JMP_IND;
    default:
        return false;
    }
}

bool insn_classify(const u8 *bytes, size_t avail, struct insn_class *out)
{
    struct dec d = {.b = bytes, .avail = avail};
    struct insn_class c;
    memset(&c, 0, sizeof(c));
    memset(out, 0, sizeof(*out));
    /* Legacy prefixes (SDM Vol.2A 2.1.1), any order; LOCK is accepted as part of the instruction. */
    for (;; d.pos++) {
        if (d.pos >= avail || d.pos >= MAX_INSN_LEN)
            return false;
        u8 p = bytes[d.pos];
        if (p == 0x66)
            d.opsize = true;
        else if (p == 0x67)
            d.adsize = true;
        else if (p == 0xF3)
            d.rep = true, d.repne = false; /* the last of F2/F3 wins */
        else if (p == 0xF2)
            d.repne = true, d.rep = false;
        else if (p != 0xF0 && p != 0x2E && p != 0x36 && p != 0x3E && p != 0x26 && p != 0x64 && p != 0x65)
            break;
    }
    /* REX must come last, right before the opcode (SDM Vol.2A 2.2.1); REX.W overrides 66h. */
    u8 op = bytes[d.pos];
    if ((op & 0xF0) == 0x40) {
        d.rex_w = op & 8;
        if (d.rex_w)
            d.opsize = false;
        if (!take(&d, 1) || d.pos >= avail)
            return false;
        op = bytes[d.pos];
    }
    if (!take(&d, 1))
        return false;
    bool ok = op == 0x0F ? map_0f(&d, &c) : one_byte(&d, op, &c);
    if (!ok)
        return false;
    c.len = (u8)d.pos;
    *out = c;
    return true;
}

const char *insn_kind_name(u8 kind)
{
    static const char *const names[INSN_KIND_COUNT] = {
        "other", "jcc",     "jmp",     "jmp_ind", "call",     "call_ind", "ret",   "loop",   "jrcxz", "int",
        "iret",  "syscall", "sysret",  "far_jmp", "far_call", "far_ret",  "cpuid", "string", "ud",
    };
    return kind < INSN_KIND_COUNT ? names[kind] : "?";
}
