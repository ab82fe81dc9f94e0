; Suite uncore's bounded-event workload (tests/uncore/uncore_event_check.c): n distinct cache lines of a buffer in the
; kernel's memory, each CLFLUSHed, fenced, then loaded once, so that every load goes past the core's caches (SDM
; Vol.2A CLFLUSH: the line is invalidated "from every level of the cache hierarchy"; MFENCE orders the flush before
; the load, as CLFLUSH is ordered only by fences and by writes to the same line). The lines are LINE_STRIDE bytes
; apart: each in its own 128-byte pair, so the adjacent-line prefetch of one never brings in another of them.
; Kept to instructions the single-step oracle's classifier knows (lib/insn_class.c: CLFLUSH, MFENCE, a MOV load),
; so that the emulated uncore sees each CLFLUSH and its load (emul/kernel/uncore_emul.c).
; The constants are repeated in tests/uncore/uncore_lines.h (nasm cannot read C headers).
bits 64
default rel

LINES_MAX   equ 4096
LINE_STRIDE equ 256

global uncore_lines_touch, uncore_lines_buf

section .text
; u64 uncore_lines_touch(u64 n): n = min(n, LINES_MAX) lines; returns the sum of the loaded qwords.
uncore_lines_touch:
    mov eax, LINES_MAX
    cmp rdi, rax
    cmova rdi, rax
    lea rdx, [rel uncore_lines_buf]
    mov rcx, rdi
    xor eax, eax
    test rcx, rcx
    jz .done
.line:
    clflush [rdx]                       ; out of every cache level
    mfence                              ; the flush completes before the load
    mov rsi, [rdx]                      ; the one load of this line: past the core's caches
    add rax, rsi
    add rdx, LINE_STRIDE
    dec rcx
    jnz .line
.done:
    ret

section .bss
alignb 4096
uncore_lines_buf: resb LINES_MAX * LINE_STRIDE
