// The variable of thread_scratch.h.
#include "thread_scratch.h"

__thread void *fastrouter_thread_scratch __attribute__((tls_model("initial-exec"))) = 0;
