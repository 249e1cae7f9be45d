/// What one lookup reads besides the trie: the URL's decoded segments and host. Built by
/// ``MatchScratch`` from its reusable buffers; holds no references. Every segment may be read a
/// whole word past any of its bytes (see ``ScratchState``).
struct LookupInput {
    let starts: UnsafePointer<UnsafePointer<UInt8>>
    let lengths: UnsafePointer<Int>
    let count: Int
    /// Segments before this index compare ASCII case-insensitively: none, the first (a custom
    /// scheme's host) or all (router option). One comparison per node instead of two flags.
    let foldedSegments: Int
    /// The URL's host for web schemes (lower-case comparison), `nil` when the URL has none.
    let host: UnsafePointer<UInt8>?
    let hostLength: Int
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
                if depth < input.foldedSegments {
                    visitFoldedLiterals(of: nodeIndex, depth)
                } else {
                    literal = exactLiteralChild(of: nodeIndex, depth)
                }
            }
            let parameter = node.pointee.parameterChild
            let firstEdge = node.pointee.firstConstraintEdge
            let wildcard = node.pointee.firstWildcard
            if parameter | firstEdge | wildcard == 0 {
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

    /// Walks the literal index for the children of `parent` that may be keyed by segment `depth`
    /// (same edge hash, same key length), in probe order, calling `body` with each child and its
    /// key until `body` returns true.
    @inline(__always)
    private func probeLiteralChildren(of parent: UInt32, _ depth: Int,
                                      _ body: (UInt32, UnsafePointer<UInt8>) -> Bool) {
        let start = input.starts[depth]
        let length = input.lengths[depth]
        let edgeHash = LiteralHash.edgeHash(LiteralHash.paddedSegmentHash(start, length), parent: parent)
        var slot = Int(edgeHash) & slotMask
        while true {
            let entry = slots[slot]
            if entry.child == 0 { return }
            if entry.hash == edgeHash {
                let child = nodes + Int(entry.child)
                if child.pointee.parent == parent, Int(child.pointee.keyLength) == length,
                   body(entry.child, keys + Int(child.pointee.keyOffset)) {
                    return
                }
            }
            slot = (slot &+ 1) & slotMask
        }
    }

    /// The literal child of `parent` whose key equals segment `depth` byte for byte, or 0.
    /// A segment of up to eight bytes is one masked word: its hash is that word case-blinded,
    /// and a key is compared in one load (keys and segments are both padded, so their first
    /// words may be loaded whole and masked to the length). Written out rather than through
    /// ``probeLiteralChildren(of:_:_:)``: the word serves the hash and every comparison, and no
    /// register is spilled around a closure.
    @inline(__always)
    private func exactLiteralChild(of parent: UInt32, _ depth: Int) -> UInt32 {
        let length = input.lengths[depth]
        guard UInt(bitPattern: length &- 1) < 8 else { return longLiteralChild(of: parent, depth) }
        let mask = ByteComparison.headMask(length)
        let word = UnsafeRawPointer(input.starts[depth]).loadUnaligned(as: UInt64.self) & mask
        let edgeHash = LiteralHash.edgeHash(LiteralHash.caseBlind(word) & mask, parent: parent)
        var slot = Int(edgeHash) & slotMask
        while true {
            let entry = slots[slot]
            if entry.child == 0 { return 0 }
            if entry.hash == edgeHash {
                let child = nodes + Int(entry.child)
                if child.pointee.parent == parent, Int(child.pointee.keyLength) == length,
                   UnsafeRawPointer(keys + Int(child.pointee.keyOffset)).loadUnaligned(as: UInt64.self) & mask == word {
                    return entry.child
                }
            }
            slot = (slot &+ 1) & slotMask
        }
    }

    /// ``exactLiteralChild(of:_:)`` for a segment of more than eight bytes. Kept out of line so
    /// the walk's loop stays small.
    @inline(never)
    private func longLiteralChild(of parent: UInt32, _ depth: Int) -> UInt32 {
        let start = input.starts[depth]
        let length = input.lengths[depth]
        var found: UInt32 = 0
        probeLiteralChildren(of: parent, depth) { child, key in
            let equal = ByteComparison.paddedEqual(key, start, length, folded: false)
            if equal { found = child }
            return equal
        }
        return found
    }

    /// Visits every literal child of `parent` whose key equals segment `depth` with ASCII case
    /// folded: keys that differ only in case ("/A", "/a") may all match.
    @inline(never)
    private func visitFoldedLiterals(of parent: UInt32, _ depth: Int) {
        let start = input.starts[depth]
        let length = input.lengths[depth]
        probeLiteralChildren(of: parent, depth) { child, key in
            if ByteComparison.paddedEqual(key, start, length, folded: true) { visit(child, depth &+ 1) }
            return false
        }
    }

    /// Visits the children behind the constraint edges starting at `first` whose constraint
    /// accepts segment `depth`.
    @inline(never)
    private func visitConstraintEdges(_ first: UInt32, _ depth: Int) {
        let segment = UnsafeBufferPointer(start: input.starts[depth], count: input.lengths[depth])
        let folded = depth < input.foldedSegments
        var edge = first
        while edge != 0 {
            let entry = edges[Int(edge)]
            if constraintMatches(entry, segment, folded: folded) { visit(entry.child, depth &+ 1) }
            edge = entry.next
        }
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
            return input.hostLength == ruleLength && ByteComparison.equal(rule, host, ruleLength, folded: true)
        }
        // A suffix rule ".example.com" needs at least one label before it.
        return input.hostLength > ruleLength
            && ByteComparison.equal(rule, host + (input.hostLength - ruleLength), ruleLength, folded: true)
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
