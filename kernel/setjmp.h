/* setjmp/longjmp for the kernel: an exception inside a check resumes the check runner. */
#pragma once
#include "lib/types.h"

typedef u64 k_jmp_buf[8]; /* rbx, rbp, r12, r13, r14, r15, rsp, rip */

int k_setjmp(k_jmp_buf buf) __attribute__((returns_twice));
NORETURN void k_longjmp(k_jmp_buf buf, int val);
