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

    /// This thread's scratch.
    static var current: MatchScratch {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<MatchScratch>.fromOpaque(pointer).takeUnretainedValue()
        }
        let scratch = MatchScratch()
        pthread_setspecific(key, Unmanaged.passRetained(scratch).toOpaque())
        return scratch
    }
}
