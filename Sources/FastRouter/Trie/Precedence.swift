/// The single ordering of candidates (SPEC §3.1): higher priority, then host specificity, then
/// path specificity compared segment by segment from the left, then earlier registration, then
/// expansion order within one route.
extension TableSide {
    /// Sorts `candidates[range]` best first. Insertion sort: candidate lists are short, and the
    /// common single-candidate case costs nothing.
    func sortCandidates(_ candidates: UnsafeMutablePointer<UInt32>, _ range: Range<Int>,
                        rankBuffers: UnsafeMutablePointer<UInt8>, rankCapacity: Int) {
        guard range.count > 1 else { return }
        for index in (range.lowerBound + 1)..<range.upperBound {
            let current = candidates[index]
            var position = index
            while position > range.lowerBound
                    && precedes(current, candidates[position - 1], rankBuffers, rankCapacity) {
                candidates[position] = candidates[position - 1]
                position -= 1
            }
            candidates[position] = current
        }
    }

    /// True when variant `lhs` comes before variant `rhs` for a URL both match.
    func precedes(_ lhs: UInt32, _ rhs: UInt32, _ rankBuffers: UnsafeMutablePointer<UInt8>, _ rankCapacity: Int) -> Bool {
        let left = variants[Int(lhs)]
        let right = variants[Int(rhs)]
        if left.priority != right.priority { return left.priority > right.priority }
        if left.hostRank != right.hostRank { return left.hostRank > right.hostRank }
        let leftRanks = rankBuffers
        let rightRanks = rankBuffers + rankCapacity
        let leftDepth = fillRanks(of: left, into: leftRanks)
        let rightDepth = fillRanks(of: right, into: rightRanks)
        var position = 0
        while true {
            let leftRank = leftRanks[position]
            let rightRank = rightRanks[position]
            if leftRank != rightRank { return leftRank > rightRank }
            if position == leftDepth || position == rightDepth { break }
            position += 1
        }
        if left.sequence != right.sequence { return left.sequence < right.sequence }
        return left.expansion < right.expansion
    }

    /// Writes the rank of each segment of the variant's path, then its tail (end or wildcard);
    /// returns the path depth (index of the tail).
    private func fillRanks(of variant: Variant, into ranks: UnsafeMutablePointer<UInt8>) -> Int {
        var node = variant.node
        let depth = Int(nodes[Int(node)].depth)
        ranks[depth] = variant.endsWithWildcard ? SegmentRank.wildcard.rawValue : SegmentRank.end.rawValue
        var position = depth
        while position > 0 {
            position -= 1
            ranks[position] = nodes[Int(node)].kind
            node = nodes[Int(node)].parent
        }
        return depth
    }

    /// The URL segment index of each parameter of `variant`, in pattern order, written to
    /// `positions`; the wildcard (if any) comes last and starts at the variant's depth.
    /// Returns the number written.
    func parameterPositions(of variant: UnsafeMutablePointer<Variant>, into positions: UnsafeMutablePointer<Int32>) -> Int {
        var node = variant.pointee.node
        var count = 0
        // Walk up, collecting placeholder depths in reverse, then flip them.
        while node != 0 {
            let entry = nodes[Int(node)]
            if entry.kind == SegmentRank.parameter.rawValue || entry.kind == SegmentRank.constraint.rawValue {
                positions[count] = Int32(entry.depth) - 1
                count += 1
            }
            node = entry.parent
        }
        var low = 0
        var high = count - 1
        while low < high {
            (positions[low], positions[high]) = (positions[high], positions[low])
            low += 1
            high -= 1
        }
        if variant.pointee.endsWithWildcard {
            positions[count] = Int32(nodes[Int(variant.pointee.node)].depth)
            count += 1
        }
        return count
    }
}
