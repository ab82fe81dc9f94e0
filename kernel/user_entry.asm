; Ring-3 trampoline: call the function in rsi with its argument in rdi, then trap back to ring 0 with the
; result in rax. The trap is the #UD of the ud2 at user_return_point, which the trap handler recognises by
; its address and CPL (kernel/user.c). Not `int n`: an instruction emulator may not handle INT outside real
; mode (KVM's arch/x86/kvm/emulate.c; seen under KVM's PVM, which runs CPL 3 in hardware ring 3 and emulates
; the INT that the host's IDT refuses: #UD for `int $0x81`), while #UD is delivered by the CPU itself.
bits 64
global user_trampoline, user_return_point
section .text
user_trampoline:
    call rsi
user_return_point:
    ud2
