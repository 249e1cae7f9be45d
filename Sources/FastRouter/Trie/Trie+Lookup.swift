/// What one lookup reads besides the trie: the URL's decoded segments and host, and where the
/// candidates go. Built by ``MatchScratch`` from its reusable buffers; holds no references.
struct LookupInput {
    let starts: UnsafePointer<UnsafePointer<UInt8>>
    let lengths: UnsafePointer<Int>
    let hashes: UnsafePointer<UInt64>
    let count: Int
    /// Compare every literal ASCII case-insensitively (router option).
    let foldAll: Bool
    /// Compare the first segment case-insensitively: it is a custom scheme's host.
    let foldFirst: Bool
    /// The URL's host for web schemes (lower-case comparison), `nil` when the URL has none.
    let host: UnsafePointer<UInt8>?
    let hostLength: Int
}

extension TableSide {
    /// Appends to `candidates` every variant under `root` that matches the URL, in trie order.
    /// - Complexity: proportional to the trie paths the URL can follow; allocates only if
    ///   `candidates` must grow.
    func collect(root: UInt32, _ input: LookupInput, into candidates: inout FlatBuffer<UInt32>,
                 regexScratch: RegexScratch, limitHits: inout Int) {
        collect(root, 0, input, &candidates, regexScratch, &limitHits)
    }

    private func collect(_ nodeIndex: UInt32, _ depth: Int, _ input: LookupInput,
                         _ candidates: inout FlatBuffer<UInt32>, _ regexScratch: RegexScratch,
                         _ limitHits: inout Int) {
        let node = nodes.base + Int(nodeIndex)
        if depth == input.count {
            addVariants(node.pointee.firstTerminal, input, &candidates)
            addVariants(node.pointee.firstWildcard, input, &candidates)
            return
        }
        let start = input.starts[depth]
        let length = input.lengths[depth]
        if node.pointee.literalChildCount != 0 {
            let folded = input.foldAll || (depth == 0 && input.foldFirst)
            let mask = literalSlots.count - 1
            let edgeHash = LiteralHash.edgeHash(input.hashes[depth], parent: nodeIndex)
            var slot = Int(edgeHash) & mask
            while true {
                let entry = literalSlots.base[slot]
                if entry.child == 0 { break }
                if entry.hash == edgeHash {
                    let child = nodes.base + Int(entry.child)
                    if child.pointee.parent == nodeIndex, Int(child.pointee.keyLength) == length,
                       LiteralHash.equal(keys.base + Int(child.pointee.keyOffset), start, length, folded: folded) {
                        collect(entry.child, depth + 1, input, &candidates, regexScratch, &limitHits)
                        // Exact keys are unique per parent; folded ones may match several ("/A", "/a").
                        if !folded { break }
                    }
                }
                slot = (slot + 1) & mask
            }
        }
        var edge = node.pointee.firstConstraintEdge
        while edge != 0 {
            let entry = constraintEdges.base[Int(edge)]
            if constraintMatches(entry, UnsafeBufferPointer(start: start, count: length), regexScratch, &limitHits) {
                collect(entry.child, depth + 1, input, &candidates, regexScratch, &limitHits)
            }
            edge = entry.next
        }
        let parameter = node.pointee.parameterChild
        if parameter != 0 {
            collect(parameter, depth + 1, input, &candidates, regexScratch, &limitHits)
        }
        addVariants(node.pointee.firstWildcard, input, &candidates)
    }

    @inline(__always)
    private func addVariants(_ head: UInt32, _ input: LookupInput, _ candidates: inout FlatBuffer<UInt32>) {
        var index = head
        while index != 0 {
            let variant = variants.base + Int(index)
            if variant.pointee.hostRank == 0 || hostMatches(variant, input) {
                candidates.append(index)
            }
            index = variant.pointee.next
        }
    }

    private func hostMatches(_ variant: UnsafeMutablePointer<Variant>, _ input: LookupInput) -> Bool {
        guard let host = input.host else { return false }
        let rule = keys.base + Int(variant.pointee.hostOffset)
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
                                   _ regexScratch: RegexScratch, _ limitHits: inout Int) -> Bool {
        if let regex = edge.regex {
            let outcome = Unmanaged<CompiledRegex>.fromOpaque(regex)._withUnsafeGuaranteedRef {
                $0.match(segment, scratch: regexScratch)
            }
            switch outcome {
            case .matched: return true
            case .failed: return false
            case .limitExceeded:
                limitHits += 1
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
        case .regex, .none: return false
        }
    }
}
