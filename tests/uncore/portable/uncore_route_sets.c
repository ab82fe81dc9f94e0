/* The sets of cores the PMI routing check routes to (tests/uncore/portable/uncore_route_sets.h). */
#include "tests/uncore/portable/uncore_route_sets.h"

#include "lib/format.h"

static bool add(struct uncore_route_set *sets, u32 *n, u32 max, enum uncore_route_set_kind kind, u32 mask, u32 core)
{
    if (*n >= max || !mask)
        return false;
    sets[(*n)++] = (struct uncore_route_set){.kind = kind, .mask = mask, .core = core};
    return true;
}

u32 uncore_route_sets(u32 cores, u32 width, u32 arming_core, struct uncore_route_set *sets, u32 max)
{
    u32 reach = cores < width ? cores : width;
    if (reach > 32)
        reach = 32;
    u32 every = reach == 32 ? ~0u : (1u << reach) - 1;
    bool arming_reached = arming_core < reach;
    u32 tail = (reach > 1 ? 1 : 0) + (reach >= 3 && arming_reached ? 1 : 0); /* room kept for the wider sets */
    u32 singles = max > tail ? max - tail : 0;
    u32 n = 0;
    /* Each core alone: the arming core first, then the others in order, as long as the room lasts. */
    if (arming_reached && n < singles)
        add(sets, &n, max, UNCORE_SET_ONE_CORE, 1u << arming_core, arming_core);
    for (u32 c = 0; c < reach && n < singles; c++)
        if (c != arming_core)
            add(sets, &n, max, UNCORE_SET_ONE_CORE, 1u << c, c);
    if (reach > 1)
        add(sets, &n, max, UNCORE_SET_EVERY_CORE, every, 0);
    if (reach >= 3 && arming_reached)
        add(sets, &n, max, UNCORE_SET_ALL_BUT_ARMING, every & ~(1u << arming_core), 0);
    return n;
}

void uncore_route_set_describe(const struct uncore_route_set *s, u32 arming_core, struct strbuf *sb)
{
    sb_printf(sb, "0x%x: ", s->mask);
    switch (s->kind) {
    case UNCORE_SET_ONE_CORE:
        if (s->core == arming_core)
            sb_printf(sb, "core %u alone (the arming core)", s->core);
        else
            sb_printf(sb, "core %u alone (not the arming core, core %u)", s->core, arming_core);
        break;
    case UNCORE_SET_EVERY_CORE:
        sb_printf(sb, "every core the routing field reaches");
        break;
    case UNCORE_SET_ALL_BUT_ARMING:
        sb_printf(sb, "every core but the arming core, core %u", arming_core);
        break;
    }
}
