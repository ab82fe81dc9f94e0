; Entry stubs for all 256 IDT vectors. Each pushes a zero error code where the CPU does not push one
; (SDM Vol.3A 6.15: #DF, #TS, #NP, #SS, #GP, #PF, #AC, #CP, #VC, #SX push one), then the vector number,
; saves the general registers in struct trap_frame order and calls trap_dispatch(frame).
bits 64
extern trap_dispatch
global isr_stub_table

section .text
%macro STUB 1
isr_stub_%1:
%if %1 = 8 || (%1 >= 10 && %1 <= 14) || %1 = 17 || %1 = 21 || %1 = 29 || %1 = 30
%else
    push qword 0
%endif
    push qword %1
    jmp isr_common
%endmacro

%assign v 0
%rep 256
STUB v
%assign v v + 1
%endrep

isr_common:
    push rax
    push rbx
    push rcx
    push rdx
    push rsi
    push rdi
    push rbp
    push r8
    push r9
    push r10
    push r11
    push r12
    push r13
    push r14
    push r15
    cld
    mov rdi, rsp                    ; 22 qwords pushed in all: rsp stays 16-byte aligned here
    call trap_dispatch
    pop r15
    pop r14
    pop r13
    pop r12
    pop r11
    pop r10
    pop r9
    pop r8
    pop rbp
    pop rdi
    pop rsi
    pop rdx
    pop rcx
    pop rbx
    pop rax
    add rsp, 16                     ; vector and error code
    iretq

section .rodata
align 8
isr_stub_table:
%assign v 0
%rep 256
    dq isr_stub_%+v
%assign v v + 1
%endrep
