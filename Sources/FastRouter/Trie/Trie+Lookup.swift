/// What one lookup reads besides the trie: the URL's decoded segments and host, and where the
/// candidates go. Built by ``MatchScratch`` from its reusable buffers; holds no references.
struct LookupInput {
    let starts: UnsafePointer<UnsafePointer<UInt8>>
    let lengths: UnsafePointer<Int>
    /// Literal hashes of the segments, 0 until a node with literal children needs one.
    let hashes: UnsafeMutablePointer<UInt64>
    /// First words of the segments, valid where the hash is set.
    let heads: UnsafeMutablePointer<UInt64>
    let count: Int
    /// Compare every literal ASCII case-insensitively (router option).
    let foldAll: Bool
    /// Compare the first segment case-insensitively: it is a custom scheme's host.
    let foldFirst: Bool
    /// The URL's host for web schemes (lower-case comparison), `nil` when the URL has none.
    let host: UnsafePointer<UInt8>?
    let hostLength: Int
    /// The URL's bytes: segments that point into them may be read as whole words within these bounds.
    let urlStart: UnsafePointer<UInt8>
    let urlEnd: UnsafePointer<UInt8>

    /// Where the bytes around segment `depth` may be read as whole words: the URL for segments
    /// that point into it; for decoded ones, the scratch buffer padded past each segment's end.
    @inline(__always)
    func readableBounds(_ start: UnsafePointer<UInt8>, _ length: Int)
        -> (lower: UnsafePointer<UInt8>, upper: UnsafePointer<UInt8>) {
        start >= urlStart && start < urlEnd ? (urlStart, urlEnd) : (start, start + length + ScratchState.wordPadding)
    }

    /// The literal hash of segment `depth` and its first eight bytes (fewer for a shorter segment,
    /// zero-extended), both computed on first use. The head settles most key comparisons alone.
    @inline(__always)
    func segmentKey(_ depth: Int) -> (hash: UInt64, head: UInt64) {
        let cached = hashes[depth]
        if cached != 0 { return (cached, heads[depth]) }
        return computeSegmentKey(depth)
    }

    @inline(never)
    private func computeSegmentKey(_ depth: Int) -> (hash: UInt64, head: UInt64) {
        let start = starts[depth]
        let length = lengths[depth]
        let bounds = readableBounds(start, length)
        let head: UInt64
        let hash: UInt64
        if length < 8 {
            head = length == 0 ? 0 : LiteralHash.tailWord(start, length, readableFrom: bounds.lower, to: bounds.upper)
            hash = LiteralHash.finish(length == 0 ? LiteralHash.seed
                                      : LiteralHash.mix(LiteralHash.seed, LiteralHash.caseBlind(head)), count: length)
        } else {
            head = UnsafeRawPointer(start).loadUnaligned(as: UInt64.self)
            hash = LiteralHash.segmentHash(start, length, readableFrom: bounds.lower, to: bounds.upper)
        }
        hashes[depth] = hash
        heads[depth] = head
        return (hash, head)
    }
}

/// Depth-first walks of a table side's tries for one URL: ``visit(_:_:)`` from a table's root
/// appends every variant that matches the URL to `candidates`, allocating only if that buffer
/// must grow. Holds raw views of the side's buffers so the hot loop reads plain memory;
/// descends without recursion while a node offers a single way on.
/// Results go straight to the caller's buffers (a copy in and out of the walk would cost more
/// than the walk of a short URL).
struct TrieWalker {
    let nodes: UnsafeMutablePointer<TrieNode>
    let slots: UnsafeMutablePointer<LiteralSlot>
    let slotMask: Int
    let keys: UnsafeMutablePointer<UInt8>
    let edges: UnsafeMutablePointer<ConstraintEdge>
    let variants: UnsafeMutablePointer<Variant>
    let input: LookupInput
    let candidates: UnsafeMutablePointer<FlatBuffer<UInt32>>
    unowned(unsafe) let regexScratch: RegexScratch
    /// Regex matches that hit PCRE2's limits.
    let limitHits: UnsafeMutablePointer<Int>

