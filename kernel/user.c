#include "kernel/user.h"

#include "kernel/percpu.h"
#include "kernel/setjmp.h"
#include "kernel/traps.h"
#include "kernel/x86.h"
#include "kernel/percpu_array.h"

PER_CPU_ARRAY(k_jmp_buf, user_return);
PER_CPU_ARRAY(u64, user_result);
extern const u8 user_trampoline[], user_return_point[];

bool user_return_trap(struct trap_frame *f)
{
    if (f->vector != 6 || f->rip != (u64)user_return_point || (f->cs & 3) != 3)
        return false;
    u32 me = this_cpu()->index;
    user_result[me] = f->rax;
    this_cpu()->trap_depth--;
    k_longjmp(user_return[me], 1);
}

u64 run_at_cpl3_rflags(u64 (*fn)(u64 arg), u64 arg, u64 rflags)
{
    u32 me = this_cpu()->index;
    if (k_setjmp(user_return[me]) == 0) {
        u64 stack_top = (u64)this_cpu()->user_stack_top - 8; /* as after a call: ABI alignment */
        /* IRET frame to CPL 3 (SDM Vol.3A 6.14.3): SS, RSP, RFLAGS as given, CS, RIP. */
        asm volatile("pushq %[ss]\n pushq %[rsp]\n pushq %[fl]\n pushq %[cs]\n pushq %[rip]\n iretq"
                     :
                     : [ss] "i"(SEL_UDATA), [rsp] "r"(stack_top), [cs] "i"(SEL_UCODE), [fl] "r"(rflags),
                       [rip] "r"((u64)user_trampoline), "D"(arg), "S"(fn)
                     : "memory");
        __builtin_unreachable();
    }
    return user_result[me];
}

u64 run_at_cpl3(u64 (*fn)(u64 arg), u64 arg)
{
    return run_at_cpl3_rflags(fn, arg, 0x2);
}

u64 run_at_cpl3_irq(u64 (*fn)(u64 arg), u64 arg)
{
    u64 flags = read_flags();
    u64 r = run_at_cpl3_rflags(fn, arg, 0x202); /* IF=1 */
    if (flags & RFLAGS_IF) /* the return trap came through an interrupt gate, which cleared IF */
        sti();
    return r;
}
