/* Host tests: the bytes behind a symbol of the built kernel image (build/pmuboot.elf, or $PMUBOOT_IMAGE), so a
 * test can hold the real tables (GDTs, ...) the asm and C define, not a copy of them. */
#pragma once
#include <stddef.h>

/* The image, read whole (free with elf_image_free), or NULL with a message on stderr naming the path. */
struct elf_image;
struct elf_image *elf_image_load(void);
void elf_image_free(struct elf_image *img);
const char *elf_image_path(const struct elf_image *img);
/* The file bytes of symbol name (global or local, the first of that name) and its size (st_size, 0 for asm
 * labels without one): NULL when there is no such symbol or it lies in no section with file contents. */
const void *elf_image_symbol(const struct elf_image *img, const char *name, size_t *size);
