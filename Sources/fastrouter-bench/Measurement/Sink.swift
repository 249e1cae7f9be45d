/// Where timed loops leave their results, so the optimizer cannot prove the lookups unused.
enum Sink {
    nonisolated(unsafe) private static var value: UInt64 = 0

    @inline(never)
    static func consume(_ result: UInt64) {
        value &+= result
    }
}
