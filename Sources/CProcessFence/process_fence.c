// The writer's half of process_fence.h: membarrier(2).
#include "process_fence.h"

#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>

// The commands of <linux/membarrier.h>, spelled out so that the build needs no kernel headers.
enum {
    membarrier_query = 0,
    membarrier_global = 1,                       // MEMBARRIER_CMD_GLOBAL: slow, needs no registration
    membarrier_private_expedited = 1 << 3,       // MEMBARRIER_CMD_PRIVATE_EXPEDITED
    membarrier_register_private_expedited = 1 << 4,
};

static long membarrier(int command) {
#if defined(SYS_membarrier)
    return syscall(SYS_membarrier, command, 0);
#else
    (void)command;
    return -1;
#endif
}

bool fastrouter_process_fence_register(void) {
    long commands = membarrier(membarrier_query);
    if (commands < 0 || (commands & membarrier_private_expedited) == 0) return false;
    return membarrier(membarrier_register_private_expedited) == 0;
}

bool fastrouter_process_fence(void) {
    if (membarrier(membarrier_private_expedited) == 0) return true;
    // A process forked from a registered one may have to register again.
    if (membarrier(membarrier_register_private_expedited) == 0 && membarrier(membarrier_private_expedited) == 0) return true;
    return membarrier(membarrier_global) == 0;
}
#else
// Elsewhere lookups fence for themselves (registration fails), and writers need no fence.
bool fastrouter_process_fence_register(void) { return false; }
bool fastrouter_process_fence(void) { return true; }
#endif
