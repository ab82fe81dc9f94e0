/* The suite list the top layer hands the harness (suites_register, harness/framework.h): the runner runs it, the
 * hang guard names a hung check from it. Its own file so that neither of those two calls the other for it. */
#include "harness/framework.h"

static struct {
    const struct suite *const *list;
    u32 count;
} registry;

void suites_register(const struct suite *const *list, u32 count)
{
    registry.list = list;
    registry.count = count;
}

u32 suites_count(void)
{
    return registry.count;
}

const struct suite *suites_at(u32 index)
{
    return index < registry.count ? registry.list[index] : NULL;
}
