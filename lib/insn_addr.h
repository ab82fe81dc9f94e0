/* The address of an instruction's explicit memory operand, from its bytes and the registers, for the emulated
 * uncore's observer of a single-stepped workload (emul/kernel/uncore_emul.c: which line a CLFLUSH flushed and which a
 * load read). 64-bit mode, 64-bit addressing: ModRM and SIB (SDM Vol.2A 2.1.5, Tables 2-2 and 2-3; REX.B and REX.X
 * extend the base and index, 2.2.1; mod 00 r/m 101 is RIP-relative from the next instruction, 2.2.1.6). Only the
 * encodings this decoder knows (one- and two-byte opcodes with a ModRM byte); false for anything else: a segment
 * override (FS/GS bases are not in the registers), a 67h address-size prefix, a three-byte opcode (0F 38, 0F 3A),
 * VEX/EVEX, a register operand. The registers given are the caller's: after the instruction, in the single-step
 * oracle's case, so an instruction that writes its own base or index gives the wrong address (the workloads that
 * rely on it never do). Portable. */
#pragma once
#include "lib/types.h"

/* regs: RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI, R8..R15 (the ModRM register numbers); next_rip: the address of the
 * following instruction (for RIP-relative operands). */
bool insn_mem_address(const u8 *bytes, size_t avail, const u64 regs[16], u64 next_rip, u64 *addr);
