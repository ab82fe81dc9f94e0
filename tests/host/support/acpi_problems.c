/* See acpi_problems.h. */
#include "tests/host/support/acpi_problems.h"

#include <string.h>

bool acpi_test_has_problem(const struct acpi_problems *pr, const char *needle)
{
    for (u32 i = 0; i < pr->count && i < ACPI_PROBLEMS_MAX; i++)
        if (strstr(pr->msg[i], needle))
            return true;
    return false;
}
