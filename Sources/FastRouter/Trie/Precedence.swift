/// Candidates are put in the order of ``PrecedenceKey`` (docs/SEMANTICS.md §3.1).
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

    /// True when variant `lhs` comes before variant `rhs` for a URL both match. The two rows of
    /// `rankBuffers` (each `rankCapacity` long) receive their segment ranks if needed.
    func precedes(_ lhs: UInt32, _ rhs: UInt32, _ rankBuffers: UnsafeMutablePointer<UInt8>, _ rankCapacity: Int) -> Bool {
        precedenceKey(of: lhs, rankRow: rankBuffers) < precedenceKey(of: rhs, rankRow: rankBuffers + rankCapacity)
    }

    /// The precedence of a variant, its segment ranks read into `rankRow` only when compared.
    @inline(__always)
    func precedenceKey(of index: UInt32, rankRow: UnsafeMutablePointer<UInt8>) -> PrecedenceKey<TrieRanks> {
        let variant = variants.base + Int(index)
        return PrecedenceKey(priority: variant.pointee.priority, hostRank: variant.pointee.hostRank,
                             ranks: TrieRanks(nodes: nodes.base, node: variant.pointee.node,
                                              endsWithWildcard: variant.pointee.endsWithWildcard, row: rankRow),
                             sequence: variant.pointee.sequence, expansion: variant.pointee.expansion)
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

/// A variant's segment ranks as the trie holds them: the `kind` of each node on its path, then
/// its tail. Written into `row` (room for the deepest path plus the tail) each time they are
/// read, so a comparison that priority or host decides never walks the path.
struct TrieRanks: PrecedenceRanks {
    let nodes: UnsafeMutablePointer<TrieNode>
    /// The node the variant hangs on.
    let node: UInt32
    let endsWithWildcard: Bool
    let row: UnsafeMutablePointer<UInt8>

    @inline(__always)
    func withRanks<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        var node = self.node
        let depth = Int(nodes[Int(node)].depth)
        row[depth] = endsWithWildcard ? SegmentRank.wildcard.rawValue : SegmentRank.end.rawValue
        var position = depth
        while position > 0 {
            position -= 1
            row[position] = nodes[Int(node)].kind
            node = nodes[Int(node)].parent
        }
        return body(UnsafeBufferPointer(start: row, count: depth + 1))
    }
}
