#if canImport(Glibc)
import Glibc
#endif

/// A joinable OS thread: measurements need every reader stopped and counted before the
/// figure is computed, which pthread_join gives directly.
struct NativeThread {
    private var handle = pthread_t()

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Starts `body` on a new thread.
    init(_ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        let status = pthread_create(&handle, nil, { context in
            let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
            body.run()
            return nil
        }, context)
        precondition(status == 0, "pthread_create failed with \(status)")
    }

    /// Waits for the thread to finish.
    func join() {
        pthread_join(handle, nil)
    }
}
