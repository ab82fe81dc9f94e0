; Ring-3 trampoline: call the function in rsi with its argument in rdi, then trap back to ring 0 with the
; result in rax through the DPL-3 gate VECTOR_USER_RETURN (kernel/user.h).
bits 64
global user_trampoline
section .text
user_trampoline:
    call rsi
    int 0x81
.unreachable:
    ud2
    jmp .unreachable
