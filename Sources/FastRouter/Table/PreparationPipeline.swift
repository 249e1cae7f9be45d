#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A large batch's routes prepared on a thread of its own while the writer adds the routes
/// before them to its editor (docs/ARCHITECTURE.md, "One registration"). Preparing a route
/// (parsing, expanding, interning its shape: ``BatchPreparation/prepare(_:_:_:_:)``) is about
/// half of what a batch costs, and it reads nothing the writer changes meanwhile (its
/// ``BatchPreparation/Context`` is a snapshot), so on a machine with a second core a batch
/// takes about the time of its other half.
///
/// The routes pass through a ring of ``capacity`` slots, in order: the preparer writes slot
/// `i % capacity` and then publishes `prepared = i + 1`; the writer waits for it, takes the
/// slot and publishes `taken = i + 1`, which the preparer waits for before it writes that slot
/// again. A failed route is handed over like any other and ends the preparer's work; the writer
/// stops it early (``stop``) when it fails itself.
final class PreparationPipeline: @unchecked Sendable {
    // Safety (`@unchecked Sendable`): a slot is written by the preparer only while the writer
    // cannot read it (before `prepared` passes it, after `taken` did), and read by the writer
    // only after loading `prepared` past it (acquire, pairing with the preparer's release);
    // `batch` is the preparer's from `start` until `join` returns, the writer's otherwise.

    typealias Prepared = Result<[(RouteVariant, Terminal)], RouterError>

    /// Routes prepared ahead of the writer at most: enough to keep both threads busy, few
    /// enough that the prepared routes waiting hold little memory.
    static let capacity = 1024
    /// The smallest batch worth a thread: below it, starting one costs more than it saves.
    static let minimumRoutes = 4096

    /// Pipelines started in the process, for tests.
    static var startedCount: Int { started.load(ordering: .relaxed) }
    private static let started = Atomic<Int>(0)

    private let slots: UnsafeMutablePointer<Prepared>
    private let prepared = Atomic<Int>(0)
    private let taken = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)
    private var batch: BatchPreparation
    #if os(Linux)
    private var thread = pthread_t()
    #else
    private var thread: pthread_t?
    #endif

    /// Whether a batch of `count` routes is prepared on a thread of its own: a large one, on a
    /// machine with more than one core online.
    static func applies(to count: Int) -> Bool {
        count >= minimumRoutes && sysconf(Int32(_SC_NPROCESSORS_ONLN)) > 1
    }

    /// Starts preparing `registrations[0..<count]` with `methods` (each route's set and its
    /// index) into `batch`; `nil` when the system gives no thread (the caller prepares them
    /// itself).
    static func start(_ registrations: [RouterCore.Registration], count: Int, methods: [(MethodSet, UInt16)],
                      batch: BatchPreparation, context: BatchPreparation.Context) -> PreparationPipeline? {
        let pipeline = PreparationPipeline(batch: batch)
        let work = Work(pipeline: pipeline, registrations: registrations, count: count, methods: methods, context: context)
        let argument = Unmanaged.passRetained(work).toOpaque()
        let status = pthread_create(&pipeline.thread, nil, { argument in
            Unmanaged<Work>.fromOpaque(argument!).takeRetainedValue().run()
            return nil
        }, argument)
        guard status == 0 else {
            Unmanaged<Work>.fromOpaque(argument).release()
            return nil
        }
        started.add(1, ordering: .relaxed)
        return pipeline
    }

    private init(batch: BatchPreparation) {
        self.batch = batch
        slots = .allocate(capacity: Self.capacity)
    }

    deinit {
        // What the writer did not take (it stopped early) goes with the pipeline.
        for index in taken.load(ordering: .relaxed)..<prepared.load(ordering: .relaxed) {
            (slots + index % Self.capacity).deinitialize(count: 1)
        }
        slots.deallocate()
    }

    /// Route `index`, prepared: waits for the preparer to hand it over. The caller takes them in
    /// order, each once.
    func take(_ index: Int) -> Prepared {
        while prepared.load(ordering: .acquiring) <= index { sched_yield() }
        let route = (slots + index % Self.capacity).move()
        taken.store(index + 1, ordering: .releasing)
        return route
    }

    /// Tells the preparer to stop after its current route.
    func stop() { stopped.store(true, ordering: .relaxed) }

    /// Waits for the preparer to end; returns the batch it prepared into.
    func join() -> BatchPreparation {
        #if os(Linux)
        pthread_join(thread, nil)
        #else
        pthread_join(thread!, nil)
        #endif
        return batch
    }

    /// The preparer's side: what its thread runs.
    private final class Work: @unchecked Sendable {
        // Safety: made by the writer before the thread starts, used only by the thread after.
        let pipeline: PreparationPipeline
        let registrations: [RouterCore.Registration]
        let count: Int
        let methods: [(MethodSet, UInt16)]
        let context: BatchPreparation.Context

        init(pipeline: PreparationPipeline, registrations: [RouterCore.Registration], count: Int,
             methods: [(MethodSet, UInt16)], context: BatchPreparation.Context) {
            self.pipeline = pipeline
            self.registrations = registrations
            self.count = count
            self.methods = methods
            self.context = context
        }

        func run() {
            let pipeline = self.pipeline
            for index in 0..<count {
                // Wait for the writer to free the slot.
                while index - pipeline.taken.load(ordering: .acquiring) >= PreparationPipeline.capacity {
                    if pipeline.stopped.load(ordering: .relaxed) { return }
                    sched_yield()
                }
                if pipeline.stopped.load(ordering: .relaxed) { return }
                let (methods, methodSet) = self.methods[index]
                let route = Prepared { () throws(RouterError) in
                    try pipeline.batch.prepare(registrations[index], methods, methodSet, context)
                }
                (pipeline.slots + index % PreparationPipeline.capacity).initialize(to: route)
                pipeline.prepared.store(index + 1, ordering: .releasing)
                if case .failure = route { return }
            }
        }
    }
}
