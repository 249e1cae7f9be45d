// The variable of thread_scratch.h.
#include "thread_scratch.h"

__thread void *fastrouter_thread_scratch FASTROUTER_TLS_MODEL = 0;
