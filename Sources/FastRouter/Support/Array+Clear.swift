extension Array {
    /// Empties the array and keeps its room, and does nothing when it is empty already.
    ///
    /// `removeAll(keepingCapacity:)` goes through the general `replaceSubrange` (about a hundred
    /// instructions, even for two elements), and the writer empties a dozen short buffers on every
    /// add: a short array is emptied from its end instead, a few instructions an element.
    @inline(__always)
    mutating func clearKeepingCapacity() {
        if count > 8 {
            removeAll(keepingCapacity: true)
        } else {
            while !isEmpty { removeLast() }
        }
    }
}
