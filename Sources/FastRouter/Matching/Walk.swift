/// The path a walk reads (docs/ARCHITECTURE.md, "One lookup"): canonical bytes `/seg/seg...`
/// with no empty segment and no trailing `/`, either the caller's URL where it already is or,
/// on the slow path, a decoded copy. Offsets index both `bytes` and `values`.
struct WalkInput {
    /// What literals are compared with: the path as written, or decoded with a decoded `/`
    /// spelled NUL (see ``RouteVariant``).
    var bytes: UnsafePointer<UInt8>
    /// Where parameter values are read, at the same offsets: the same bytes, or the decoded
    /// path with its `/` restored.
    var values: UnsafePointer<UInt8>
    /// Where the path starts and ends.
    var start: Int
    var end: Int
    /// Bytes from `bytes` that may be loaded, past `end` included (a word load stays inside).
    var readable: Int
    /// Literal bytes before this offset compare ASCII case-insensitively: none, a custom
    /// scheme's host segment, or all of them (router option).
    var foldLimit: Int
    /// The URL's host for web schemes (compared case-insensitively), `nil` when it has none.
    var host: UnsafePointer<UInt8>?
    var hostLength: Int
    /// Where the bytes of a window of the path, from ``slashBase`` up to ``slashLimit`` (at most
    /// 64 bytes), end a segment: bit i for byte `slashBase + i` when it is a `/` or the path's
    /// end (``end`` itself, when the window reaches it). A segment's end is then one bit
    /// search (``Walker/slashes(after:)``), the last segment's too. The plain-path scan leaves
    /// the window of a path's first 64 bytes (``ScratchState/scanPlainPath(_:_:)``); any other
    /// input starts with an empty one, and the walk fills a window where it needs one
    /// (``searchSegmentEnd(from:)``).
    var slashes: UInt64
    var slashBase: Int
    var slashLimit: Int
    /// The segment ends the window shows after ``start`` (bit i for byte `start + 1 + i`), as
    /// the plain-path scan leaves them: where a table's walk begins, with no look at the window.
    /// 0 when no scan took them (the walk then reads the window, as for any `/` bits run out).
    var startAhead: UInt64 = 0

    /// What an input reads before a lookup has written one: no byte.
    static var nothing: UnsafePointer<UInt8> { UnsafePointer(bitPattern: 1).unsafelyUnwrapped }

    /// Where the segment that starts at `start` ends (its `/` or the path's end), when the
    /// window does not tell: windows are filled from `start` on until one does.
    @inline(never)
    mutating func searchSegmentEnd(from start: Int) -> Int {
        var from = start
        while true {
            findSlashes(from: from)
            // A window that reaches the path's end has its bit: a search always ends.
            if slashes != 0 { return from &+ slashes.trailingZeroBitCount }
            from = slashLimit
        }
    }

    /// Makes the window the path's bytes from `start` to 64 bytes on (or its end, whose bit it
    /// sets): sixteen at a time, the last block the buffer's last 16 bytes; one at a time only in
    /// a buffer shorter than 16.
    private mutating func findSlashes(from start: Int) {
        let limit = Swift.min(start &+ 64, end)
        var mask: UInt64 = 0
        var index = start
        while index < limit {
            if readable &- index >= 16 {
                let block = UnsafeRawPointer(bytes + index).loadUnaligned(as: SIMD16<UInt8>.self)
                mask |= UInt64(LaneMask.of(block .== SIMD16(repeating: 0x2F))) &<< UInt64(truncatingIfNeeded: index &- start)
                index &+= 16
            } else if readable >= 16 {
                // The buffer's last 16 bytes, which hold every byte left: the lanes before
                // `index` shifted out.
                let last = readable &- 16
                let block = UnsafeRawPointer(bytes + last).loadUnaligned(as: SIMD16<UInt8>.self)
                let lanes = UInt64(LaneMask.of(block .== SIMD16(repeating: 0x2F))) &>> UInt64(truncatingIfNeeded: index &- last)
                mask |= lanes &<< UInt64(truncatingIfNeeded: index &- start)
                break
            } else {
                if bytes[index] == 0x2F { mask |= 1 &<< UInt64(truncatingIfNeeded: index &- start) }
                index &+= 1
            }
        }
        // A block may run past the window's end (into a query, or a trailing '/').
        let span = limit &- start
        if span < 64 { mask = mask & ((1 &<< UInt64(truncatingIfNeeded: span)) &- 1) | 1 &<< UInt64(truncatingIfNeeded: span) }
        slashes = mask
        slashBase = start
        slashLimit = span < 64 ? limit &+ 1 : limit
    }
}

/// Where a parameter's value lies in ``WalkInput/values``.
@usableFromInline
struct Capture: BitwiseCopyable {
    @usableFromInline var start: Int32
    @usableFromInline var length: Int32
}

