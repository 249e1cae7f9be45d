import FastRouter

/// Which expansions contain or overlap others: by host rule, then segment by segment.
extension RouteAnalysis {
    /// Whether every URL `inner` matches is matched by `outer` (a "no" may be a "don't know").
    func includes(_ outer: Expansion, _ inner: Expansion) -> Bool {
        let outerPattern = entries[outer.entry].pattern
        let innerPattern = entries[inner.entry].pattern
        guard hostIncludes(outerPattern.host, innerPattern.host) else { return false }
        if outer.wildcard {
            guard inner.segments.count >= outer.segments.count else { return false }
        } else {
            guard !inner.wildcard, inner.segments.count == outer.segments.count else { return false }
        }
        for (position, segment) in outer.segments.enumerated()
        where !segmentIncludes(segment, outerPattern, inner.segments[position], innerPattern, position: position) {
            return false
        }
        return true
    }

    /// Whether some URL might match both (a "yes" may be a "don't know").
    func mayOverlap(_ lhs: Expansion, _ rhs: Expansion) -> Bool {
        if !lhs.wildcard && !rhs.wildcard && lhs.segments.count != rhs.segments.count { return false }
        if !lhs.wildcard && lhs.segments.count < rhs.segments.count { return false }
        if !rhs.wildcard && rhs.segments.count < lhs.segments.count { return false }
        let leftPattern = entries[lhs.entry].pattern
        let rightPattern = entries[rhs.entry].pattern
        for (position, (left, right)) in zip(lhs.segments, rhs.segments).enumerated() {
            if case .literal(let bytes) = left, !accepts(right, rightPattern, bytes, position: position) { return false }
            if case .literal(let bytes) = right, !accepts(left, leftPattern, bytes, position: position) { return false }
        }
        return true
    }

    func hostIncludes(_ outer: HostRule, _ inner: HostRule) -> Bool {
        switch (outer, inner) {
        case (.any, _): return true
        case (.suffix(let suffix), .exact(let host)), (.suffix(let suffix), .suffix(let host)): return host.hasSuffix(suffix)
        case (.exact(let a), .exact(let b)): return a == b
        default: return false
        }
    }

    func hostsOverlap(_ lhs: HostRule, _ rhs: HostRule) -> Bool {
        hostIncludes(lhs, rhs) || hostIncludes(rhs, lhs)
    }

    func segmentIncludes(_ outer: Segment, _ outerPattern: Pattern, _ inner: Segment, _ innerPattern: Pattern,
                                 position: Int) -> Bool {
        let folded = foldLiterals || (position == 0 && isCustomScheme(outerPattern))
        switch (outer, inner) {
        case (.parameter, _):
            return true
        case (.literal(let a), .literal(let b)):
            return LiteralText.equal(a, b, folded: folded)
        case (.constrained(_, let constraint), .literal(let bytes)):
            // A folded literal also matches its other spellings: only a case-closed constraint covers them all.
            if folded && bytes.contains(where: { ASCII.isAlpha($0) }) && !constraint.isCaseClosed { return false }
            return accepts(outer, outerPattern, bytes, position: position)
        case (.constrained(_, let outerConstraint), .constrained(_, let innerConstraint)):
            return innerConstraint.isContained(in: outerConstraint)
        case (.partial, .literal(let bytes)):
            if folded && bytes.contains(where: { ASCII.isAlpha($0) }) { return false }
            return accepts(outer, outerPattern, bytes, position: position)
        case (.partial, .partial):
            return DuplicateKey.Shape(outer) == DuplicateKey.Shape(inner)
        default:
            return false
        }
    }

    func isCustomScheme(_ pattern: Pattern) -> Bool {
        pattern.scheme.map { !core.options.webSchemes.contains($0) } ?? false
    }

    /// Whether `segment` of `pattern` matches the decoded URL segment `bytes`.
    func accepts(_ segment: Segment, _ pattern: Pattern, _ bytes: [UInt8], position: Int) -> Bool {
        guard !bytes.isEmpty else { return false }
        switch segment {
        case .literal(let literal):
            return LiteralText.equal(literal, bytes, folded: foldLiterals || (position == 0 && isCustomScheme(pattern)))
        case .parameter, .wildcard:
            return true
        case .constrained(_, let constraint):
            return accepts(constraint, pattern, bytes[...])
        case .partial(let pieces):
            return partialAccepts(pieces[...], pattern, bytes[...])
        }
    }

    func accepts(_ constraint: Constraint, _ pattern: Pattern, _ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            if case .regex(let source) = constraint {
                return pattern.regexes[source]?.match(buffer, scratch: regexScratch) == .matched
            }
            return constraint.matchesBuiltin(buffer)
        }
    }

    /// Whether the pieces of a partial segment can split `bytes` (any split: acceptance does not
    /// depend on which one the matcher captures).
    private func partialAccepts(_ pieces: ArraySlice<PartialPiece>, _ pattern: Pattern, _ bytes: ArraySlice<UInt8>) -> Bool {
        guard let piece = pieces.first else { return bytes.isEmpty }
        switch piece {
        case .text(let text):
            guard bytes.count >= text.count,
                  LiteralText.equal(text, Array(bytes.prefix(text.count)), folded: foldLiterals) else { return false }
            return partialAccepts(pieces.dropFirst(), pattern, bytes.dropFirst(text.count))
        case .parameter(_, let constraint):
            var end = bytes.endIndex
            while end > bytes.startIndex {
                let value = bytes[bytes.startIndex..<end]
                if constraint.map({ accepts($0, pattern, value) }) ?? true,
                   partialAccepts(pieces.dropFirst(), pattern, bytes[end...]) {
                    return true
                }
                end -= 1
            }
            return false
        }
    }
}

/// Literal comparison as the matcher does it.
enum LiteralText {
    static func equal(_ lhs: [UInt8], _ rhs: [UInt8], folded: Bool) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard folded else { return lhs == rhs }
        return zip(lhs, rhs).allSatisfy { ASCII.lowercased($0) == ASCII.lowercased($1) }
    }
}

extension Constraint {
    /// Whether the constraint accepts a segment exactly when it accepts its other ASCII spellings.
    var isCaseClosed: Bool {
        switch self {
        case .regex: return false
        default: return true
        }
    }

    /// Whether every segment `self` accepts, `outer` accepts too (known for built-ins; a regex contains only itself).
    func isContained(in outer: Constraint) -> Bool {
        if self == outer { return true }
        switch (self, outer) {
        case (.int, .float), (.uint, .float), (.uint, .alnum), (.uint, .hex), (.alpha, .alnum), (.hex, .alnum):
            return true
        default:
            return false
        }
    }
}
