// thread_scratch.h: one pointer per thread, read and written inline by Swift code.
//
// The Swift API keeps a match scratch per thread (ThreadScratch.swift). Reading it through
// pthread_getspecific costs a call and about 17 instructions per lookup; this thread-local
// variable costs two. Its initial-exec model reads it at a fixed offset from the thread pointer,
// which holds whether the library is linked into a program or loaded at run time (the loader
// keeps room for a few such variables). The pthread key stays, for its destructor: it releases a
// thread's scratch when the thread exits.
#ifndef FASTROUTER_THREAD_SCRATCH_H
#define FASTROUTER_THREAD_SCRATCH_H

// The model is an ELF notion; other formats take the platform's default.
#if defined(__ELF__)
#define FASTROUTER_TLS_MODEL __attribute__((tls_model("initial-exec")))
#else
#define FASTROUTER_TLS_MODEL
#endif

extern __thread void *_Nullable fastrouter_thread_scratch FASTROUTER_TLS_MODEL;

/// This thread's scratch (an unretained object), or NULL before the thread's first lookup.
static inline void *_Nullable fastrouter_thread_scratch_get(void) { return fastrouter_thread_scratch; }

/// Makes `scratch` this thread's scratch.
static inline void fastrouter_thread_scratch_set(void *_Nullable scratch) { fastrouter_thread_scratch = scratch; }

#endif