/// What a walk keeps between nodes: the captures of the path it is on and the best candidate so
/// far. Lives in the reader's scratch; a walk holds a pointer to it.
struct WalkState {
    /// The path the walk reads, written by the scan (``ScratchState/takePlainPath(_:end:slashes:options:)``,
    /// ``ScratchState/loadFullURL(_:options:)``) or a decline.
    var input = WalkInput(bytes: WalkInput.nothing, values: WalkInput.nothing, start: 0, end: 0, readable: 0,
                          foldLimit: 0, host: nil, hostLength: 0, slashes: 0, slashBase: 0, slashLimit: 0)
    /// Captures of the current path, one per parameter passed.
    var captures: UnsafeMutablePointer<Capture>
    var captureCount = 0
    var captureCapacity: Int
    /// The best candidate found, valid when `found`; its captures are in `bestCaptures`.
    ///
    /// Where it lies in its node, not a copy: a walk passes over candidates that lose far more
    /// often than it keeps one. Valid only while the reader is inside the lookup that found it
    /// (the published node it points into may be freed after), so the lookup copies it out
    /// before it leaves its slot.
    var best: UnsafePointer<Terminal>?
    var bestCaptures: UnsafeMutablePointer<Capture>
    /// Set when the walk passed over a candidate or a subtree that held some: only then can a
    /// decline find another candidate. Set too when a regex hit its match limit (``limitHits``):
    /// a lookup that found a route counts the hits only when this is set.
    var skipped = false
    /// Regex matches that hit PCRE2's limits.
    var limitHits = 0
    /// The bits of the methods a candidate must accept one of, in the router's ``MethodTable``:
    /// the request's method; HEAD's and GET's for a HEAD request with the fallback on (GET
    /// routes answer HEAD, docs/SEMANTICS.md §3.7); every bit for a lookup without a method
    /// (every route accepts one); 0 for a method the router has never seen (only routes for any
    /// method accept it). Set by each lookup and kept by ``reset()``, so that declines filter as
    /// their lookup did.
    var methodBit = UInt64.max
    /// For a HEAD request with the fallback on, HEAD's bit (0 when the router has never seen
    /// HEAD): among candidates of one shape, the routes naming HEAD come first (see
    /// ``Walker/precedes(_:_:head:)``). ``noHeadPreference`` for a lookup without a method and
    /// ``oneMethod`` for one with any other method (one store, where an optional and a flag take
    /// three). Kept by ``reset()`` like ``methodBit``, so that declines order as their lookup did.
    var headPreference = noHeadPreference
    /// ``headPreference`` of a lookup without a method: never a method's bit (a bit is 0 or a
    /// power of two).
    static let noHeadPreference = UInt64.max
    /// ``headPreference`` of a lookup with a method that is not a HEAD request with the fallback
    /// on: it takes at most one of the routes of a path that differ by method (see
    /// ``Walker/atEnd``). Never a method's bit either.
    static let oneMethod = UInt64.max &- 1
    /// ``headPreference`` as ``Walker/precedes(_:_:head:)`` takes it.
    var headOrder: UInt64? { headPreference >= Self.oneMethod ? nil : headPreference }
    /// The methods of the routes that matched the URL but not the method: the `Allow` value
    /// when no route accepts it.
    var rejectedMethods: UInt64 = 0
    /// The best key of the table being walked (its root's ``Node/maxKey``), set where each
    /// table's walk starts: a best of this key loses only to a branch of a higher rank
    /// (``Walker/shouldVisit``).
    var ceilingKey = Int64.max
    /// Every candidate of a full walk (``Walker/visitCollecting(_:_:)``, see ``Walker/collect``).
    var collected = FlatBuffer<CollectedCandidate>(capacity: 4)
    var collectedCaptures = FlatBuffer<Capture>(capacity: 8)
    /// Which table a full walk is collecting from: 0 the scheme's, 1 the global one.
    var collectingTable = 0
    /// The reader's PCRE2 match data (owned by its ``MatchScratch``), for regex constraints.
    unowned(unsafe) let regexScratch: RegexScratch

    init(regexScratch: RegexScratch) {
        self.regexScratch = regexScratch
        captureCapacity = 16
        (captures, bestCaptures) = Self.allocateCaptures(captureCapacity)
    }

    /// Two capture buffers of `capacity` (at least four), zeroed: the walk copies four captures
    /// at a time whatever their count (see ``Walker/copyCaptures``).
    private static func allocateCaptures(_ capacity: Int) -> (UnsafeMutablePointer<Capture>, UnsafeMutablePointer<Capture>) {
        let first = UnsafeMutablePointer<Capture>.allocate(capacity: capacity)
        let second = UnsafeMutablePointer<Capture>.allocate(capacity: capacity)
        first.initialize(repeating: Capture(start: 0, length: 0), count: capacity)
        second.initialize(repeating: Capture(start: 0, length: 0), count: capacity)
        return (first, second)
    }

    func deallocate() {
        captures.deallocate()
        bestCaptures.deallocate()
        collected.deallocate()
        collectedCaptures.deallocate()
    }

    /// Makes room for `count` captures (a route's parameters); allocates only when it grows.
    @inline(__always)
    mutating func reserveCaptures(_ count: Int) {
        guard count > captureCapacity else { return }
        captures.deallocate()
        bestCaptures.deallocate()
        captureCapacity = Swift.max(count, captureCapacity * 2)
        (captures, bestCaptures) = Self.allocateCaptures(captureCapacity)
    }

