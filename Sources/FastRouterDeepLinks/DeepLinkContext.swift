import FastRouter

/// What a deep-link handler receives: the URL, the route that matched, its parameters (raw and
/// typed) and the caller's `userInfo`.
///
/// ```swift
/// try links.route("pokedex://pokemon/{pokedexID:int}") { context in
///     let id: Int = try context.arguments.pokedexID
///     guard context.userInfo.isSignedIn else { try context.decline("sign-in required") }
///     navigator.show(.pokemon(id))
/// }
/// ```
public struct DeepLinkContext<UserInfo> {
    /// The URL as given to `open`.
    public let url: String
    /// The id of the route that matched.
    public let routeID: UInt64
    /// The route's pattern as registered.
    public let pattern: String
    /// The route's name, when it was registered with one.
    public let routeName: String?
    /// Path parameters in pattern order, the wildcard, then query pairs.
    public let parameters: Parameters
    /// The raw fragment, or `nil`.
    public let fragment: String?
    /// What the caller passed to `open`.
    public let userInfo: UserInfo
    /// 0 for the best candidate, 1 for the next after one declined, and so on.
    public let candidateIndex: Int

    /// A context as the dispatcher builds it; public so handlers can be unit-tested on their own.
    public init(url: String, routeID: UInt64, pattern: String, routeName: String?, parameters: Parameters,
                fragment: String?, userInfo: UserInfo, candidateIndex: Int) {
        self.url = url
        self.routeID = routeID
        self.pattern = pattern
        self.routeName = routeName
        self.parameters = parameters
        self.fragment = fragment
        self.userInfo = userInfo
        self.candidateIndex = candidateIndex
    }

    /// Typed access to ``parameters``: `let id: Int = try context.arguments.pokedexID`.
    public var arguments: DeepLinkArguments { DeepLinkArguments(parameters) }

    /// The parameter `name` as a `T`; see ``DeepLinkArguments``.
    /// - Throws: ``DeepLinkArgumentError`` naming the parameter.
    public func parameter<T: LinkParameterValue>(_ name: String, as type: T.Type = T.self) throws(DeepLinkArgumentError) -> T {
        try arguments.parameter(name, as: type)
    }

    /// The parameter `name` as a case of a string- or integer-backed enum.
    public func parameter<T: RawRepresentable>(_ name: String, as type: T.Type = T.self) throws(DeepLinkArgumentError) -> T
    where T.RawValue: LinkParameterValue {
        try arguments.parameter(name, as: type)
    }

    /// The parameter `name` as a comma-separated list of enum cases.
    public func parameter<T: RawRepresentable>(_ name: String, as type: [T].Type) throws(DeepLinkArgumentError) -> [T]
    where T.RawValue: LinkParameterValue {
        try arguments.parameter(name, as: type)
    }

    /// The parameter `name` as an enum that also declares ``LinkParameterValue``.
    public func parameter<T: RawRepresentable & LinkParameterValue>(_ name: String, as type: T.Type = T.self) throws(DeepLinkArgumentError) -> T
    where T.RawValue: LinkParameterValue {
        try arguments.parameter(name, as: type)
    }

    /// Declines the URL: the dispatcher moves on to the next candidate route (JLRoutes' `NO`).
    ///
    /// Any error a handler throws declines too (Crossroad's style); this one only carries a reason.
    /// - Throws: always, a ``DeepLinkDecline``.
    public func decline(_ reason: String = "declined") throws(DeepLinkDecline) -> Never {
        throw DeepLinkDecline(reason: reason)
    }
}

extension DeepLinkContext: Sendable where UserInfo: Sendable {}

/// The error a handler throws to decline a URL without failing: ``DeepLinkContext/decline(_:)``.
public struct DeepLinkDecline: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why the handler declined.
    public var reason: String

    /// A decline with a reason.
    public init(reason: String) {
        self.reason = reason
    }

    /// The reason.
    public var description: String { reason }
}

/// What an unmatched-URL handler receives: the URL, what was tried, and the caller's `userInfo`.
public struct DeepLinkUnmatched<UserInfo> {
    /// The URL as given to `open`.
    public let url: String
    /// The URL's lower-cased scheme, or `nil` for a URL without one.
    public let scheme: String?
    /// What the caller passed to `open`.
    public let userInfo: UserInfo
    /// The routes that matched and declined, in the order they were asked.
    public let declined: [DeepLinkOutcome.Declined]
    /// Why the URL could not be matched at all (malformed or over a limit), or `nil`.
    public let urlError: RouterError?

    /// What the dispatcher passes; public so unmatched handlers can be unit-tested on their own.
    public init(url: String, scheme: String?, userInfo: UserInfo, declined: [DeepLinkOutcome.Declined], urlError: RouterError?) {
        self.url = url
        self.scheme = scheme
        self.userInfo = userInfo
        self.declined = declined
        self.urlError = urlError
    }
}

/// How `open` of a ``DeepLinkRouter`` dealt with a URL.
public struct DeepLinkOutcome {
    /// Who handled the URL.
    public enum Resolution: Sendable, Equatable {
        /// A route's handler accepted it.
        case route(id: UInt64, pattern: String, name: String?)
        /// No route accepted it; the unmatched handler of this scheme did (`nil`: the global one).
        case unmatchedHandler(scheme: String?)
        /// Nobody did.
        case unhandled
    }

    /// A route whose handler declined, and why.
    public struct Declined {
        /// The route's id.
        public let routeID: UInt64
        /// The route's pattern.
        public let pattern: String
        /// The route's name, when it has one.
        public let name: String?
        /// What the handler threw: a ``DeepLinkDecline``, a ``DeepLinkArgumentError``, or the
        /// handler's own error; ``DeepLinkDispatchError`` when the handler could not run.
        public let error: any Error
    }

    /// The URL as given to `open`.
    public let url: String
    /// Who handled it.
    public let resolution: Resolution
    /// Every route that matched and declined before the resolution, in order.
    public let declined: [Declined]
    /// Why the URL could not be matched at all, or `nil`.
    public let urlError: RouterError?

    /// Whether a route or an unmatched handler accepted the URL.
    public var isHandled: Bool { resolution != .unhandled }

    /// Whether a route's handler accepted the URL (not an unmatched handler).
    public var isRouted: Bool {
        if case .route = resolution { return true }
        return false
    }
}

/// Why the dispatcher could not run a handler.
public enum DeepLinkDispatchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The handler is `async` and the URL was opened with the synchronous `open`: use `await open`.
    case asynchronousHandler

    /// One line.
    public var description: String {
        switch self {
        case .asynchronousHandler: return "the handler is async: open the URL with 'await open(_:)'"
        }
    }
}
