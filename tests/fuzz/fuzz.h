/* SPDX-License-Identifier: BSD-2-Clause */
/* Shared by the libFuzzer harnesses in this folder (built by `make fuzz`,
 * run by tests/fuzz/run.sh).  A harness aborts when an invariant of the
 * code under test fails, so the fuzzer reports it like a crash. */
#ifndef XP_FUZZ_H
#define XP_FUZZ_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a NUL-terminated string in a buffer of exactly size + 1
 * bytes (so ASan sees any read past the end); free() it. */
static inline char *fuzz_cstr(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* An error message must be a terminated string within its buffer. */
#define FUZZ_ERR_OK(e) \
	do { \
		if (!memchr((e).msg, '\0', sizeof((e).msg))) \
			abort(); \
	} while (0)

#endif