    /// Forgets the last walk's best and counts. A collected list is ``ScratchState/leftovers``
    /// and cleared with them (``clearCollected()``). ``captureCount`` is set to 0 as each table's
    /// walk starts (``Walker/visit(_:_:)``, ``Walker/visitAfterPrefix(_:)``), and ``limitHits``
    /// is 0 after every count of them (``RouterCore/countLimitHits(_:)``), so neither is written
    /// here.
    @inline(__always)
    mutating func reset() {
        best = nil
        skipped = false
        rejectedMethods = 0
    }

    /// Forgets the candidates of a full walk (see ``collected``).
    mutating func clearCollected() {
        collected.removeAll()
        collectedCaptures.removeAll()
    }
}

/// A candidate of a full walk (see ``Walker/collect``): its terminal, which table it came from
/// (0: the scheme's, 1: the global one) and its captures in ``WalkState/collectedCaptures``.
struct CollectedCandidate {
    var terminal: Terminal
    var table: Int
    var captureStart: Int
}

/// One walk of one table for one URL (docs/SEMANTICS.md §3.1): depth first, trying what may
/// follow each node in the order of precedence, so the first candidate found is usually the
/// best, and passing over any subtree that cannot beat the best found so far. A subtree is
/// passed over when its best priority and host rank (``Node/maxKey``) are below the best's, or
/// equal while a sibling of higher rank at the same segment produced the best: every candidate
/// below ties with the best before this segment and loses at it.
///
/// Reads the tree through plain pointers, records parameters as offsets, allocates nothing.
struct Walker {
    let state: UnsafeMutablePointer<WalkState>

    /// What the walk reads: ``WalkState/input``, where the scan wrote it (not a copy: a lookup
    /// writes its input once).
    @inline(__always) var input: WalkInput { state.pointee.input }

    // MARK: Visiting

    /// Walks the subtree of `start`, which stands for the path up to `position` (the `/` of the
    /// next segment, or the path's end).
    func visit(_ start: Node, _ position: Int) {
        // A table's walk starts with no capture (``WalkState/captureCount``); reset first, so
        // that the walk is this function's last call.
        state.pointee.captureCount = 0
        state.pointee.ceilingKey = start.maxKey
        if input.foldLimit == 0 {
            visit(start, position, input.startAhead, ExactBytes.self)
        } else {
            visit(start, position, input.startAhead, SomeFoldedBytes.self)
        }
    }

    /// ``visit(_:_:)`` of the global table of `roots` from the path's start (``WalkInput/start``).
    /// Most tables have no prefix (``TableRoots/prefixLength``): their walk starts at the root at
    /// once, and only the rest pay a call for the prefix's test.
    @inline(__always)
    func visitGlobal(_ roots: TableRoots) {
        if roots.prefixLength == 0 {
            visit(roots.global, input.start)
        } else {
            visitAfterPrefix(roots)
        }
    }

    /// ``visitGlobal(_:)`` for a table whose routes all begin with the same literal segments:
    /// a path that starts with the ``TableRoots/prefixWord`` goes on from the node after it,
    /// the prefix compared as one word instead of a step per segment; one that does not matches
    /// no route of the table (see ``TableRoots/commonPrefix(of:)``). The folded walk, and a path
    /// with fewer than 8 bytes to read from its start, walk from the root.
    @inline(never)
    func visitAfterPrefix(_ roots: TableRoots) {
        let length = roots.prefixLength, position = input.start
        guard input.foldLimit == 0 && position &+ 8 <= input.readable else {
            visit(roots.global, position)
            return
        }
        let bytes = input.bytes, end = input.end
        let word = UnsafeRawPointer(bytes + position).loadUnaligned(as: UInt64.self)
        let after = position &+ length
        // The prefix ends where a segment does: at a `/`, or at the path's end (bytes past it
        // may be anything: a query, or what a slow path's buffer held before).
        guard word & roots.prefixMask == roots.prefixWord,
              after < end ? bytes[after] == 0x2F : after == end else { return }
        state.pointee.captureCount = 0
        state.pointee.ceilingKey = roots.prefixNode.maxKey
        // The segment ends after the prefix: the start's window shifted past it (a window that
        // shows none is searched again by the walk).
        visit(roots.prefixNode, after, input.startAhead &>> UInt64(truncatingIfNeeded: length), ExactBytes.self)
    }

    /// ``visit(_:_:)`` for a full walk, which collects every candidate (see
    /// ``WalkState/collected``) instead of keeping the best: the walk of a first decline.
    @inline(never)
    func visitCollecting(_ start: Node, _ position: Int) {
        state.pointee.captureCount = 0
        visit(start, position, input.startAhead, CollectingEvery.self)
    }

