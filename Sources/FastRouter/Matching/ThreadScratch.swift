#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One ``MatchScratch`` per thread for the convenience API (``Router/match(_:)``), created on
/// first use and released when the thread exits.
enum ThreadScratch {
    /// The key of every thread's scratch. A lazy global: each read of it costs a `swift_once`
    /// call, so a router reads it once, when it is made (``RouterCore/scratchKey``), and its
    /// lookups pass it to ``current(_:)``.
    static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            Unmanaged<MatchScratch>.fromOpaque(pointer).release()
        }
        return key
    }()

    /// This thread's scratch, unretained: it lives as long as the thread. `key` is ``key``.
    @inline(__always)
    static func current(_ key: pthread_key_t) -> Unmanaged<MatchScratch> {
        if let pointer = pthread_getspecific(key) { return Unmanaged<MatchScratch>.fromOpaque(pointer) }
        return Unmanaged.passUnretained(make(key))
    }

    /// A new scratch for this thread, kept until the thread exits.
    @inline(never)
    private static func make(_ key: pthread_key_t) -> MatchScratch {
        let scratch = MatchScratch()
        pthread_setspecific(key, Unmanaged.passRetained(scratch).toOpaque())
        return scratch
    }

    /// Runs `body` with this thread's scratch, borrowed rather than retained (no reference
    /// counting on the lookup path). `key` is ``key``.
    @inline(__always)
    static func withCurrent<R>(_ key: pthread_key_t, _ body: (MatchScratch) -> R) -> R {
        current(key)._withUnsafeGuaranteedRef(body)
    }
}
