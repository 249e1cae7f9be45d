/// Declines (docs/SEMANTICS.md §3.1): the next candidate after the current one, in the order of
/// the rules, from the version of the tables the lookup walked. A lookup that passed over a
/// candidate pinned that version; the first decline walks it again collecting every candidate,
/// later ones step through the list. ``Router/matches(_:)`` and ``Router/candidates(_:)`` collect
/// them all at once.
extension RouterCore {
    /// Collects every candidate of `input` (the reader is inside `roots`), makes the best one
    /// current and holds every payload until the caller moves on.
    func collectAll(_ input: WalkInput, _ scratch: MatchScratch, _ roots: TableRoots) -> LookupStatus {
        let state = scratch.state
        let walk = state.pointer(to: \.walk)!
        collect(input, scratch, roots)
        if walk.pointee.collected.count == 0 && walk.pointee.rejectedMethods != 0 {
            scratch.slot.exit(holding: false)
            countLimitHits(walk)
            state.pointee.clearCurrent()
            noteMethodNotAllowed(state, walk.pointee.rejectedMethods)
            return .methodNotAllowed
        }
        state.pointee.leftovers = true
        state.pointee.declineInput = input
        state.pointee.collectedVersion = roots.version
        state.pointee.pinned = true
        let collected = walk.pointee.collected
        if holdsPayloads && collected.count > 0 {
            scratch.slot.list(count: collected.count) { collected[$0].terminal.payload }
            scratch.slot.exit(holding: true)
        } else {
            scratch.slot.exit(holding: false)
        }
        countLimitHits(walk)
        guard collected.count > 0 else {
            state.pointee.clearCurrent()
            return .noMatch
        }
        state.pointee.core = Unmanaged.passUnretained(self)
        state.pointee.coreIdentity = identity
        state.pointee.collectedPosition = 0
        state.pointee.activate(collected[0].terminal, table: collected[0].table,
                               captures: walk.pointee.collectedCaptures.base + collected[0].captureStart, input: input,
                               payloads: holdsPayloads)
        return .found
    }

    /// Walks every table `input` may match in collecting mode and sorts what it found.
    private func collect(_ input: WalkInput, _ scratch: MatchScratch, _ roots: TableRoots) {
        let state = scratch.state
        let walk = state.pointer(to: \.walk)!
        walk.pointee.reserveCaptures(roots.maxCaptures)
        walk.pointee.reset()
        walk.pointee.clearCollected()
        walk.pointee.input = input
        let scheme = state.pointee.scheme
        if let scheme, let root = roots.root(forScheme: scheme, count: state.pointee.schemeLength) {
            walk.pointee.collectingTable = 0
            Walker(state: walk).visitCollecting(root, input.start)
        }
        if scheme == nil || options.globalFallback {
            walk.pointee.collectingTable = 1
            Walker(state: walk).visitCollecting(roots.global, input.start)
        }
        Self.sortCollected(walk)
    }

    /// Declines the current candidate of `scratch` and makes the next one current: the next
    /// candidate in the order of docs/SEMANTICS.md §3.1 in the version of the tables the lookup
    /// walked, which the lookup pinned when it passed over any candidate. The first decline walks
    /// that version again collecting every candidate; later ones step through the list.
    func decline(into scratch: MatchScratch) -> LookupStatus {
        let state = scratch.state
        guard let current = state.pointee.current, let input = state.pointee.declineInput else {
            scratch.clearResult()
            return .noMatch
        }
        let walk = state.pointer(to: \.walk)!
        if state.pointee.pinned {
            // A list collected in one version: step through it (its payloads are held).
            let position = state.pointee.collectedPosition + 1
            guard position < walk.pointee.collected.count else {
                scratch.clearResult()
                return .noMatch
            }
            let candidate = walk.pointee.collected[position]
            state.pointee.collectedPosition = position
            state.pointee.activate(candidate.terminal, table: candidate.table,
                                   captures: walk.pointee.collectedCaptures.base + candidate.captureStart, input: input,
                                   payloads: holdsPayloads)
            return .found
        }
        // The version the lookup walked, pinned since (see ``match(url:into:collectingAll:)``).
        guard let roots = state.pointee.pinnedRoots else {
            scratch.clearResult()
            return .noMatch
        }
        if state.pointee.collectedVersion != roots.version {
            collect(input, scratch, roots)
            state.pointee.collectedVersion = roots.version
            countLimitHits(walk)
        }
        let table = state.pointee.currentTable
        let collected = walk.pointee.collected
        let reference = current
        let head = walk.pointee.headOrder
        var next = -1
        for index in 0..<collected.count {
            let candidate = collected[index]
            if candidate.table > table
                || (candidate.table == table && Walker.precedes(reference, candidate.terminal, head: head)) {
                next = index
                break
            }
        }
        guard next >= 0 else {
            scratch.clearResult()
            scratch.slot.unpin()
            return .noMatch
        }
        let candidate = collected[next]
        state.pointee.activate(candidate.terminal, table: candidate.table,
                               captures: walk.pointee.collectedCaptures.base + candidate.captureStart, input: input,
                               payloads: holdsPayloads)
        return .found
    }

    /// Puts collected candidates in order: by table, then docs/SEMANTICS.md §3.1 (and §3.7's
    /// HEAD preference for a HEAD request), the order of the walk. Insertion sort: the lists
    /// are short.
    private static func sortCollected(_ walk: UnsafeMutablePointer<WalkState>) {
        let items = walk.pointee.collected.base
        let count = walk.pointee.collected.count
        let head = walk.pointee.headOrder
        guard count > 1 else { return }
        for index in 1..<count {
            let item = items[index]
            var position = index
            while position > 0 {
                let previous = items[position - 1]
                let before = item.table < previous.table
                    || (item.table == previous.table && Walker.precedes(item.terminal, previous.terminal, head: head))
                guard before else { break }
                items[position] = previous
                position -= 1
            }
            items[position] = item
        }
    }
}
