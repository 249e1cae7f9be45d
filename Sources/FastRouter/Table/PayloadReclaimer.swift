/// Releases the payloads of removed routes once no reader can still hand them out: epoch-based
/// reclamation in batches, one grace period per batch.
///
/// Retired payloads collect in the open batch. When no batch is waiting, the open one is sealed
/// together with the readers that might hold something at that moment (see
/// ``ReaderRegistry/holders(of:into:)``); readers that hold nothing are not waited for at all, so
/// an idle thread never delays reclamation. A sealed batch is released once none of its readers
/// is still inside the lookup it was in (``ReaderRegistry/stillHeld(by:into:)``); the payloads
/// an idle holder listed as its own go back to the open batch, to be sealed again with a fresh
/// snapshot of the readers, so a reader idling on a result holds back only that result. Each
/// writer operation checks only the one sealed batch: retiring costs O(1) amortized per payload
/// (plus the few held ones, re-examined while held) and O(readers) per operation, and never
/// waits for anyone.
struct PayloadReclaimer: ~Copyable {
    private var open: [UnsafeMutableRawPointer] = []
    private var sealed: [UnsafeMutableRawPointer] = []
    /// The readers the sealed batch waits for, with what each had announced at sealing.
    private var holders: [(slot: ReaderSlot, seen: UInt64)] = []
    /// Payloads the sealed batch's idle readers still hold (reused between operations).
    private var held: [UInt] = []

    /// Payloads retired and not yet released.
    var pendingCount: Int { open.count + sealed.count }

    /// Adds payloads no published table references any more.
    mutating func retire(_ payload: UnsafeMutableRawPointer) {
        open.append(payload)
    }

    /// Releases the sealed batch if its grace period is over, then seals the open batch.
    /// A batch sealed while no reader holds anything is released at once.
    mutating func advance(router: UInt, release: (UnsafeMutableRawPointer) -> Void) {
        if !sealed.isEmpty {
            guard ReaderRegistry.stillHeld(by: holders, into: &held) else { return }
            if held.isEmpty {
                releaseSealed(release)
            } else {
                for payload in sealed {
                    if held.contains(UInt(bitPattern: payload)) { open.append(payload) } else { release(payload) }
                }
                sealed.removeAll(keepingCapacity: true)
            }
        }
        guard !open.isEmpty else { return }
        swap(&open, &sealed)
        ReaderRegistry.holders(of: router, into: &holders)
        if holders.isEmpty { releaseSealed(release) }
    }

    /// Releases everything, whatever readers hold: only when no reader can use the router any more.
    mutating func releaseAll(release: (UnsafeMutableRawPointer) -> Void) {
        releaseSealed(release)
        for payload in open { release(payload) }
        open.removeAll()
    }

    private mutating func releaseSealed(_ release: (UnsafeMutableRawPointer) -> Void) {
        for payload in sealed { release(payload) }
        // Keeping the capacity avoids reallocating the batches on every grace period.
        sealed.removeAll(keepingCapacity: true)
    }
}
