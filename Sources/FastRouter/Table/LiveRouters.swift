import Synchronization

/// The routers that exist, by identity, so that a decline can tell whether the router that
/// served its lookup is still there (a C caller may free it first) and keep it while it walks.
///
/// Only declines and a router's creation and end take these locks, never a lookup. The
/// identities are striped over several locks so that declines on different routers rarely meet.
enum LiveRouters {
    private final class Stripe: Sendable {
        let live = Mutex<Set<UInt64>>([])
    }

    private static let stripes = (0..<16).map { _ in Stripe() }
    private static let counter = Atomic<UInt64>(0)

    /// A new, never reused identity, registered as live.
    static func register() -> UInt64 {
        let identity = counter.add(1, ordering: .relaxed).newValue
        _ = stripes[Int(identity % 16)].live.withLock { $0.insert(identity) }
        return identity
    }

    /// Marks a router gone; waits for any decline running on it to finish.
    static func unregister(_ identity: UInt64) {
        _ = stripes[Int(identity % 16)].live.withLock { $0.remove(identity) }
    }

    /// Runs `body` while the router `identity` is live and cannot end; `nil` when it has ended.
    static func whileLive<R>(_ identity: UInt64, _ body: () -> R) -> R? {
        stripes[Int(identity % 16)].live.withLock { live in live.contains(identity) ? body() : nil }
    }
}
