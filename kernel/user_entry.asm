; Ring-3 trampoline: call the function in rsi with its argument in rdi, then trap back to ring 0 with the
; result in rax. The trap is the #UD of the ud2 at user_return_point, which the trap handler recognises by
; its address and CPL (kernel/user.c). Not `int n`: an instruction emulator may not handle INT outside real
; mode (seen under nested KVM, which injected #UD for `int $0x81`), while #UD is delivered by the CPU itself.
bits 64
global user_trampoline, user_return_point
section .text
user_trampoline:
    call rsi
user_return_point:
    ud2
