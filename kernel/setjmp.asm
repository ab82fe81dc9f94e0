; k_setjmp/k_longjmp: save and restore the SysV callee-saved registers, stack pointer and return address.
bits 64
section .text
global k_setjmp, k_longjmp, cpu_unblock_nmi

k_setjmp:
    mov [rdi + 0], rbx
    mov [rdi + 8], rbp
    mov [rdi + 16], r12
    mov [rdi + 24], r13
    mov [rdi + 32], r14
    mov [rdi + 40], r15
    lea rax, [rsp + 8]              ; rsp as it will be after our return
    mov [rdi + 48], rax
    mov rax, [rsp]                  ; return address
    mov [rdi + 56], rax
    xor eax, eax
    ret

k_longjmp:
    mov eax, esi
    test eax, eax
    jnz .nz
    inc eax                         ; longjmp(buf, 0) returns 1, as in C
.nz:
    mov rbx, [rdi + 0]
    mov rbp, [rdi + 8]
    mov r12, [rdi + 16]
    mov r13, [rdi + 24]
    mov r14, [rdi + 32]
    mov r15, [rdi + 40]
    mov rsp, [rdi + 48]
    jmp [rdi + 56]

; An IRET to ourselves: ends the NMI-blocked state (SDM Vol.3A 6.7.1) after leaving an NMI or a fault
; inside one by longjmp instead of IRET.
cpu_unblock_nmi:
    mov rax, rsp
    push qword 0x10                 ; ss
    push rax                        ; rsp
    pushfq
    push qword 0x08                 ; cs
    lea rax, [rel .back]
    push rax
    iretq
.back:
    ret
