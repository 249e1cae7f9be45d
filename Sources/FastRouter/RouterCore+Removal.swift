extension RouterCore {
    /// Removes every route with `id`; returns how many were removed.
    /// - Complexity: O(total pattern length of those routes) plus one grace period.
    @discardableResult
    package func remove(id: UInt64) -> Int {
        writer.withLock { state in
            let indexes = state.routes.indexes(withID: id)
            guard !indexes.isEmpty else { return 0 }
            let variants = indexes.flatMap { state.routes.variants(of: $0) }
            // Every expansion of a route carries the route's payload: read it from the first.
            let home = publishedSide
            let payloads = indexes.compactMap { home.variants[Int(state.routes.records[Int($0)].firstVariant)].payload }
            apply { side in for variant in variants { side.remove(variant: variant) } }
            let removed = state.routes.removeAll(withID: id)
            for (_, extras) in removed {
                for source in extras.regexSources {
                    state.regexes[source]!.uses -= 1
                    // No side references the regex any more and no reader is inside the old side.
                    if state.regexes[source]!.uses == 0 { state.regexes[source] = nil }
                }
                for key in extras.templateKeys {
                    state.templates[key]!.uses -= 1
                    if state.templates[key]!.uses == 0 { state.templates[key] = nil }
                }
            }
            // Both sides have dropped the routes: only readers' last results may still hold them.
            if state.releasePayload != nil { for payload in payloads { state.reclaimer.retire(payload) } }
            routeCount.subtract(removed.count, ordering: .relaxed)
            state.reclaimPayloads(router: tag)
            return removed.count
        }
    }
}
