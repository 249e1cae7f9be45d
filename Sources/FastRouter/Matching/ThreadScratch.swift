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
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            Unmanaged<MatchScratch>.fromOpaque(pointer).release()
        }
        return key
    }()

    /// This thread's scratch, unretained: it lives as long as the thread.
    @inline(__always)
    static var current: Unmanaged<MatchScratch> {
        withCurrent { Unmanaged.passUnretained($0) }
    }

    /// Runs `body` with this thread's scratch, borrowed rather than retained (no reference
    /// counting on the lookup path).
    @inline(__always)
    static func withCurrent<R>(_ body: (MatchScratch) -> R) -> R {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<MatchScratch>.fromOpaque(pointer)._withUnsafeGuaranteedRef(body)
        }
        let scratch = MatchScratch()
        pthread_setspecific(key, Unmanaged.passRetained(scratch).toOpaque())
        return body(scratch)
    }
}
