/* The sets of cores suite "uncore"'s PMI routing check routes one uncore PMI to, in turn, on one package: each core
 * alone (so the arming thread's core and a core that did not arm are both tried), every core the routing field
 * reaches, and, with three cores or more, every core but the arming one (the PMI must reach cores whose thread wrote
 * nothing). Portable, so the host test holds the choice and the kernel check runs it. docs/uncore.md. */
#pragma once
#include "lib/types.h"

struct strbuf;

#define UNCORE_ROUTE_SETS_MAX 8

enum uncore_route_set_kind { UNCORE_SET_ONE_CORE, UNCORE_SET_EVERY_CORE, UNCORE_SET_ALL_BUT_ARMING };

struct uncore_route_set {
    enum uncore_route_set_kind kind;
    u32 mask; /* bit n: core n of the package (the routing field's bit n) */
    u32 core; /* UNCORE_SET_ONE_CORE: which */
};

/* The sets for a package of `cores` cores whose routing field has `width` bits, armed by a thread of core
 * `arming_core` (its rank in the package), at most `max` of them; returns how many. The cores beyond the field are not
 * reachable and are in no set. Each core alone comes first (the arming core first when the room runs short), then
 * every core, then every core but the arming one. */
u32 uncore_route_sets(u32 cores, u32 width, u32 arming_core, struct uncore_route_set *sets, u32 max);

/* "0x2: core 1 alone (not the arming core, core 0)" and the like. */
void uncore_route_set_describe(const struct uncore_route_set *s, u32 arming_core, struct strbuf *sb);
