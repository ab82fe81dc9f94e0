/* The catch hook (see catch_hook.h). Its own file: the trap handler, panic() and the boot CPU's watcher call it,
 * and it calls none of them. */
#include "kernel/catch_hook.h"

static struct trap_catch_hooks hooks;

void trap_set_catch_hooks(const struct trap_catch_hooks *h)
{
    hooks = *h;
}

void catch_exception(void *ctx, const struct fault_record *f)
{
    if (hooks.exception)
        hooks.exception(ctx, f);
}

enum catch_nmi catch_nmi(void)
{
    return hooks.nmi ? hooks.nmi() : CATCH_NMI_NOT_A_STOP;
}

void catch_time_limit(void *ctx, const struct fault_record *f)
{
    if (hooks.time_limit)
        hooks.time_limit(ctx, f);
}

void catch_stop(u32 cpu, u32 seq, u32 from)
{
    if (hooks.stop)
        hooks.stop(cpu, seq, from);
}

void catch_bail_out(const char *why)
{
    if (hooks.bail_out)
        hooks.bail_out(why);
}
