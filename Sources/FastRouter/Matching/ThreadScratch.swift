import CThreadScratch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One ``MatchScratch`` per thread for the convenience API (``Router/match(_:)``), created on
/// first use and released when the thread exits. A lookup reads it from a thread-local variable
/// (thread_scratch.h: two instructions); a pthread key holds it too, for its destructor.
@usableFromInline
enum ThreadScratch {
    /// The key of every thread's scratch, whose destructor releases it. A lazy global: each read
    /// of it costs a `swift_once` call, so a router reads it once, when it is made
    /// (``RouterCore/scratchKey``), and passes it to ``current(_:)``.
    static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            // Runs on the exiting thread: a lookup after it (from another destructor) makes a
            // new scratch rather than reading this one.
            fastrouter_thread_scratch_set(nil)
            Unmanaged<MatchScratch>.fromOpaque(pointer).release()
        }
        return key
    }()

    /// This thread's scratch, unretained: it lives as long as the thread. `key` is ``key``.
    @inlinable @inline(__always)
    static func current(_ key: pthread_key_t) -> Unmanaged<MatchScratch> {
        if let pointer = fastrouter_thread_scratch_get() { return Unmanaged<MatchScratch>.fromOpaque(pointer) }
        return Unmanaged.passUnretained(make(key))
    }

    /// A new scratch for this thread, kept until the thread exits.
    @usableFromInline @inline(never)
    static func make(_ key: pthread_key_t) -> MatchScratch {
        let scratch = MatchScratch()
        let pointer = Unmanaged.passRetained(scratch).toOpaque()
        pthread_setspecific(key, pointer)
        fastrouter_thread_scratch_set(pointer)
        return scratch
    }

    /// Runs `body` with this thread's scratch, borrowed rather than retained (no reference
    /// counting on the lookup path). `key` is ``key``.
    @inline(__always)
    static func withCurrent<R>(_ key: pthread_key_t, _ body: (MatchScratch) -> R) -> R {
        current(key)._withUnsafeGuaranteedRef(body)
    }
}