    init(side: TableSide, input: LookupInput, candidates: UnsafeMutablePointer<FlatBuffer<UInt32>>,
         regexScratch: RegexScratch, limitHits: UnsafeMutablePointer<Int>) {
        nodes = side.nodes.base
        slots = side.literalSlots.base
        slotMask = side.literalSlots.count - 1
        keys = side.keys.base
        edges = side.constraintEdges.base
        variants = side.variants.base
        self.input = input
        self.candidates = candidates
        self.regexScratch = regexScratch
        self.limitHits = limitHits
    }

    func visit(_ startNode: UInt32, _ startDepth: Int) {
        var nodeIndex = startNode
        var depth = startDepth
        while true {
            let node = nodes + Int(nodeIndex)
            if depth == input.count {
                addVariants(node.pointee.firstTerminal)
                addVariants(node.pointee.firstWildcard)
                return
            }
            var literal: UInt32 = 0
            if node.pointee.literalChildCount != 0 {
                if input.foldAll || (depth == 0 && input.foldFirst) {
                    visitFoldedLiterals(of: nodeIndex, depth)
                } else {
                    literal = exactLiteralChild(of: nodeIndex, depth)
                }
            }
            let parameter = node.pointee.parameterChild
            let firstEdge = node.pointee.firstConstraintEdge
            let wildcard = node.pointee.firstWildcard
            if parameter == 0 && firstEdge == 0 && wildcard == 0 {
                // A single way on: descend without recursion.
                if literal == 0 { return }
                nodeIndex = literal
                depth &+= 1
                continue
            }
            if literal != 0 { visit(literal, depth &+ 1) }
            if firstEdge != 0 { visitConstraintEdges(firstEdge, depth) }
            addVariants(wildcard)
            if parameter == 0 { return }
            nodeIndex = parameter
            depth &+= 1
        }
    }

    /// The literal child of `parent` whose key equals segment `depth` byte for byte, or 0.
    /// Keys of up to eight bytes compare in one word: the key buffer is padded, so a key's first
    /// word may be loaded whole and masked to its length.
    @inline(__always)
    private func exactLiteralChild(of parent: UInt32, _ depth: Int) -> UInt32 {
        let key = input.segmentKey(depth)
        let length = input.lengths[depth]
        let edgeHash = LiteralHash.edgeHash(key.hash, parent: parent)
        var slot = Int(edgeHash) & slotMask
        while true {
            let entry = slots[slot]
            if entry.child == 0 { return 0 }
            if entry.hash == edgeHash {
                let child = nodes + Int(entry.child)
                if child.pointee.parent == parent, Int(child.pointee.keyLength) == length {
                    let keyStart = keys + Int(child.pointee.keyOffset)
                    if length < 8 {
                        let mask = (UInt64(1) &<< UInt64(length &* 8)) &- 1
                        if UnsafeRawPointer(keyStart).loadUnaligned(as: UInt64.self) & mask == key.head { return entry.child }
                    } else if keyMatches(keyStart, head: key.head, depth, folded: false) {
                        return entry.child
                    }
                }
            }
            slot = (slot &+ 1) & slotMask
        }
    }

    /// Visits every literal child of `parent` whose key equals segment `depth` with ASCII case
    /// folded: keys that differ only in case ("/A", "/a") may all match.
    @inline(never)
    private func visitFoldedLiterals(of parent: UInt32, _ depth: Int) {
        let key = input.segmentKey(depth)
        let length = input.lengths[depth]
        let edgeHash = LiteralHash.edgeHash(key.hash, parent: parent)
        var slot = Int(edgeHash) & slotMask
        while true {
            let entry = slots[slot]
            if entry.child == 0 { return }
            if entry.hash == edgeHash {
                let child = nodes + Int(entry.child)
                if child.pointee.parent == parent, Int(child.pointee.keyLength) == length,
                   keyMatches(keys + Int(child.pointee.keyOffset), head: key.head, depth, folded: true) {
                    visit(entry.child, depth &+ 1)
                }
            }
            slot = (slot &+ 1) & slotMask
        }
    }

    /// Visits the children behind the constraint edges starting at `first` whose constraint
    /// accepts segment `depth`.
    @inline(never)
    private func visitConstraintEdges(_ first: UInt32, _ depth: Int) {
        let segment = UnsafeBufferPointer(start: input.starts[depth], count: input.lengths[depth])
        let folded = input.foldAll || (depth == 0 && input.foldFirst)
        var edge = first
        while edge != 0 {
            let entry = edges[Int(edge)]
            if constraintMatches(entry, segment, folded: folded) { visit(entry.child, depth &+ 1) }
            edge = entry.next
        }
    }

