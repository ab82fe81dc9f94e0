/* Host tests: what a parser said was wrong (struct acpi_problems, lib/acpi.h). */
#pragma once
#include "lib/acpi.h"

/* Whether one of the problems kept contains needle. */
bool acpi_test_has_problem(const struct acpi_problems *pr, const char *needle);