    /// ``visit(_:_:)`` specialised for whether any byte compares folded: the common exact walk
    /// never tests ``WalkInput/foldLimit``.
    ///
    /// `ahead`: the segment ends after `position` (``slashes(after:)``, or the scan's
    /// ``WalkInput/startAhead`` at a table's start; 0 reads the window).
    ///
    /// One segment per turn: find its end (the walk's own bits, shifted on from `ahead`),
    /// then, at a node with literal children, its child: a lone child's label compared here, a
    /// segment of up to 16 bytes searched here in the index's first two blocks
    /// (``Node/blockChild(_:block:head:length:path:)``), any other in
    /// ``Node/literalChild(in:start:end:readable:)``. A node
    /// with nothing dynamic goes on to that child without recursion; one with branches tries
    /// them (``visitBranches``), and goes on to the placeholder child, when that is the last
    /// branch, also without recursion. Captures pushed on the way are left for the caller, which
    /// restores its count.
    private func visit<Mode: WalkMode>(_ start: Node, _ position: Int, _ ahead: UInt64, _ mode: Mode.Type) {
        var node = start
        var position = position
        var ahead = ahead
        while true {
            if position == input.end {
                atEnd(node, mode)
                return
            }
            // A leaf has nothing to follow: the steps below find no way on, so it needs no test.
            let flags = node.flags
            let start = position &+ 1
            // The segment's end: the next `/` the window shows, else the end of the path or a
            // search past the window.
            let end: Int
            if ahead != 0 {
                let length = ahead.trailingZeroBitCount
                end = start &+ length
                ahead = (ahead &>> UInt64(truncatingIfNeeded: length)) &>> 1
            } else {
                end = segmentEndPastWindow(from: start, ahead: &ahead)
            }
            let next: Node?
            if Mode.folds && position < input.foldLimit {
                next = visitBranches(node, position, end, literal: nil, folded: true, mode)
            } else if flags & (Node.indexedFlag | Node.singleLiteralFlag | Node.chunkedFlag) == 0 {
                // No literal child: the placeholder alone, else the branches (a leaf has none).
                if flags & Node.onlyParameterFlag != 0 {
                    next = placeholder(of: node, start, end, mode)
                } else if flags & Node.dynamicFlag != 0 {
                    next = visitBranches(node, position, end, literal: nil, folded: false, mode)
                } else {
                    return
                }
            } else {
                var literal: Node? = nil
                let bytes = input.bytes, readable = input.readable, length = end &- start
                if flags & Node.indexedFlag != 0 && length <= 16 {
                    let head = SegmentHash.head(bytes, from: start, end: end, readable: readable)
                    // The common case in the loop itself: a segment of up to two words,
                    // its first one loaded in one go, searched in the first two blocks of
                    // tags (a site's first level, or a resource's dozens of actions).
                    let target = SegmentHash.tagLanes(head: head, length: length), path = UnsafeRawPointer(bytes + start)
                    literal = node.blockChild(target, block: 0, head: head, length: length, path: path)
                    if literal == nil && node.indexCount > LiteralChildren.tagBlock {
                        literal = node.blockChild(target, block: LiteralChildren.tagBlock, head: head, length: length, path: path)
                        if literal == nil && node.indexCount > 2 &* LiteralChildren.tagBlock {
                            literal = node.laterBlockChild(target, from: 2 &* LiteralChildren.tagBlock, head: head,
                                                           length: length, path: path)
                        }
                    }
                } else if flags & Node.singleLiteralFlag != 0 && length <= 8 {
                    let head = SegmentHash.head(bytes, from: start, end: end, readable: readable)
                    // A lone child: its label compared, no tag.
                    let child = node.indexedChild(at: 0)
                    if child.labelHead == head && child.labelLength == length { literal = child }
                } else {
                    literal = node.literalChild(in: bytes, start: start, end: end, readable: readable)
                }
                if flags & Node.dynamicFlag == 0 {
                    // A single way on.
                    next = literal
                } else if literal == nil && flags & Node.onlyParameterFlag != 0 {
                    next = placeholder(of: node, start, end, mode)
                } else {
                    next = visitBranches(node, position, end, literal: literal, folded: false, mode)
                }
            }
            guard let next else { return }
            node = next
            position = end
        }
    }

    /// The placeholder child of `node`, whose only dynamic branch it is (``Node/onlyParameter``),
    /// for the segment `[start, end)`, its capture pushed; `nil` when it cannot beat the best
    /// so far. The walk goes on with it without recursion.
    @inline(__always)
    private func placeholder<Mode: WalkMode>(of node: Node, _ start: Int, _ end: Int, _ mode: Mode.Type) -> Node? {
        let child = node.onlyParameterChild
        guard shouldVisit(child.maxKey, rank: SegmentRank.parameter.rawValue, bestRank: 0, mode) else { return nil }
        push(Capture(start: Int32(truncatingIfNeeded: start), length: Int32(truncatingIfNeeded: end &- start)))
        return child
    }

