/// The single ordering of candidates (docs/SEMANTICS.md §3.1): higher priority, then host specificity, then
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

    /// Where each parameter of `variant` lies in the URL, in pattern order, written to `slots`:
    /// whole segments for placeholders, slices for partial segments (re-matched to find them),
    /// and last the wildcard's first segment. Returns the number written.
    func parameterSlots(of variant: UnsafeMutablePointer<Variant>, _ input: LookupInput, regexScratch: RegexScratch,
                        into slots: UnsafeMutablePointer<ParamSlot>) -> Int {
        // First pass: count, so the second can fill from the end while walking up.
        var total = variant.pointee.endsWithWildcard ? 1 : 0
        var node = variant.pointee.node
        while node != 0 {
            let entry = nodes[Int(node)]
            switch entry.kind {
            case SegmentRank.parameter.rawValue, SegmentRank.constraint.rawValue: total += 1
            case SegmentRank.partial.rawValue: total += template(reaching: node)._withUnsafeGuaranteedRef { $0.parameterCount }
            default: break
            }
            node = entry.parent
        }
        var write = total
        if variant.pointee.endsWithWildcard {
            write -= 1
            slots[write] = .whole(Int32(nodes[Int(variant.pointee.node)].depth))
        }
        node = variant.pointee.node
        var limitHits = 0
        while node != 0 {
            let entry = nodes[Int(node)]
            let segment = Int(entry.depth) - 1
            switch entry.kind {
            case SegmentRank.parameter.rawValue, SegmentRank.constraint.rawValue:
                write -= 1
                slots[write] = .whole(Int32(segment))
            case SegmentRank.partial.rawValue:
                template(reaching: node)._withUnsafeGuaranteedRef { partial in
                    write -= partial.parameterCount
                    _ = partial.match(UnsafeBufferPointer(start: input.starts[segment], count: input.lengths[segment]),
                                      folded: segment < input.foldedSegments,
                                      regexScratch: regexScratch, limitHits: &limitHits, captures: slots + write,
                                      segmentIndex: Int32(segment))
                }
            default:
                break
            }
            node = entry.parent
        }
        return total
    }

    /// The template on the edge that leads to a partial-segment node, unretained: lookups borrow it
    /// rather than touch a reference count every thread shares.
    private func template(reaching node: UInt32) -> Unmanaged<PartialTemplate> {
        var edge = nodes[Int(nodes[Int(node)].parent)].firstConstraintEdge
        while constraintEdges[Int(edge)].child != node { edge = constraintEdges[Int(edge)].next }
        return Unmanaged<PartialTemplate>.fromOpaque(constraintEdges[Int(edge)].regex!)
    }
}
