#ifndef CALLOCCOUNTER_H
#define CALLOCCOUNTER_H

/* Counts heap allocations made by the calling thread while counting is on.
 *
 * The target defines malloc, calloc, realloc, free, posix_memalign, aligned_alloc, memalign,
 * valloc and pvalloc in the executable itself, so every library in the process (the Swift
 * runtime, libfastrouter, routing-kit, libr3) allocates through them. Each one forwards to
 * glibc's own entry points (__libc_malloc, ...), so the allocator and its behaviour are
 * unchanged; the only addition is a thread-local counter, switched on around a measured loop.
 * Counting is per thread, so other threads (a writer, the runtime) never pollute a figure. */

#include <stdint.h>

/* Starts counting allocations on the calling thread from zero. */
void alloc_counter_begin(void);

/* Stops counting on the calling thread and returns the allocations counted since
 * alloc_counter_begin: malloc, calloc, posix_memalign, aligned_alloc, memalign, valloc, pvalloc,
 * and realloc calls that had to allocate (any realloc, since a moved or grown block is a new
 * allocation as far as the lookup path is concerned). free is not counted. */
uint64_t alloc_counter_end(void);

/* 1 when the dynamic linker resolves malloc to this target's definition (so every shared
 * object allocates through it) and one malloc through that symbol is counted exactly once;
 * 0 otherwise. Checked before any allocation figure is trusted. */
int alloc_counter_self_test(void);

/* Bytes the allocator holds for live blocks (mallinfo2: arena in use plus mmapped blocks). */
uint64_t alloc_counter_heap_in_use(void);

/* Returns every free page the allocator can give back, so heap deltas are comparable. */
void alloc_counter_trim(void);

#endif
