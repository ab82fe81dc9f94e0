/* Host tests: read a file from tests/host/data. */
#pragma once
#include <stddef.h>

#include "pmu/cpuid_dump.h"

/* The whole file as a NUL-terminated buffer (free() it), or NULL with a message on stderr. The directory is
 * $PMUBOOT_TEST_DATA, else tests/host/data under the current directory, else ../../tests/host/data relative
 * to the test binary (build/host/test_x). */
char *test_data_read(const char *name, size_t *len);

/* Parse CPU `cpu` of the CPUID dump file `name` into *d; a missing file or a parse error fails the running
 * cmocka test, naming the file, line and reason. */
void test_dump_load(struct cpuid_dump *d, const char *name, unsigned cpu);

/* CPU `cpu` of a dump, discovered (pmu_discover) with IA32_PERF_CAPABILITIES `perf_caps` applied where PDCM says
 * it exists (a CPUID dump does not hold it); *src reads the dump *d, which must outlive it. */
struct pmu_caps;
void test_dump_discover(struct cpuid_dump *d, const char *name, unsigned cpu, u64 perf_caps, struct cpuid_source *src,
                        struct pmu_caps *caps);