    /// The node of `paths` whose path is `bytes[0..<end]` (`readable`: the bytes that may be
    /// loaded), the path not empty; `nil` when the table has none. A function of its own, so
    /// that `make perf` counts it as a lookup's walk.
    @inline(never)
    static func visitPath(_ paths: StaticPaths, _ bytes: UnsafePointer<UInt8>, end: Int, readable: Int) -> Node? {
        // A buffer of under a word is read byte by byte (``SegmentHash/partialWord(_:at:end:)``),
        // in a call of its own: this one then calls nothing and saves no register.
        guard readable >= 8 else { return visitShortPath(paths, bytes, end: end, readable: readable) }
        return paths.node(path: bytes, end: end, readable: readable)
    }

    /// ``visitPath(_:_:end:readable:)`` in a buffer of under 8 bytes.
    @inline(never)
    private static func visitShortPath(_ paths: StaticPaths, _ bytes: UnsafePointer<UInt8>, end: Int, readable: Int) -> Node? {
        paths.node(path: bytes, end: end, readable: readable)
    }

    /// Walks a table without dynamic routes by its ``StaticPaths``: the node the whole path
    /// spells, found with one hash and one probe, and its routes weighed as at the end of a
    /// walk (``atEnd(_:_:)``), which is what ``visit(_:_:)`` would find. The input's path is not
    /// empty and compares exactly (no folded byte).
    @inline(never)
    func visitPath(_ paths: StaticPaths) {
        let bytes = state.pointee.input.bytes, start = state.pointee.input.start, end = state.pointee.input.end
        let key = StaticPathKey(bytes, from: start, end: end, readable: state.pointee.input.readable)
        guard let node = paths.node(key: key, path: UnsafeRawPointer(bytes + start), length: end &- start) else { return }
        // ``atEnd(_:_:)`` without its wildcards: a table without dynamic routes has none, nor any
        // capture to copy.
        var terminal = node.terminalAddress(at: 0)
        let terminalsEnd = terminal + node.terminalCount
        while terminal < terminalsEnd {
            consider(terminal, extra: nil, captures: false, ExactBytes.self)
            terminal += 1
        }
    }

    /// The segment ends (`/` or the path's end) the input's window shows after `position`: bit
    /// i for byte `position + 1 + i` (0 when the window does not reach past it). A walk takes
    /// each segment's end from them with one bit search, and shifts them on.
    @inline(__always)
    private func slashes(after position: Int) -> UInt64 {
        let input = state.pointee.input
        let offset = position &+ 1 &- input.slashBase
        guard UInt(bitPattern: offset) < UInt(bitPattern: input.slashLimit &- input.slashBase) else { return 0 }
        return input.slashes &>> UInt64(truncatingIfNeeded: offset)
    }

    /// Where the segment that starts at `start` ends when the walk's own bits (`ahead`) show no
    /// end after it: the input's window may have moved since they were taken (a branch searched
    /// past it), so it is read again; else a search moves the window. Leaves in `ahead` the
    /// segment ends it shows after the segment.
    @inline(__always)
    private func segmentEndPastWindow(from start: Int, ahead: inout UInt64) -> Int {
        let input = state.pointee.input
        let offset = start &- input.slashBase
        if UInt(bitPattern: offset) < UInt(bitPattern: input.slashLimit &- input.slashBase) {
            let bits = input.slashes &>> UInt64(truncatingIfNeeded: offset)
            if bits != 0 {
                let length = bits.trailingZeroBitCount
                ahead = (bits &>> UInt64(truncatingIfNeeded: length)) &>> 1
                return start &+ length
            }
        }
        let end = state.pointee.input.searchSegmentEnd(from: start)
        ahead = slashes(after: end)
        return end
    }

