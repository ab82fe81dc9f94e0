/* The boot state (see boot_state.h). */
#include "kernel/boot_state.h"

static struct boot_state state;

const struct boot_state *boot_state(void)
{
    return &state;
}

struct boot_state *boot_state_fill(void)
{
    return &state;
}
