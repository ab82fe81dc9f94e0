/* Host-only helper: look symbols up in an ELF64 file (the System V gABI, glibc's <elf.h>). */
#include "tests/host/support/elf_image.h"

#include <elf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct elf_image {
    char path[512];
    unsigned char *bytes;
    size_t len;
};

struct elf_image *elf_image_load(void)
{
    const char *path = getenv("PMUBOOT_IMAGE");
    struct elf_image *img = calloc(1, sizeof(*img));
    if (!img)
        return NULL;
    snprintf(img->path, sizeof(img->path), "%s", path && *path ? path : "build/pmuboot.elf");
    FILE *f = fopen(img->path, "rb");
    if (!f) {
        fprintf(stderr, "elf_image: cannot open %s (build the kernel first: make kernel; or set PMUBOOT_IMAGE)\n",
                img->path);
        free(img);
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    img->bytes = size > 0 ? malloc((size_t)size) : NULL;
    img->len = img->bytes ? fread(img->bytes, 1, (size_t)size, f) : 0;
    fclose(f);
    const unsigned char *id = img->bytes;
    bool ok = img->len >= sizeof(Elf64_Ehdr) && !memcmp(id, ELFMAG, SELFMAG) &&
              (id[EI_CLASS] == ELFCLASS32 || id[EI_CLASS] == ELFCLASS64);
    if (ok && id[EI_CLASS] == ELFCLASS64) {
        const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img->bytes;
        ok = eh->e_shoff + (size_t)eh->e_shnum * sizeof(Elf64_Shdr) <= img->len;
    } else if (ok) {
        const Elf32_Ehdr *eh = (const Elf32_Ehdr *)img->bytes;
        ok = eh->e_shoff + (size_t)eh->e_shnum * sizeof(Elf32_Shdr) <= img->len;
    }
    if (!ok) {
        fprintf(stderr, "elf_image: %s is not a whole ELF file\n", img->path);
        elf_image_free(img);
        return NULL;
    }
    return img;
}

void elf_image_free(struct elf_image *img)
{
    if (img)
        free(img->bytes);
    free(img);
}

const char *elf_image_path(const struct elf_image *img)
{
    return img->path;
}

/* The same walk for both classes (the kernel is an ELF32 multiboot image with 64-bit code inside). */
#define SYMBOL_LOOKUP(Ehdr, Shdr, Sym)                                                                       \
    do {                                                                                                   \
        const Ehdr *eh = (const Ehdr *)img->bytes;                                                          \
        const Shdr *sh = (const Shdr *)(img->bytes + eh->e_shoff);                                          \
        for (unsigned i = 0; i < eh->e_shnum; i++) {                                                        \
            if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum)                                \
                continue;                                                                                   \
            const Shdr *strs = &sh[sh[i].sh_link];                                                          \
            if (sh[i].sh_offset + sh[i].sh_size > img->len || strs->sh_offset + strs->sh_size > img->len)   \
                return NULL;                                                                                \
            const Sym *sym = (const Sym *)(img->bytes + sh[i].sh_offset);                                   \
            size_t n = sh[i].sh_size / sizeof(*sym);                                                        \
            for (size_t k = 0; k < n; k++) {                                                                \
                if (sym[k].st_name >= strs->sh_size ||                                                      \
                    strcmp((const char *)img->bytes + strs->sh_offset + sym[k].st_name, name))              \
                    continue;                                                                               \
                if (sym[k].st_shndx == SHN_UNDEF || sym[k].st_shndx >= eh->e_shnum)                        \
                    return NULL;                                                                            \
                const Shdr *sec = &sh[sym[k].st_shndx];                                                     \
                if (sec->sh_type == SHT_NOBITS || sym[k].st_value < sec->sh_addr)                           \
                    return NULL;                                                                            \
                size_t off = sec->sh_offset + (sym[k].st_value - sec->sh_addr);                             \
                if (off > img->len)                                                                         \
                    return NULL;                                                                            \
                if (size)                                                                                   \
                    *size = sym[k].st_size;                                                                 \
                return img->bytes + off;                                                                    \
            }                                                                                               \
        }                                                                                                   \
        return NULL;                                                                                        \
    } while (0)

const void *elf_image_symbol(const struct elf_image *img, const char *name, size_t *size)
{
    if (img->bytes[EI_CLASS] == ELFCLASS64)
        SYMBOL_LOOKUP(Elf64_Ehdr, Elf64_Shdr, Elf64_Sym);
    SYMBOL_LOOKUP(Elf32_Ehdr, Elf32_Shdr, Elf32_Sym);
}
