/// What makes two routes duplicates (docs/SEMANTICS.md §3.6), stated once for registration, the
/// linter and the routes-file reader: the same table (lower-cased scheme, or the global table),
/// the same host rule, the same priority and the same segment shapes. A shape keeps literals
/// (byte for byte: under the case-insensitive option `/A` and `/a` are still distinct),
/// constraints and partial-segment text; parameter names do not count, so `/a/{x:int}` and
/// `/a/{y:int}` collide.
///
/// One key per expansion: a route collides with another when any expansion of one has the key
/// of an expansion of the other. Registration checks a route against the tables with the tree,
/// which is an index of these keys: the table picks the root, the segment shapes the node and
/// its list (a wildcard's or not), and the routes there are compared by host and priority
/// (``TreeEditor/add(_:_:)``).
package struct DuplicateKey: Hashable, Sendable {
    /// Lower-cased scheme, `nil` for the global table.
    package var table: String?
    package var host: HostRule
    package var priority: Int32
    package var segments: [Shape]

    /// A segment without its names: what decides which URL segments it matches.
    package enum Shape: Hashable, Sendable {
        /// Decoded text, as written.
        case literal([UInt8])
        case parameter
        case constrained(Constraint)
        case partial([Piece])
        case wildcard

        package init(_ segment: Segment) {
            switch segment {
            case .literal(let bytes): self = .literal(bytes)
            case .parameter: self = .parameter
            case .constrained(_, let constraint): self = .constrained(constraint)
            case .partial(let pieces): self = .partial(pieces.map(Piece.init))
            case .wildcard: self = .wildcard
            }
        }
    }

    /// A piece of a partial segment without its name.
    package enum Piece: Hashable, Sendable {
        case text([UInt8])
        case parameter(Constraint?)

        package init(_ piece: PartialPiece) {
            switch piece {
            case .text(let bytes): self = .text(bytes)
            case .parameter(_, let constraint): self = .parameter(constraint)
            }
        }
    }

    package init(table: String?, host: HostRule, priority: Int32, segments: [Shape]) {
        self.table = table
        self.host = host
        self.priority = priority
        self.segments = segments
    }

    /// The key of expansion number `expansion` of a parsed pattern registered with `priority`.
    package init(_ pattern: Pattern, expansion: Int, priority: Int32) {
        self.init(table: pattern.scheme, host: pattern.host, priority: priority,
                  segments: pattern.variants[expansion].map(Shape.init))
    }

    /// The key of each expansion of a parsed pattern registered with `priority`, in expansion order.
    package static func keys(of pattern: Pattern, priority: Int32) -> [DuplicateKey] {
        pattern.variants.indices.map { DuplicateKey(pattern, expansion: $0, priority: priority) }
    }
}
