#if Hummingbird
import Hummingbird
import FastRouter

/// What a FastRouter route of a ``FastRouterBuilder`` leads to: one Hummingbird path and method,
/// its responder (middleware included) and how its FastRouter parameters become Hummingbird's.
/// A class, so that a match hands it out with one reference count, not one per field.
final class Endpoint<Context: RequestContext>: Sendable {
    /// The responder `on(_:method:responder:)` was given, wrapped in the middleware added before it.
    let responder: any HTTPResponder<Context>
    /// The method it was registered for; a HEAD request served by a GET endpoint gets its
    /// response without a body.
    let method: HTTPRequest.Method
    /// The Hummingbird path's description (`/users/{id}`), for `context.endpointPath`.
    let endpointPath: String
    /// What each FastRouter parameter of the route becomes.
    let slots: [TranslatedPath.Slot]
    /// Whether two slots share a Hummingbird name (`/:x/:x`): then the later value replaces the
    /// earlier, as in Hummingbird's trie; otherwise each value is appended without a search.
    private let repeatsAName: Bool

    init(responder: any HTTPResponder<Context>, method: HTTPRequest.Method, endpointPath: String,
         slots: [TranslatedPath.Slot]) {
        self.responder = responder
        self.method = method
        self.endpointPath = endpointPath
        self.slots = slots
        var names = Set<Substring>()
        repeatsAName = slots.contains { slot in
            if case .parameter(let name) = slot { return !names.insert(name).inserted }
            return false
        }
    }

    /// Hummingbird's parameters for a match of this endpoint's route: named captures under their
    /// Hummingbird names, a `**` under `Parameters.recursiveCaptureKey`; in path order, a name
    /// captured twice keeping its last value (as Hummingbird's trie does).
    func parameters(of match: FastRouter.Parameters) -> Hummingbird.Parameters {
        var result = Hummingbird.Parameters()
        var catchAllFirst: Substring = ""
        for (slot, pair) in zip(slots, match) {
            switch slot {
            case .parameter(let name):
                if repeatsAName {
                    result[name] = Substring(pair.value)
                } else {
                    result.append(key: name, value: Substring(pair.value))
                }
            case .hidden:
                break
            case .catchAllFirst:
                catchAllFirst = Substring(pair.value)
            case .catchAllRest:
                result.setCatchAll(pair.value.isEmpty ? catchAllFirst : catchAllFirst + "/" + pair.value)
            }
        }
        return result
    }
}
#endif
