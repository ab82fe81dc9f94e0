/* Host-only helper (stdio): locate and read test vectors. */
#include "tests/host/support/test_data.h"

#include "lib/cpu_ident.h"
#include "pmu/pmu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <cmocka.h>

static char *read_path(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t n = 0;
    if (fseek(f, 0, SEEK_END) == 0) {
        long size = ftell(f);
        if (size >= 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)size + 1)) != NULL) {
            n = fread(buf, 1, (size_t)size, f);
            buf[n] = '\0';
            if (n != (size_t)size) {
                free(buf);
                buf = NULL;
            }
        }
    }
    fclose(f);
    if (buf && len)
        *len = n;
    return buf;
}

char *test_data_read(const char *name, size_t *len)
{
    char path[4096];
    const char *env = getenv("PMUBOOT_TEST_DATA");
    char *buf;
    if (env) {
        snprintf(path, sizeof(path), "%s/%s", env, name);
        if ((buf = read_path(path, len)))
            return buf;
    }
    snprintf(path, sizeof(path), "tests/host/data/%s", name);
    if ((buf = read_path(path, len)))
        return buf;
    char exe[2048];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash)
            *slash = '\0';
        snprintf(path, sizeof(path), "%s/../../tests/host/data/%s", exe, name);
        if ((buf = read_path(path, len)))
            return buf;
    }
    fprintf(stderr, "test data \"%s\" not found (set PMUBOOT_TEST_DATA to tests/host/data)\n", name);
    return NULL;
}

void test_dump_load(struct cpuid_dump *d, const char *name, unsigned cpu)
{
    size_t len;
    char *text = test_data_read(name, &len);
    if (!text)
        fail_msg("%s: cannot read the dump", name);
    bool ok = cpuid_dump_parse(d, text, len, cpu);
    free(text);
    if (!ok)
        fail_msg("%s:%u: %s", name, d->err_line, d->err);
}

void test_dump_discover(struct cpuid_dump *d, const char *name, unsigned cpu, u64 perf_caps, struct cpuid_source *src,
                        struct pmu_caps *caps)
{
    test_dump_load(d, name, cpu);
    cpuid_dump_source(d, src);
    struct cpu_ident id;
    cpu_ident_decode(&id, src);
    pmu_discover(caps, &id, src);
    if (caps->pdcm)
        pmu_caps_apply_perf_capabilities(caps, perf_caps);
}