    /// Whether a stored key equals segment `depth` of the same length, given the segment's head
    /// word: the comparisons the one-word test in ``exactLiteralChild(of:_:)`` does not settle
    /// (folded or long keys). Kept out of line so the probe loop stays small.
    @inline(never)
    private func keyMatches(_ key: UnsafePointer<UInt8>, head: UInt64, _ depth: Int, folded: Bool) -> Bool {
        let segment = input.starts[depth]
        let length = input.lengths[depth]
        var keyHead = UnsafeRawPointer(key).loadUnaligned(as: UInt64.self)
        if length < 8 { keyHead &= (UInt64(1) &<< UInt64(length &* 8)) &- 1 }
        if folded ? LiteralHash.foldWord(keyHead) != LiteralHash.foldWord(head) : keyHead != head { return false }
        if length <= 8 { return true }
        let bounds = input.readableBounds(segment, length)
        return LiteralHash.keyEquals(key + 8, segment + 8, length - 8, folded: folded,
                                     readableFrom: bounds.lower, to: bounds.upper)
    }

    @inline(__always)
    private func addVariants(_ head: UInt32) {
        var index = head
        while index != 0 {
            let variant = variants + Int(index)
            if variant.pointee.hostRank == 0 || hostMatches(variant) {
                candidates.pointee.append(index)
            }
            index = variant.pointee.next
        }
    }

    private func hostMatches(_ variant: UnsafeMutablePointer<Variant>) -> Bool {
        guard let host = input.host else { return false }
        let rule = keys + Int(variant.pointee.hostOffset)
        let ruleLength = Int(variant.pointee.hostLength)
        if variant.pointee.hostRank == HostRule.exact("").rank {
            return input.hostLength == ruleLength && LiteralHash.equal(rule, host, ruleLength, folded: true)
        }
        // A suffix rule ".example.com" needs at least one label before it.
        return input.hostLength > ruleLength
            && LiteralHash.equal(rule, host + (input.hostLength - ruleLength), ruleLength, folded: true)
    }

    @inline(__always)
    private func constraintMatches(_ edge: ConstraintEdge, _ segment: UnsafeBufferPointer<UInt8>,
                                            folded: Bool) -> Bool {
        if edge.code == BuiltinCode.partial.rawValue {
            return Unmanaged<PartialTemplate>.fromOpaque(edge.regex!)._withUnsafeGuaranteedRef {
                $0.match(segment, folded: folded, regexScratch: regexScratch, limitHits: &limitHits.pointee, captures: nil,
                         segmentIndex: 0)
            }
        }
        if let regex = edge.regex {
            let outcome = Unmanaged<CompiledRegex>.fromOpaque(regex)._withUnsafeGuaranteedRef {
                $0.match(segment, scratch: regexScratch)
            }
            switch outcome {
            case .matched: return true
            case .failed: return false
            case .limitExceeded:
                limitHits.pointee += 1
                return false
            }
        }
        return BuiltinCode.scan(edge.code, segment)
    }
}

extension BuiltinCode {
    /// The code stored in a constraint edge for a constraint.
    static func of(_ constraint: Constraint) -> BuiltinCode {
        switch constraint {
        case .int: return .int
        case .uint: return .uint
        case .float: return .float
        case .uuid: return .uuid
        case .alpha: return .alpha
        case .alnum: return .alnum
        case .hex: return .hex
        case .regex: return .regex
        }
    }

    /// Runs the built-in scanner `code` over a decoded segment.
    @inline(__always)
    static func scan(_ code: UInt8, _ segment: UnsafeBufferPointer<UInt8>) -> Bool {
        switch BuiltinCode(rawValue: code) {
        case .int: return Constraint.int.matchesBuiltin(segment)
        case .uint: return Constraint.uint.matchesBuiltin(segment)
        case .float: return Constraint.float.matchesBuiltin(segment)
        case .uuid: return Constraint.uuid.matchesBuiltin(segment)
        case .alpha: return Constraint.alpha.matchesBuiltin(segment)
        case .alnum: return Constraint.alnum.matchesBuiltin(segment)
        case .hex: return Constraint.hex.matchesBuiltin(segment)
        case .regex, .partial, .none: return false
        }
    }
}
