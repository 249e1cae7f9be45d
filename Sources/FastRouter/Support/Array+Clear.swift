extension Array {
    /// Empties the array and keeps its room, and does nothing when it is empty already:
    /// `removeAll(keepingCapacity:)` goes through the general `replaceSubrange` even then, and
    /// the writer empties a dozen buffers on every add.
    @inline(__always)
    mutating func clearKeepingCapacity() {
        if !isEmpty { removeAll(keepingCapacity: true) }
    }
}