    /// Tries what may follow `node` for the segment after `position` (its `/`), best rank first
    /// (docs/SEMANTICS.md §3.1): the literal child, the edges, the placeholder, the wildcards.
    /// Returns the placeholder child, its capture pushed, when it is the last branch to try: the
    /// caller goes on with it.
    private func visitBranches<Mode: WalkMode>(_ node: Node, _ position: Int, _ segmentEnd: Int, literal: Node?,
                                               folded: Bool, _ mode: Mode.Type) -> Node? {
        // A branch produced the best when the best changed under it: the best only ever moves
        // to a candidate that precedes it, never back to one it held.
        let bestBefore = state.pointee.best
        // The rank of the branch under which the best was found at this node, 0 for none.
        var bestRank: UInt8 = 0
        let start = position &+ 1
        if folded {
            visitFoldedLiterals(node, start, segmentEnd, mode)
            if state.pointee.best != bestBefore { bestRank = SegmentRank.literal.rawValue }
        } else if let literal {
            let saved = state.pointee.captureCount
            visit(literal, segmentEnd, slashes(after: segmentEnd), mode)
            state.pointee.captureCount = saved
            if state.pointee.best != bestBefore { bestRank = SegmentRank.literal.rawValue }
        }
        let edgeCount = node.edgeCount
        if edgeCount != 0 {
            for index in 0..<edgeCount {
                let edge = node.edge(at: index)
                let rank = edge.rank.rawValue
                guard shouldVisit(edge.child.maxKey, rank: rank, bestRank: bestRank, mode) else { continue }
                let before = state.pointee.best
                let saved = state.pointee.captureCount
                if accepts(edge, start, segmentEnd) { visit(edge.child, segmentEnd, slashes(after: segmentEnd), mode) }
                state.pointee.captureCount = saved
                if state.pointee.best != before { bestRank = rank }
            }
        }
        let wildcards = node.wildcardCount
        if node.hasParameter {
            let child = node.parameterChild
            if shouldVisit(child.maxKey, rank: SegmentRank.parameter.rawValue, bestRank: bestRank, mode) {
                let capture = Capture(start: Int32(truncatingIfNeeded: start),
                                      length: Int32(truncatingIfNeeded: segmentEnd &- start))
                if wildcards == 0 {
                    push(capture)
                    return child
                }
                let before = state.pointee.best
                let saved = state.pointee.captureCount
                push(capture)
                visit(child, segmentEnd, slashes(after: segmentEnd), mode)
                state.pointee.captureCount = saved
                if state.pointee.best != before { bestRank = SegmentRank.parameter.rawValue }
            }
        }
        if wildcards != 0 {
            // The rest of the path, without its leading '/'.
            let rest = Capture(start: Int32(truncatingIfNeeded: start),
                               length: Int32(truncatingIfNeeded: input.end &- start))
            let first = node.terminalCount
            for index in first..<(first &+ wildcards) {
                let terminal = node.terminalAddress(at: index)
                guard shouldVisit(terminal.pointee.key, rank: SegmentRank.wildcard.rawValue, bestRank: bestRank, mode) else { continue }
                let before = state.pointee.best
                consider(terminal, extra: rest, mode)
                // A later wildcard of the same key may still come first (a HEAD request prefers
                // the route naming HEAD): compare it with the best by rank, not with a better
                // branch's rank left from before.
                if state.pointee.best != before { bestRank = SegmentRank.wildcard.rawValue }
            }
        }
        return nil
    }

    /// The literal children of `node` whose labels equal the segment `[start, end)` compared
    /// folded: several may (`/A` and `/a` are distinct routes), so each is tried, by a scan of
    /// the children (the rare path: a custom scheme's host, or the case-insensitive option).
    @inline(never)
    private func visitFoldedLiterals<Mode: WalkMode>(_ node: Node, _ start: Int, _ end: Int, _ mode: Mode.Type) {
        let length = end &- start
        node.forEachLiteral { child in
            if child.labelLength == length && child.withLabel({ foldedEqual($0, start, length) }) {
                let saved = state.pointee.captureCount
                visit(child, end, slashes(after: end), mode)
                state.pointee.captureCount = saved
            }
        }
    }

    /// The URL ends at `node`: the routes ending here, then the wildcards matching nothing.
    @inline(__always)
    private func atEnd<Mode: WalkMode>(_ node: Node, _ mode: Mode.Type) {
        // The commonest end: one route, no wildcard.
        if node.hasOneTerminalOnly {
            // In a lookup without a method, a route without a host rule takes the URL: its
            // shape is not read, a load the walk's end would wait for.
            let accepted = state.pointee.methodBit == .max && node.terminalTraits & Node.noHostRuleTrait != 0
            consider(node.terminalAddress(at: 0), extra: nil, accepted: accepted, mode)
            return
        }
        if !Mode.collects && node.hasOneTerminalPerMethod && state.pointee.headPreference == WalkState.oneMethod {
            // Routes of one path that differ by method (docs/SEMANTICS.md §3.7): a lookup for
            // one method takes at most one of them, found by its methods alone. (Without a
            // method each is a candidate; a HEAD request may take two.) There are two or more
            // (``Node/haveOneTerminalPerMethod``), and none accepts any method: with one key and
            // no host rule, such a route would be a duplicate of the others (docs/SEMANTICS.md
            // §3.7; `TreeInvariants` checks it after every change).
            let methodBit = state.pointee.methodBit
            var terminal = node.terminalAddress(at: 0)
            var left = node.terminalCount
            repeat {
                if terminal.pointee.shape.pointee.methods & methodBit != 0 {
                    consider(terminal, extra: nil, accepted: true, mode)
                    return
                }
                terminal += 1
                left &-= 1
            } while left != 0
            // None does: what they accept is what a 405 allows (see ``consider``).
            noteRejected(node)
            return
        }
        atEndOfMany(node, mode)
    }

    /// Notes the methods of `node`'s terminals as what a 405 allows: none took the method.
    @inline(never)
    private func noteRejected(_ node: Node) {
        for index in 0..<node.terminalCount {
            state.pointee.rejectedMethods |= node.terminalAddress(at: index).pointee.shape.pointee.methods
        }
    }

    /// ``atEnd(_:_:)`` at any other node: out of the walk's loop, which keeps its registers for
    /// the steps.
    @inline(never)
    private func atEndOfMany<Mode: WalkMode>(_ node: Node, _ mode: Mode.Type) {
        // The terminals, then the wildcards, lie side by side: walked by pointer, since a
        // candidate's bookkeeping writes memory the compiler cannot tell from the node's.
        var terminal = node.terminalAddress(at: 0)
        let terminalsEnd = terminal + node.terminalCount
        while terminal < terminalsEnd {
            consider(terminal, extra: nil, mode)
            terminal += 1
        }
        let wildcards = node.wildcardCount
        if wildcards != 0 {
            let empty = Capture(start: Int32(truncatingIfNeeded: input.end), length: 0)
            let wildcardsEnd = terminal + wildcards
            while terminal < wildcardsEnd {
                consider(terminal, extra: empty, mode)
                terminal += 1
            }
        }
    }

