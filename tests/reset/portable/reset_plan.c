#include "tests/reset/portable/reset_plan.h"

#include <string.h>

u32 reset_plan_max_boots(u8 requested)
{
    u32 n = 1;
    for (u32 i = 0; i < RESET_TYPES; i++)
        n += (requested >> i) & 1;
    return n;
}

enum reset_boot reset_plan_boot(struct reset_record *r, bool valid, u8 requested)
{
    if (!valid || r->requested != requested || r->state == RESET_STATE_NONE) {
        memset(r, 0, sizeof(*r));
        r->requested = requested;
        r->boots = 1;
        r->state = RESET_STATE_RUNNING;
        return RESET_BOOT_FIRST;
    }
    enum reset_state found = r->state;
    if (r->boots < 255)
        r->boots++;
    r->state = RESET_STATE_RUNNING;
    if (found == RESET_STATE_RUNNING)
        return RESET_BOOT_CRASHED;
    if (r->boots > reset_plan_max_boots(requested))
        return RESET_BOOT_RUNAWAY;
    r->result[r->current] |= RESET_R_CAME_BACK;
    return RESET_BOOT_PHASE2;
}

int reset_plan_next(const struct reset_record *r)
{
    for (int i = 0; i < RESET_TYPES; i++)
        if (((r->requested >> i) & 1) && !(r->result[i] & RESET_R_ISSUED))
            return i;
    return -1;
}

void reset_plan_issue(struct reset_record *r, int type)
{
    r->current = (u8)type;
    r->result[type] |= RESET_R_ISSUED;
    r->state = RESET_STATE_ISSUED;
}

const char *reset_type_name(int type)
{
    static const char *const names[RESET_TYPES] = {"cf9", "kbc", "triple"};
    return type >= 0 && type < RESET_TYPES ? names[type] : "?";
}
