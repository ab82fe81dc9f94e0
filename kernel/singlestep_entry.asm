; CPL-0 entry for the single-step oracle (kernel/singlestep.c). step_cpl0_call(fn, arg) sets EFLAGS.TF with
; POPF and calls fn(arg). No #DB follows the POPF that sets TF (SDM Vol.3B 18.3.1.4), so the first trap comes
; after the CALL, with RIP at fn; fn's final RET traps with RIP at step_cpl0_return, where the #DB handler
; clears TF in the frame, so the RET below runs unstepped.
bits 64
global step_cpl0_call, step_cpl0_return
section .text
step_cpl0_call:
    mov rax, rdi
    mov rdi, rsi
    pushfq
    or qword [rsp], 0x100           ; TF
    popfq
    sub rsp, 8                      ; fn is entered with rsp = 8 mod 16, as after any call (SysV ABI 3.2.2)
    call rax
step_cpl0_return:
    add rsp, 8
    ret
