import CProcessFence

/// The writers' half of the reader slots' asymmetric fence (process_fence.h): membarrier(2) on
/// Linux. Registered once per process, when the first slot is made.
enum ProcessFence {
    /// Whether writers fence every thread of the process before they read the slots, so that
    /// lookups need not fence for themselves (``ReaderSlot/plainEnter``).
    static let isAvailable: Bool = fastrouter_process_fence_register()

    /// Makes every thread of the process execute a full fence, when lookups rely on it.
    static func fence() {
        guard isAvailable else { return }
        // Registered, the kernel does not refuse; if it ever did, freeing nodes a lookup may
        // still read would be worse than stopping.
        guard fastrouter_process_fence() else { fatalError("FastRouter: membarrier(2) failed after registration") }
    }
}
