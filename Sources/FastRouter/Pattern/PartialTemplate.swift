/// A partial segment (`{name}.{ext}`, `v{major:int}.{minor:int}`) compiled for matching: text
/// pieces and placeholders, each placeholder followed by text or ending the segment.
///
/// Immutable and shared by every route of a router with the same shape (``DuplicateKey/Piece``);
/// the router keeps it alive while a route uses it, and trie edges point at it unretained.
/// Matching is greedy from the left: an earlier placeholder takes the longest value that lets
/// the rest match, so `{name}.{ext}` splits `archive.tar.gz` into `archive.tar` and `gz`.
final class PartialTemplate: @unchecked Sendable {
    struct Piece {
        /// Text bytes (for a text piece), owned by the template.
        var text: UnsafeMutablePointer<UInt8>?
        var textLength: Int
        /// For a placeholder: 0 for none, else a ``BuiltinCode`` (with `regex` for PCRE2).
        var code: UInt8
        var regex: UnsafeRawPointer?
        var isText: Bool { text != nil }
    }

    let pieces: UnsafeMutablePointer<Piece>
    let pieceCount: Int
    /// Number of placeholders, in order.
    let parameterCount: Int

    /// The template of a partial segment's shape (names do not count: ``DuplicateKey/Piece``),
    /// its regexes given by source.
    init(_ parts: [DuplicateKey.Piece], regexPointers: [String: UnsafeRawPointer]) {
        pieces = .allocate(capacity: parts.count)
        pieceCount = parts.count
        var parameters = 0
        for (index, part) in parts.enumerated() {
            switch part {
            case .text(let bytes):
                let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: max(bytes.count, 1))
                storage.initialize(from: bytes, count: bytes.count)
                (pieces + index).initialize(to: Piece(text: storage, textLength: bytes.count, code: 0, regex: nil))
            case .parameter(let constraint):
                var code: UInt8 = 0
                var regex: UnsafeRawPointer?
                if let constraint {
                    code = BuiltinCode.of(constraint).rawValue
                    if case .regex(let source) = constraint { regex = regexPointers[source] }
                }
                (pieces + index).initialize(to: Piece(text: nil, textLength: 0, code: code, regex: regex))
                parameters += 1
            }
        }
        parameterCount = parameters
    }

    deinit {
        for index in 0..<pieceCount { pieces[index].text?.deallocate() }
        pieces.deinitialize(count: pieceCount)
        pieces.deallocate()
    }

    /// Whether the decoded segment matches; when `captures` is given, writes each placeholder's
    /// (offset, length) within the segment to it, in order.
    func match(_ segment: UnsafeBufferPointer<UInt8>, folded: Bool, regexScratch: RegexScratch,
               limitHits: inout Int, captures: UnsafeMutablePointer<ParamSlot>?, segmentIndex: Int32) -> Bool {
        guard let base = segment.baseAddress else { return false }
        return match(base, segment.count, piece: 0, at: 0, folded: folded, regexScratch, &limitHits, captures, 0,
                     segmentIndex)
    }

    private func match(_ base: UnsafePointer<UInt8>, _ count: Int, piece index: Int, at position: Int, folded: Bool,
                       _ regexScratch: RegexScratch, _ limitHits: inout Int,
                       _ captures: UnsafeMutablePointer<ParamSlot>?, _ captured: Int, _ segmentIndex: Int32) -> Bool {
        if index == pieceCount { return position == count }
        let piece = pieces[index]
        if let text = piece.text {
            guard count - position >= piece.textLength,
                  ByteComparison.equal(text, base + position, piece.textLength, folded: folded) else { return false }
            return match(base, count, piece: index + 1, at: position + piece.textLength, folded: folded,
                         regexScratch, &limitHits, captures, captured, segmentIndex)
        }
        // A placeholder: try every end, longest first; the next piece is text or the end.
        var end = count
        while end > position {
            if accepts(piece, UnsafeBufferPointer(start: base + position, count: end - position), regexScratch, &limitHits),
               match(base, count, piece: index + 1, at: end, folded: folded, regexScratch, &limitHits, captures,
                     captured + 1, segmentIndex) {
                captures?[captured] = ParamSlot(segment: segmentIndex, offset: Int32(position),
                                                length: Int32(end - position))
                return true
            }
            end -= 1
        }
        return false
    }

    private func accepts(_ piece: Piece, _ value: UnsafeBufferPointer<UInt8>, _ regexScratch: RegexScratch,
                         _ limitHits: inout Int) -> Bool {
        if piece.code == 0 { return true }
        if let regex = piece.regex {
            let outcome = Unmanaged<CompiledRegex>.fromOpaque(regex)._withUnsafeGuaranteedRef {
                $0.match(value, scratch: regexScratch)
            }
            switch outcome {
            case .matched: return true
            case .failed: return false
            case .limitExceeded:
                limitHits += 1
                return false
            }
        }
        return BuiltinCode.scan(piece.code, value)
    }
}

/// Where a parameter's value lies: a whole segment (`length < 0`), the rest of the path from a
/// segment (wildcards, `length < 0` and flagged by the candidate), or a slice of one segment.
struct ParamSlot {
    var segment: Int32
    var offset: Int32
    var length: Int32

    static func whole(_ segment: Int32) -> ParamSlot { ParamSlot(segment: segment, offset: 0, length: -1) }
}