    /// Whether a branch of `rank` whose best key is `maxKey` may hold a candidate better than
    /// the best so far; notes a branch passed over.
    ///
    /// `maxKey` is read only when the ranks leave the answer open: a branch that ranks below
    /// the best's, under a best whose key no route of the table beats (``WalkState/ceilingKey``,
    /// the usual case: a table without priorities or host rules has one key), is passed over
    /// without touching its child, which at a million routes is a cache miss per branch.
    @inline(__always)
    private func shouldVisit<Mode: WalkMode>(_ maxKey: @autoclosure () -> Int64, rank: UInt8, bestRank: UInt8,
                                             _ mode: Mode.Type) -> Bool {
        guard !Mode.collects, let best = state.pointee.best else { return true }
        let bestKey = best.pointee.key
        if rank >= bestRank || bestKey < state.pointee.ceilingKey {
            let maxKey = maxKey()
            if maxKey > bestKey || (maxKey == bestKey && rank >= bestRank) { return true }
        }
        state.pointee.skipped = true
        return false
    }

    /// A candidate reached: kept when it beats the best so far (or collected).
    /// `accepted`: the caller found the route's host rule and methods satisfied already.
    @inline(__always)
    private func consider<Mode: WalkMode>(_ terminal: UnsafePointer<Terminal>, extra: Capture?, captures: Bool = true,
                                          accepted: Bool = false, _ mode: Mode.Type) {
        let state = self.state
        if !accepted {
            let shape = terminal.pointee.shape
            if shape.pointee.hostRank != 0 && !hostMatches(shape) { return }
            // The method last: a route that matches all but the method names what a 405 allows.
            let methods = shape.pointee.methods
            if methods & state.pointee.methodBit == 0 && !shape.pointee.anyMethod {
                state.pointee.rejectedMethods |= methods
                return
            }
        }
        if Mode.collects {
            collect(terminal, extra: extra)
            return
        }
        if let best = state.pointee.best {
            guard Self.precedes(terminal.pointee, best.pointee, head: state.pointee.headOrder) else {
                state.pointee.skipped = true
                return
            }
            state.pointee.skipped = true
        }
        state.pointee.best = terminal
        let count = captures ? state.pointee.captureCount : 0
        if count != 0 { Self.copyCaptures(count, from: state.pointee.captures, to: state.pointee.bestCaptures) }
        if let extra { state.pointee.bestCaptures[count] = extra }
    }

    /// Appends a candidate of a full walk (see ``WalkState/collected``) with its captures. Out
    /// of the way of ``consider(_:extra:captures:accepted:_:)``, which every lookup runs.
    @inline(never)
    private func collect(_ terminal: UnsafePointer<Terminal>, extra: Capture?) {
        let start = state.pointee.collectedCaptures.count
        let count = state.pointee.captureCount
        if count != 0 {
            let out = state.pointee.collectedCaptures.extend(by: count)
            out.update(from: state.pointee.captures, count: count)
        }
        if let extra { state.pointee.collectedCaptures.append(extra) }
        state.pointee.collected.append(CollectedCandidate(terminal: terminal.pointee, table: state.pointee.collectingTable, captureStart: start))
    }

    /// True when `lhs` comes before `rhs` for a URL both match: priority and host rank, segment
    /// ranks, then registration and expansion order (docs/SEMANTICS.md §3.1). For a HEAD request
    /// with the fallback on, `head` is HEAD's bit (``WalkState/headOrder``, `nil` for every
    /// other lookup): between two routes of the same shape, the one naming HEAD comes before
    /// registration order decides (§3.7), so that a later HEAD route is not hidden by a GET route
    /// of its shape. Ranks decide first, so pruning by key and rank (``shouldVisit``) stays exact.
    static func precedes(_ lhs: Terminal, _ rhs: Terminal, head: UInt64?) -> Bool {
        let left = lhs.key, right = rhs.key
        if left != right { return left > right }
        let leftShape = lhs.shape.pointee, rightShape = rhs.shape.pointee
        let count = Swift.min(leftShape.rankCount, rightShape.rankCount)
        for index in 0..<count where leftShape.ranks[index] != rightShape.ranks[index] {
            return leftShape.ranks[index] > rightShape.ranks[index]
        }
        if let head {
            let leftNames = leftShape.names(head), rightNames = rightShape.names(head)
            if leftNames != rightNames { return leftNames }
        }
        if lhs.sequence != rhs.sequence { return lhs.sequence < rhs.sequence }
        return leftShape.expansion < rightShape.expansion
    }

