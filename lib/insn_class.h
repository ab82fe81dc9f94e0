/* Opcode classifier for the single-step oracle (kernel/singlestep.c): the length of one 64-bit-mode
 * instruction and what a PMU would count it as (branch, conditional, load, store, REP string).
 * Portable: it reads only the bytes it is given. It knows the general-purpose integer instructions that
 * compiled kernel code and the event workloads use, and answers "unknown" (false) for everything else
 * (x87, SSE/AVX, VEX/EVEX, I/O, system instructions): never a guess.
 * Opcode maps: SDM Vol.2D Appendix A (Tables ); ModRM/SIB sizes: SDM Vol.2A 2.1.5 and 2.2.1. */
#pragma once
#include "lib/types.h"

enum insn_kind {
    INSN_OTHER,    /* no control transfer */
    INSN_JCC,      /* Jcc rel8/rel32 */
    INSN_JMP,      /* near JMP rel8/rel32 */
    INSN_JMP_IND,  /* near JMP r/m (FF /4) */
    INSN_CALL,     /* near CALL rel32 */
    INSN_CALL_IND, /* near CALL r/m (FF /2) */
    INSN_RET,      /* near RET, RET imm16 */
    INSN_LOOP,     /* LOOP, LOOPE, LOOPNE */
    INSN_JRCXZ,    /* JRCXZ / JECXZ */
    INSN_INT,      /* INT3, INT imm8, INT1 */
    INSN_IRET,     /* IRET/IRETQ */
    INSN_SYSCALL,  /* SYSCALL */
    INSN_SYSRET,   /* SYSRET */
    INSN_FAR_JMP,  /* FF /5 */
    INSN_FAR_CALL, /* FF /3 */
    INSN_FAR_RET,  /* RETF */
    INSN_CPUID,    /* CPUID: Core 2 counts it as a branch (pmu deviation table) */
    INSN_STRING,   /* MOVS, CMPS, STOS, LODS, SCAS (REP-prefixed or not) */
    INSN_UD,       /* UD2: a defined #UD, never retires */
    INSN_KIND_COUNT
};

struct insn_class {
    u8 len;       /* bytes, prefixes included (1..15) */
    u8 kind;      /* enum insn_kind */
    bool branch;  /* a control transfer: what "branch instructions retired" counts (near and far) */
    bool cond;    /* conditional branch: Jcc, LOOPcc/LOOP, JRCXZ */
    bool indirect;/* target from a register or memory (JMP/CALL r/m, RET, IRET, far forms) */
    bool far;     /* changes CS or privilege: INT, IRET, SYSCALL/SYSRET, far JMP/CALL/RET */
    bool load;    /* reads data memory, implicit stack reads (POP, RET, LEAVE) included */
    bool store;   /* writes data memory, implicit stack writes (PUSH, CALL) included */
    bool mem;     /* has an explicit ModRM memory operand */
    bool rep;     /* REP/REPE/REPNE string instruction: single-step traps once per iteration (SDM Vol.3B
                   * 18.3.1.4), the PMU retires it once: the oracle counts it as ONE instruction */
    bool flush;   /* CLFLUSH: neither load nor store here (the LLC workload counts it apart) */
};

/* Classify the instruction at bytes[0..avail). False, with *out zeroed, for an opcode this classifier does
 * not know or an instruction longer than avail or 15 bytes. */
bool insn_classify(const u8 *bytes, size_t avail, struct insn_class *out);
const char *insn_kind_name(u8 kind);
