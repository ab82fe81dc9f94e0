#include "kernel/smp.h"

#include "kernel/percpu.h"

u32 smp_online_count(void)
{
    u32 n = 0;
    for (u32 i = 0; i < MAX_CPUS; i++)
        n += cpus[i].online;
    return n;
}

void smp_run_on_each(void (*fn)(void *arg), void *arg)
{
    fn(arg); /* only the boot CPU so far */
}
