#if Hummingbird
import Hummingbird
import FastRouter

/// What a FastRouter route of a ``FastRouterBuilder`` leads to: one Hummingbird path and method,
/// its responder (middleware included) and how its FastRouter parameters become Hummingbird's.
struct Endpoint<Context: RequestContext>: Sendable {
    /// The responder `on(_:method:responder:)` was given, wrapped in the middleware added before it.
    let responder: any HTTPResponder<Context>
    /// The method it was registered for; a HEAD request served by a GET endpoint gets its
    /// response without a body.
    let method: HTTPRequest.Method
    /// The Hummingbird path's description (`/users/{id}`), for `context.endpointPath`.
    let endpointPath: String
    /// What each FastRouter parameter of the route becomes.
    let slots: [TranslatedPath.Slot]

    /// Hummingbird's parameters for a match of this endpoint's route: named captures under their
    /// Hummingbird names, a `**` under `Parameters.recursiveCaptureKey`; in path order, a name
    /// captured twice keeping its last value (as Hummingbird's trie does).
    func parameters(of match: FastRouter.Parameters) -> Hummingbird.Parameters {
        var result = Hummingbird.Parameters()
        var catchAllFirst: Substring = ""
        for (slot, pair) in zip(slots, match) {
            switch slot {
            case .parameter(let name):
                result[name] = Substring(pair.value)
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
