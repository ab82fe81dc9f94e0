/* <string.h> for the freestanding kernel (it builds with -nostdinc and -Ilib/libc/include): the string functions
 * portable code calls, defined in lib/libc/string.c (layer 0). Host builds use the C library's header and functions. */
#pragma once
#include <stddef.h>

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
void *memchr(const void *s, int c, size_t n);
char *strstr(const char *hay, const char *needle);
