/// Specificity of one pattern segment, as compared segment by segment from the left (docs/SEMANTICS.md §3.1).
/// Higher is more specific. `end` is where a route stops while the URL stops too: it beats a
/// wildcard that matches zero segments and never competes with anything else.
package enum SegmentRank: UInt8 {
    case wildcard = 0
    case end = 1
    case parameter = 2
    case constraint = 3
    case partial = 4
    case literal = 5

    /// The rank of a parsed segment (a wildcard's is that of the path's tail).
    package init(_ segment: Segment) {
        switch segment {
        case .literal: self = .literal
        case .partial: self = .partial
        case .constrained: self = .constraint
        case .parameter: self = .parameter
        case .wildcard: self = .wildcard
        }
    }
}

/// One node of a segment trie. A node is reached by one edge from its parent: a literal segment,
/// a constraint, or a plain placeholder; its `kind` is that edge's rank. Stored in a flat buffer
/// and addressed by `UInt32` index; index 0 is a sentinel meaning "none".
struct TrieNode {
    /// Index of the parent node (0 for a table root). For a free node: the next free node.
    var parent: UInt32
    /// The plain-placeholder child (`:name` / `{name}`), or 0.
    var parameterChild: UInt32
    /// Head of this node's constraint edges (a linked list in ``TableSide/constraintEdges``), or 0.
    var firstConstraintEdge: UInt32
    /// Head of the variants that end exactly at this node, in insertion order, or 0.
    var firstTerminal: UInt32
    /// Head of the variants whose last segment is a wildcard following this node, or 0.
    var firstWildcard: UInt32
    /// Number of literal children (edges live in the table's literal hash index).
    var literalChildCount: UInt32
    /// For a literal edge: the decoded key bytes in ``TableSide/keys``.
    var keyOffset: UInt32
    var keyLength: UInt32
    /// Number of segments from the table root to this node.
    var depth: UInt16
    /// How the parent reaches this node (its ``SegmentRank`` raw value); the root has `end`.
    var kind: UInt8

    static let empty = TrieNode(parent: 0, parameterChild: 0, firstConstraintEdge: 0, firstTerminal: 0,
                                firstWildcard: 0, literalChildCount: 0, keyOffset: 0, keyLength: 0, depth: 0, kind: 0)

    /// True when nothing hangs below or ends at this node, so removal may prune it.
    var isBare: Bool {
        parameterChild == 0 && firstConstraintEdge == 0 && firstTerminal == 0 && firstWildcard == 0
            && literalChildCount == 0
    }
}

/// A slot of the literal-edge hash index: open addressing with linear probing, one index per
/// table side for every node, keyed by (parent node, decoded segment bytes).
struct LiteralSlot {
    /// Mixed hash of the parent index and the case-folded key; meaningless when `child == 0`.
    var hash: UInt32
    /// The child node reached by this literal, 0 for an empty slot.
    var child: UInt32
}

/// An edge guarded by a constraint. Edges of one node form a linked list.
struct ConstraintEdge {
    var child: UInt32
    /// Next edge of the same node, 0 at the end. For a free edge: the next free edge.
    var next: UInt32
    /// Built-in scanner code (see ``BuiltinCode``) or `regex` for a PCRE2 constraint.
    var code: UInt8
    /// The compiled PCRE2 pattern (an unretained `CompiledRegex`) for regex edges; kept alive by the router.
    var regex: UnsafeRawPointer?
}

/// Codes of the built-in constraints as stored in a ``ConstraintEdge``.
enum BuiltinCode: UInt8 {
    case int = 1, uint, float, uuid, alpha, alnum, hex, regex
    /// A partial segment; the edge's `regex` field points at its ``PartialTemplate``.
    case partial
}

/// One expansion of one registered route, attached to the node where it ends.
struct Variant {
    var routeID: UInt64
    /// Registration order of the route: earlier routes win ties.
    var sequence: UInt64
    /// Opaque per-route payload (the Swift router's value box); not touched by the trie.
    var payload: UnsafeMutableRawPointer?
    /// Interned parameter layout in pattern order (path parameters, then the wildcard's); immortal.
    var layout: UnsafePointer<NameTable.LayoutEntry>?
    var priority: Int32
    /// The node the variant hangs on.
    var node: UInt32
    /// Next variant in the same node list; for a free variant, the next free one.
    var next: UInt32
    /// Index of the route record in the router (for the pattern text and removal).
    var record: UInt32
    /// Host rule bytes in ``TableSide/keys`` (lower-cased; a suffix rule keeps its leading dot).
    var hostOffset: UInt32
    var hostLength: UInt32
    var nameCount: UInt16
    /// Which expansion of the route this is: ties between expansions follow expansion order.
    var expansion: UInt16
    /// ``HostRule/rank``: 2 exact, 1 suffix, 0 any.
    var hostRank: UInt8
    /// True when the variant's last segment is a wildcard (it hangs in `firstWildcard`).
    var endsWithWildcard: Bool
    /// True when some parameter is a slice of a partial segment, found by re-matching.
    var hasPartial: Bool
}

/// A scheme table's root. The global table's root is node 1.
struct SchemeEntry {
    var keyOffset: UInt32
    var keyLength: UInt32
    var root: UInt32
}
