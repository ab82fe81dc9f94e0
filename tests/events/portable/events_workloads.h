/* The event workloads (tests/events/events_workloads.asm) and their constants. The asm repeats these numbers (nasm
 * cannot read C headers); tests/events/portable/events_expect.c derives every count from them. */
#pragma once
#include "lib/types.h"

#define EW_STRAIGHT_MAX 256u
#define EW_MEM_QWORDS 64u
#define EW_LINES_MAX 64u
#define EW_LFSR_SEED 0xACE1u
#define EW_LFSR_TAPS 0xB400u

#ifdef PMUBOOT_KERNEL
u64 ew_straight(u64 n);
u64 ew_loop(u64 n);
u64 ew_branches(u64 n);
u64 ew_mem(u64 n);
u64 ew_clflush(u64 n);
u64 ew_lfsr(u64 n);
u64 ew_cycles(u64 n);
u64 ew_rep_stos(u64 n);
u64 ew_calls(u64 n);
#endif
