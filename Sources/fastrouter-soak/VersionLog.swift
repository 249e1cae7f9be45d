import Synchronization

/// What one slot holds at one version of the table: nothing, or the route with this id.
///
/// Slot kinds: `single` slots hold one route at a time (`/churn/S/{rN:int}` or the same with a
/// regex), `batch` slots hold two routes added in one batch under one id (`/batch/S/{aN:int}` at
/// priority 1 and `/batch/S/:bN`), so a lookup that sees one of them without the other has seen
/// half a batch. Parameter names (N) derive from the route id, so an answer shows which route
/// gave it.
struct SlotState: Equatable {
    var id: UInt64?
}

/// The writer's log of every slot's states, by version, shared with the readers' checks.
///
/// Versions count writer operations. The writer records a change before it starts it and bumps
/// `started`, then bumps `completed` when the router call returns, so a reader that saw
/// `completed == c` before a lookup and `started == s` after it must have seen the table as one
/// of the versions `c...s` left it.
final class VersionLog: @unchecked Sendable {
    private let lock = Mutex<[[(version: UInt64, state: SlotState)]]>([])
    let started = Atomic<UInt64>(0)
    let completed = Atomic<UInt64>(0)

    init(slots: Int) {
        lock.withLock { $0 = Array(repeating: [(0, SlotState(id: nil))], count: slots) }
    }

    /// Records that `slot` holds `state` from `version` on.
    func record(slot: Int, version: UInt64, state: SlotState) {
        lock.withLock { $0[slot].append((version, state)) }
    }

    /// Every state `slot` had at some version in `first...last`.
    func states(slot: Int, from first: UInt64, through last: UInt64) -> [SlotState] {
        lock.withLock { history in
            let entries = history[slot]
            // The state in force at `first` is the last entry at or before it.
            var result: [SlotState] = []
            var index = entries.count - 1
            while index > 0 && entries[index].version > last { index -= 1 }
            while index >= 0 {
                result.append(entries[index].state)
                if entries[index].version <= first { break }
                index -= 1
            }
            return result
        }
    }

    /// Drops history older than `version` (keeping the state in force then), so long runs stay
    /// flat; `version` must be at or below the oldest version a reader may still ask about.
    func prune(before version: UInt64) {
        lock.withLock { history in
            for slot in history.indices {
                guard let keep = history[slot].lastIndex(where: { $0.version <= version }), keep > 0 else { continue }
                history[slot].removeFirst(keep)
            }
        }
    }
}
