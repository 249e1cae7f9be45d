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

extension Array where Element: BitwiseCopyable {
    /// `insert(_:at:)` for elements that are plain bytes: appended, then moved into place with one
    /// copy of the elements after it. `insert(_:at:)` goes through the general `replaceSubrange`,
    /// which costs more than moving the few elements of a node's index.
    @inline(__always)
    mutating func insertTrivially(_ element: Element, at position: Int) {
        precondition(position >= 0 && position <= count, "insert position out of range")
        append(element)
        withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            // Overlapping ranges: a raw move (memmove) shifts them up by one.
            UnsafeMutableRawPointer(base + position + 1).copyMemory(from: base + position,
                                                                    byteCount: (buffer.count - 1 - position) * MemoryLayout<Element>.stride)
            base[position] = element
        }
    }
}
