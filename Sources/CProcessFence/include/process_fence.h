// process_fence.h: the two halves of an asymmetric fence, for the reader slots' protocol
// (docs/ARCHITECTURE.md, "Readers and writers").
//
// A lookup announces itself in its slot and then loads the published tables; a writer publishes
// new tables and then reads every slot. Each side needs its store ordered before its load. A
// full fence on the lookup side (a locked instruction) costs every lookup more than the rest of
// its bookkeeping. Linux's membarrier(2) moves that cost to the writer, which is rare: the lookup
// orders its store with a compiler barrier only, and the writer's process_fence() makes every CPU
// that runs a thread of this process execute a full fence before it returns. What a lookup had
// stored by then is visible to the writer; a lookup whose store came later loads the new tables.
#ifndef FASTROUTER_PROCESS_FENCE_H
#define FASTROUTER_PROCESS_FENCE_H

#include <stdbool.h>

/// Registers this process for fastrouter_process_fence(); true when the kernel offers it
/// (Linux 4.14 and later, unless a sandbox forbids the call). Called once per process, before
/// any lookup announces itself with a compiler barrier only.
bool fastrouter_process_fence_register(void);

/// The writer's half: returns once every thread of this process has executed a full memory
/// fence (or a context switch, which is one). False only when the kernel refuses every way of
/// doing it, which cannot happen once registration succeeded.
bool fastrouter_process_fence(void);

/// The lookup's half: a compiler barrier. No instruction; the compiler neither moves memory
/// accesses across it nor keeps values in registers across it.
static inline void fastrouter_compiler_fence(void) { __asm__ __volatile__("" ::: "memory"); }

#endif
