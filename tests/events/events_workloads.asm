; Event workloads whose counts are known by construction (suite `events`, docs/suites.md). Each is a SysV
; function u64 ew_NAME(u64 n): no stack use besides its own return address (ew_calls: its calls' return
; addresses and the far RET's two qwords, all popped again), no red zone, callable at CPL 3
; (the identity map is user-accessible) and CPL 0. The counts of each, as a function of n, are derived in
; the comments here and implemented in tests/events/portable/events_expect.c: instructions retired from the first instruction
; to the final RET inclusive (the caller's CALL is not the workload's), branches (control transfers),
; conditional branches, taken branches, loads and stores (RET's pop of the return address is one load).
; "taken": conditional branches that went to their target, plus every unconditional near transfer (JMP, CALL,
; RET); far transfers are counted apart. What follows from these (returns, relative calls, conditional taken and
; not taken) is derived once for all workloads in events_expect.c (branch_kinds).
; Keep every edit here and in tests/events/portable/events_expect.c together: the oracle check compares them.
bits 64
section .text

STRAIGHT_MAX equ 256                ; = EW_STRAIGHT_MAX (tests/events/portable/events_workloads.h)
MEM_QWORDS   equ 64                 ; = EW_MEM_QWORDS: the load/store buffer wraps at this many qwords
LINES_MAX    equ 64                 ; = EW_LINES_MAX
LFSR_SEED    equ 0xACE1             ; = EW_LFSR_SEED
LFSR_TAPS    equ 0xB400             ; = EW_LFSR_TAPS: x^16 + x^14 + x^13 + x^11 + 1, maximal period 65535

global ew_straight, ew_loop, ew_branches, ew_mem, ew_clflush, ew_lfsr, ew_cycles, ew_rep_stos, ew_calls

; Straight line: n (<= STRAIGHT_MAX) consecutive ADDs with no branch among them, entered by one indirect JMP
; into the unrolled block (each `add rax, 1` is 4 bytes: 48 83 C0 01).
;   instructions n + 9 (8 before the block, RET), branches 2 (JMP, RET), conditional 0, taken 2, loads 1
;   (RET), stores 0. Returns min(n, STRAIGHT_MAX).
ew_straight:
    mov eax, STRAIGHT_MAX               ; 1
    cmp rdi, rax                        ; 2
    cmova rdi, rax                      ; 3  n = min(n, STRAIGHT_MAX), no branch
    lea rcx, [rel .end]                 ; 4
    shl rdi, 2                          ; 5
    sub rcx, rdi                        ; 6  .end - 4n: the n-th ADD from the end
    xor eax, eax                        ; 7
    jmp rcx                             ; 8  unconditional, taken (even onto the next instruction)
.block:
%rep STRAIGHT_MAX
    add rax, strict byte 1
%endrep
.end:
    ret

; Counted loop: n iterations of a 4-instruction body ending in a conditional branch.
;   n >= 1: instructions 4 + 4n + 1 = 4n + 5; branches 1 (JZ) + n (JNZ) + 1 (RET) = n + 2;
;           conditional n + 1; taken (n - 1) JNZ + RET = n; loads 1; stores 0.
;   n = 0:  instructions 5 (JZ taken to RET); branches 2; conditional 1; taken 2; loads 1; stores 0.
;   Returns 3n.
ew_loop:
    mov rcx, rdi                        ; 1
    xor eax, eax                        ; 2
    test rcx, rcx                       ; 3
    jz .done                            ; 4  conditional: taken only for n = 0
.top:
    add rax, 3                          ; body 1
    xor rdx, rax                        ; body 2
    dec rcx                             ; body 3
    jnz .top                            ; body 4: conditional, taken n - 1 times, not taken once
.done:
    ret

; Branches in known numbers. Per iteration: a JE never taken (RCX >= 1 inside the loop), a JNE always taken,
; an unconditional JMP, and the loop's JNZ.
;   n >= 1: instructions 4 + 7n + 1 = 7n + 5; branches 1 + 4n + 1 = 4n + 2; conditional 3n + 1;
;           taken n (JNE) + n (JMP) + (n - 1) (JNZ) + 1 (RET) = 3n; loads 1; stores 0.
;   n = 0:  as ew_loop: 5, 2, 1, 2, 1, 0.   Returns n.
ew_branches:
    mov rcx, rdi                        ; 1
    xor eax, eax                        ; 2
    test rcx, rcx                       ; 3
    jz .done                            ; 4
.top:
    cmp rcx, 0                          ; 1
    je .never                           ; 2  conditional, never taken
    jne .t1                             ; 3  conditional, always taken
    ud2                                 ;    never reached: a fault here fails the check
.t1:
    jmp .t2                             ; 4  unconditional
    ud2
.t2:
    inc rax                             ; 5
    dec rcx                             ; 6
    jnz .top                            ; 7  taken n - 1 times
.done:
    ret
.never:
    ud2

; Loads and stores over a buffer: per iteration two loads and one store (so a counter that mixes them up
; is off), the index wrapping at MEM_QWORDS.
;   n >= 1: instructions 6 + 9n + 1 = 9n + 7; loads 2n + 1 (RET); stores n; branches n + 2; conditional
;           n + 1; taken n.
;   n = 0:  instructions 7; loads 1; stores 0; branches 2; conditional 1; taken 2.
;   Returns the sum of the loaded values (not checked: the buffer is shared).
ew_mem:
    lea rsi, [rel ew_mem_buf]           ; 1
    xor eax, eax                        ; 2
    xor ecx, ecx                        ; 3
    mov rdx, rdi                        ; 4
    test rdx, rdx                       ; 5
    jz .done                            ; 6
.top:
    mov r8, [rsi + rcx*8]               ; 1 load
    mov r9, [rsi + rcx*8 + MEM_QWORDS*8]; 2 load
    add rax, r8                         ; 3
    add rax, r9                         ; 4
    mov [rsi + rcx*8 + MEM_QWORDS*16], rax ; 5 store
    inc ecx                             ; 6
    and ecx, MEM_QWORDS - 1             ; 7
    dec rdx                             ; 8
    jnz .top                            ; 9
.done:
    ret

; CLFLUSHed lines touched once each: n (<= LINES_MAX) lines, each in its own 4 KiB page at a different
; offset (line i at i*4096 + (i*64 mod 4096): no two in one page, so no streamer prefetches one from
; another), flushed, fenced, then each loaded once. Every load misses every cache level: at least n LLC
; misses (SDM Vol.2A CLFLUSH: "invalidates ... from every level of the cache hierarchy").
;   n >= 1: instructions 9 + 5n (flush loop) + 2 + 5n (touch loop) + 1 = 10n + 12; loads n + 1; stores 0;
;           flushes n; branches 2n + 2; conditional 2n + 1; taken (n - 1) + (n - 1) + 1 = 2n - 1.
;   n = 0:  instructions 10 (JZ taken to RET); loads 1; branches 2; conditional 1; taken 2; flushes 0.
;   Returns the sum of the loaded qwords.
ew_clflush:
    mov eax, LINES_MAX                  ; 1
    cmp rdi, rax                        ; 2
    cmova rdi, rax                      ; 3
    lea rsi, [rel ew_lines]             ; 4
    mov rdx, rsi                        ; 5
    mov rcx, rdi                        ; 6
    xor eax, eax                        ; 7
    test rcx, rcx                       ; 8
    jz .done                            ; 9
.flush:
    clflush [rdx]                       ; 1
    add rdx, 4096 + 64                  ; 2  next page, next line offset (n <= 64: offsets stay < 4096)
    dec rcx                             ; 3
    nop                                 ; 4  (keeps both loops 5 instructions long)
    jnz .flush                          ; 5
    mfence                              ; +1 the flushes complete before the loads (SDM Vol.2A CLFLUSH)
    mov rcx, rdi                        ; +2
.touch:
    add rax, [rsi]                      ; 1  load: a miss
    add rsi, 4096 + 64                  ; 2
    dec rcx                             ; 3
    nop                                 ; 4
    jnz .touch                          ; 5
.done:
    ret

; Data-dependent branches: a 16-bit Galois LFSR steps once per iteration and a JNC on its shifted-out bit
; decides whether the taps are applied. The pattern has period 65535, so no predictor learns it within a
; run; mispredictions are bounded by 1 <= misses <= conditional branches. With k = the number of ones among
; the first n shifted-out bits (tests/events/portable/events_expect.c steps the same LFSR):
;   n >= 1: instructions 5 + 4n + 2k + 2 = 4n + 2k + 7; branches 2n + 2; conditional 2n + 1;
;           taken (n - k) JNC + (n - 1) JNZ + 1 RET = 2n - k; loads 1; stores 0.
;   n = 0:  instructions 7 (JZ taken to MOV, RET); branches 2; conditional 1; taken 2.
;   Returns k.
ew_lfsr:
    mov eax, LFSR_SEED                  ; 1
    xor edx, edx                        ; 2
    mov rcx, rdi                        ; 3
    test rcx, rcx                       ; 4
    jz .done                            ; 5
.top:
    shr eax, 1                          ; 1  CF = the bit shifted out
    jnc .skip                           ; 2  data-dependent: taken when the bit is 0
    xor eax, LFSR_TAPS                  ; (k times)
    inc edx                             ; (k times)
.skip:
    dec rcx                             ; 3
    jnz .top                            ; 4
.done:
    mov eax, edx                        ; +1
    ret                                 ; +2

; Cycle loop: n iterations of 8 dependent IMULs (each multiplies the previous result) and the loop branch. A
; multiplication is never removed at rename, and its latency is at least 3 cycles on every x86 core (Intel 64
; and IA-32 Architectures Optimization Reference Manual, instruction latency tables; AMD Software Optimization
; Guides; uops.info), so the loop takes at least 8n core cycles with room to spare. A chain of `add rax, 1` does
; not: Golden Cove-family cores (Alder Lake P-cores and later) execute small-immediate ADD/INC at rename with
; zero latency (uops.info, ADL-P), several per cycle.
;   n >= 1: instructions 5 + 10n + 1 = 10n + 6; branches n + 2; conditional n + 1; taken n; loads 1.
;   n = 0:  6, 2, 1, 2, loads 1.   Returns 3^(8n) (mod 2^64): the multiplications done, exactly.
ew_cycles:
    mov rcx, rdi                        ; 1
    mov eax, 1                          ; 2
    mov edx, 3                          ; 3
    test rcx, rcx                       ; 4
    jz .done                            ; 5
.top:
%rep 8
    imul rax, rdx
%endrep
    dec rcx                             ; 9
    jnz .top                            ; 10
.done:
    ret

; REP STOSB of n bytes: one instruction however many iterations (SDM Vol.2B REP; the oracle's rule,
; kernel/singlestep.h). n is clamped to the buffer (MEM_QWORDS * 8 bytes).
;   instructions 9; branches 1 (RET); conditional 0; taken 1; loads 1 (RET); stores 1 (the REP STOSB, once
;   as an instruction; how many stores a PMU's store event counts for it is model-specific, so the counter
;   comparison leaves this workload's loads and stores out). Returns n clamped.
ew_rep_stos:
    mov eax, MEM_QWORDS * 8             ; 1
    cmp rdi, rax                        ; 2
    cmova rdi, rax                      ; 3
    mov rcx, rdi                        ; 4
    mov rdx, rdi                        ; 5
    lea rdi, [rel ew_rep_buf]           ; 6
    rep stosb                           ; 7  one instruction, n iterations (AL = 0)
    mov rax, rdx                        ; 8
    ret                                 ; 9

; Every kind of near and far transfer the branch events tell apart. Per iteration: a relative CALL and an indirect
; CALL (through a register) to a leaf of two instructions (INC, RET), an indirect JMP (through a register), a
; relative JMP, a far RET to the same privilege level (SDM Vol.2A RET: "far return to the same privilege level";
; the CS it pops is the one in use, read with MOV r, Sreg), and the loop's JNZ.
;   n >= 1: instructions 6 + (11 + 2 * 2)n + 1 = 15n + 7; branches 1 + 8n + 1 = 8n + 2 (CALL, RET, CALL, RET,
;           JMP, JMP, RETF, JNZ); conditional n + 1; taken near: 2n calls + (2n + 1) returns + 2n jumps +
;           (n - 1) JNZ = 7n; far n; calls 2n (indirect n); relative jumps n; indirect jumps n;
;           loads 3n + 1 (the leaves' RETs, the far RET, the final RET); stores 4n (the CALLs, the PUSHes).
;   n = 0:  instructions 7 (JZ taken to RET); branches 2; conditional 1; taken 2; loads 1; stores 0.
;   Returns 2n (the leaf's INC, twice per iteration).
ew_calls:
    lea r8, [rel .leaf]                 ; 1
    lea r9, [rel .jumped]               ; 2
    mov rcx, rdi                        ; 3
    xor eax, eax                        ; 4
    test rcx, rcx                       ; 5
    jz .done                            ; 6
.top:
    call .leaf                          ; 1  relative near call (+ 2 in the leaf)
    call r8                             ; 2  indirect near call (+ 2 in the leaf)
    jmp r9                              ; 3  indirect near jump
    ud2
.jumped:
    jmp .relative                       ; 4  relative near jump
    ud2
.relative:
    mov edx, cs                         ; 5
    push rdx                            ; 6
    lea rdx, [rel .far_target]          ; 7
    push rdx                            ; 8
    o64 retf                            ; 9  far return: pops RIP, then CS
    ud2
.far_target:
    dec rcx                             ; 10
    jnz .top                            ; 11
.done:
    ret
.leaf:
    inc rax                             ; leaf 1
    ret                                 ; leaf 2

section .bss
alignb 4096
ew_mem_buf:  resq MEM_QWORDS * 3
ew_rep_buf:  resb MEM_QWORDS * 8
alignb 4096
ew_lines:    resb LINES_MAX * (4096 + 64) + 64