    /// Copies the first `count` captures: up to four (most routes) as two 16-byte moves, more
    /// with a call. Both buffers hold at least four, all initialized (``WalkState/init()``).
    @inline(__always)
    private static func copyCaptures(_ count: Int, from source: UnsafeMutablePointer<Capture>,
                                     to target: UnsafeMutablePointer<Capture>) {
        guard count <= 4 else {
            target.update(from: source, count: count)
            return
        }
        let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(target)
        to.storeBytes(of: from.load(as: SIMD2<UInt64>.self), as: SIMD2<UInt64>.self)
        to.storeBytes(of: from.load(fromByteOffset: 16, as: SIMD2<UInt64>.self), toByteOffset: 16, as: SIMD2<UInt64>.self)
    }

    @inline(__always)
    private func push(_ capture: Capture) {
        let count = state.pointee.captureCount
        state.pointee.captures[count] = capture
        state.pointee.captureCount = count &+ 1
    }

    // MARK: Segments

    /// Whether `edge` accepts the segment `[start, end)`; pushes its captures when it does.
    @inline(never)
    private func accepts(_ edge: Edge, _ start: Int, _ end: Int) -> Bool {
        unowned(unsafe) let regexScratch = state.pointee.regexScratch
        let segment = UnsafeBufferPointer(start: input.values + start, count: end &- start)
        if edge.code == BuiltinCode.partial.rawValue {
            let template = Unmanaged<PartialTemplate>.fromOpaque(edge.matcher.unsafelyUnwrapped)
            return template._withUnsafeGuaranteedRef { template in
                let count = template.parameterCount
                return withUnsafeTemporaryAllocation(of: ParamSlot.self, capacity: count) { slots in
                    let hitsBefore = state.pointee.limitHits
                    let matched = template.match(segment, folded: start < input.foldLimit, regexScratch: regexScratch,
                                                 limitHits: &state.pointee.limitHits, captures: slots.baseAddress,
                                                 segmentIndex: 0)
                    if state.pointee.limitHits != hitsBefore { state.pointee.skipped = true }
                    guard matched else { return false }
                    for index in 0..<count {
                        push(Capture(start: Int32(truncatingIfNeeded: start) &+ slots[index].offset,
                                     length: slots[index].length))
                    }
                    return true
                }
            }
        }
        let accepted: Bool
        if let regex = edge.matcher {
            switch Unmanaged<CompiledRegex>.fromOpaque(regex)._withUnsafeGuaranteedRef({ $0.match(segment, scratch: regexScratch) }) {
            case .matched: accepted = true
            case .failed: accepted = false
            case .limitExceeded:
                state.pointee.limitHits &+= 1
                state.pointee.skipped = true
                accepted = false
            }
        } else {
            accepted = BuiltinCode.scan(edge.code, segment)
        }
        if accepted { push(Capture(start: Int32(truncatingIfNeeded: start), length: Int32(truncatingIfNeeded: end &- start))) }
        return accepted
    }

    // MARK: Comparing

    /// Whether the `length` bytes at `position` equal `prefix`, those before
    /// ``WalkInput/foldLimit`` compared ASCII case-insensitively.
    @inline(never)
    private func foldedEqual(_ prefix: UnsafePointer<UInt8>, _ position: Int, _ length: Int) -> Bool {
        for offset in 0..<length {
            let byte = input.bytes[position &+ offset]
            if position &+ offset < input.foldLimit {
                if ASCII.lowercased(byte) != ASCII.lowercased(prefix[offset]) { return false }
            } else if byte != prefix[offset] {
                return false
            }
        }
        return true
    }

    /// Whether the URL's host satisfies a host rule (docs/SEMANTICS.md §3.2).
    private func hostMatches(_ shape: UnsafePointer<TerminalShape>) -> Bool {
        guard let host = input.host, let rule = shape.pointee.host else { return false }
        let ruleLength = shape.pointee.hostLength
        if shape.pointee.hostRank == HostRule.exact("").rank {
            return input.hostLength == ruleLength && ByteComparison.equal(rule, host, ruleLength, folded: true)
        }
        // A suffix rule ".example.com" needs at least one label before it.
        return input.hostLength > ruleLength
            && ByteComparison.equal(rule, host + (input.hostLength - ruleLength), ruleLength, folded: true)
    }
}

/// What a walk does besides comparing exactly: whether it may meet bytes that compare ASCII
/// case-insensitively (see ``WalkInput/foldLimit``), and whether it collects every candidate
/// instead of keeping the best (a decline's full walk). Each walk is specialised for its mode, so
/// the walk of a lookup tests neither.
protocol WalkMode {
    static var folds: Bool { get }
    static var collects: Bool { get }
}

/// Every byte compares exactly: the walk of most URLs.
enum ExactBytes: WalkMode {
    static var folds: Bool { false }
    static var collects: Bool { false }
}

/// Some bytes compare folded: a custom scheme's host, or every literal under the router option.
enum SomeFoldedBytes: WalkMode {
    static var folds: Bool { true }
    static var collects: Bool { false }
}

/// A full walk, collecting every candidate, for any input (it tests ``WalkInput/foldLimit``).
enum CollectingEvery: WalkMode {
    static var folds: Bool { true }
    static var collects: Bool { true }
}
