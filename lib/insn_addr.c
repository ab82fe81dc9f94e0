/* insn_mem_address (see insn_addr.h). */
#include "lib/insn_addr.h"

static s64 disp(const u8 *p, u32 n)
{
    if (n == 1)
        return (s8)p[0];
    return (s32)((u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24);
}

bool insn_mem_address(const u8 *bytes, size_t avail, const u64 regs[16], u64 next_rip, u64 *addr)
{
    size_t i = 0;
    u8 rex = 0;
    /* Legacy prefixes (SDM Vol.2A 2.1.1) that leave the address alone: operand size, REP/REPNE, LOCK, and the
     * segment overrides that are ignored in 64-bit mode (CS, DS, ES, SS). */
    while (i < avail && i < 15) {
        u8 b = bytes[i];
        if (b == 0x66 || b == 0xf2 || b == 0xf3 || b == 0xf0 || b == 0x2e || b == 0x3e || b == 0x26 || b == 0x36)
            i++;
        else
            break;
    }
    if (i < avail && (bytes[i] & 0xf0) == 0x40)
        rex = bytes[i++];
    if (i >= avail)
        return false;
    u8 op = bytes[i++];
    if (op == 0x64 || op == 0x65 || op == 0x67 || op == 0xc4 || op == 0xc5 || op == 0x62)
        return false; /* FS/GS, address size, VEX/EVEX */
    if (op == 0x0f) {
        if (i >= avail || bytes[i] == 0x38 || bytes[i] == 0x3a)
            return false;
        i++;
    }
    if (i >= avail)
        return false;
    u8 modrm = bytes[i++], mod = modrm >> 6, rm = modrm & 7;
    if (mod == 3)
        return false; /* a register operand */
    u64 a = 0;
    if (rm == 4) { /* SIB */
        if (i >= avail)
            return false;
        u8 sib = bytes[i++], scale = sib >> 6, index = (sib >> 3 & 7) | (rex & 2 ? 8 : 0), base = sib & 7;
        if (index != 4) /* index 100 without REX.X: none */
            a += regs[index] << scale;
        if (base == 5 && mod == 0) {
            if (i + 4 > avail)
                return false;
            a += (u64)disp(&bytes[i], 4); /* no base, disp32 */
            *addr = a;
            return true;
        }
        a += regs[base | (rex & 1 ? 8 : 0)];
    } else if (rm == 5 && mod == 0) {
        if (i + 4 > avail)
            return false;
        *addr = next_rip + (u64)disp(&bytes[i], 4); /* RIP-relative */
        return true;
    } else {
        a = regs[rm | (rex & 1 ? 8 : 0)];
    }
    u32 n = mod == 1 ? 1 : mod == 2 ? 4 : 0;
    if (i + n > avail)
        return false;
    if (n)
        a += (u64)disp(&bytes[i], n);
    *addr = a;
    return true;
}
