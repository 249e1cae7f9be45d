/* Allocation counting by interposition: see include/CAllocCounter.h.
 *
 * glibc documents replacing malloc by defining these functions in the program
 * ("Replacing malloc" in the glibc manual); forwarding to the __libc_* aliases keeps
 * glibc's allocator underneath. Nothing here may allocate or call into Swift. */

#define _GNU_SOURCE
#include "CAllocCounter.h"

#include <dlfcn.h>
#include <errno.h>
#include <malloc.h>
#include <stddef.h>
#include <stdint.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *ptr, size_t size);
extern void __libc_free(void *ptr);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);
extern void *__libc_pvalloc(size_t size);

/* Initial-exec TLS in the executable: reading it never allocates (a dynamic TLS block
 * would, and would recurse into malloc). */
static __thread int counting __attribute__((tls_model("initial-exec")));
static __thread uint64_t counted __attribute__((tls_model("initial-exec")));

static inline void note_allocation(void) {
    if (counting) counted += 1;
}

void *malloc(size_t size) {
    note_allocation();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    note_allocation();
    return __libc_calloc(count, size);
}

void *realloc(void *ptr, size_t size) {
    note_allocation();
    return __libc_realloc(ptr, size);
}

void free(void *ptr) {
    __libc_free(ptr);
}

void *memalign(size_t alignment, size_t size) {
    note_allocation();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    note_allocation();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    /* POSIX: a power of two that is a multiple of sizeof(void *). */
    if (alignment == 0 || (alignment & (alignment - 1)) != 0 || alignment % sizeof(void *) != 0) {
        return EINVAL;
    }
    note_allocation();
    void *block = __libc_memalign(alignment, size);
    if (block == NULL) return ENOMEM;
    *out = block;
    return 0;
}

void *valloc(size_t size) {
    note_allocation();
    return __libc_valloc(size);
}

void *pvalloc(size_t size) {
    note_allocation();
    return __libc_pvalloc(size);
}

void alloc_counter_begin(void) {
    counted = 0;
    counting = 1;
}

uint64_t alloc_counter_end(void) {
    counting = 0;
    return counted;
}

int alloc_counter_self_test(void) {
    /* What the dynamic linker hands to every shared object is what dlsym finds first: if that
     * is not this file's malloc, the libraries allocate without being counted. */
    void *(*resolved)(size_t) = (void *(*)(size_t))dlsym(RTLD_DEFAULT, "malloc");
    if (resolved != malloc) return 0;
    alloc_counter_begin();
    void *block = resolved(24);
    uint64_t seen = alloc_counter_end();
    free(block);
    return seen == 1 ? 1 : 0;
}

uint64_t alloc_counter_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return (uint64_t)info.uordblks + (uint64_t)info.hblkhd;
}

void alloc_counter_trim(void) {
    malloc_trim(0);
}
