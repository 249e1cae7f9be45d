import Synchronization

/// The routers that exist, by identity, so that a decline can tell whether the router that
/// served its lookup is still there (a C caller may free it first, though never while another
/// call on it runs: include/fastrouter.h).
///
/// Only declines and a router's creation and end take the lock, never a lookup.
enum LiveRouters {
    private static let live = Mutex<Set<UInt64>>([])
    private static let counter = Atomic<UInt64>(0)

    /// A new, never reused identity, registered as live.
    static func register() -> UInt64 {
        let identity = counter.add(1, ordering: .relaxed).newValue
        live.withLock { _ = $0.insert(identity) }
        return identity
    }

    /// Marks a router gone.
    static func unregister(_ identity: UInt64) {
        live.withLock { _ = $0.remove(identity) }
    }

    /// Whether the router `identity` still exists.
    static func contains(_ identity: UInt64) -> Bool {
        live.withLock { $0.contains(identity) }
    }
}
