/// Behaviour switches fixed when a router is created.
///
/// ```swift
/// var options = RouterOptions()
/// options.caseInsensitivePaths = true
/// options.webSchemes.insert("myapp-web")
/// let router = Router<String>(options: options)
/// ```
public struct RouterOptions: Sendable, Equatable {
    /// Compare path literals ASCII case-insensitively (regex constraints are never folded). Default `false`.
    public var caseInsensitivePaths: Bool = false
    /// Try the global table after a URL's scheme table. Default `true`.
    public var globalFallback: Bool = true
    /// Decode `+` in the query as a space. Default `true`.
    public var plusAsSpace: Bool = true
    /// Let a `HEAD` request take the routes that accept `GET` as well, in the usual order (the
    /// route naming `HEAD` first between two of the same shape), so that the route answering
    /// `GET` answers `HEAD`; and list `HEAD` in a 405's allowed methods wherever `GET` is
    /// (docs/SEMANTICS.md §3.7). Default `true`. When `false`, `HEAD` reaches only routes that
    /// accept it themselves.
    public var headFallback: Bool = true
    /// Schemes whose authority is a domain matched against route hosts. Default `http`, `https`.
    /// Schemes compare case-insensitively: names are kept lower-cased however they are given.
    public var webSchemes: Set<String> {
        get { lowercasedWebSchemes }
        set { lowercasedWebSchemes = Set(newValue.map { $0.lowercased() }) }
    }
    private var lowercasedWebSchemes: Set<String> = ["http", "https"]

    /// Options with every default.
    public init() {}

    /// Options with each switch given.
    public init(caseInsensitivePaths: Bool = false, globalFallback: Bool = true, plusAsSpace: Bool = true,
                headFallback: Bool = true, webSchemes: Set<String> = ["http", "https"]) {
        self.caseInsensitivePaths = caseInsensitivePaths
        self.globalFallback = globalFallback
        self.plusAsSpace = plusAsSpace
        self.headFallback = headFallback
        self.webSchemes = Set(webSchemes.map { $0.lowercased() })
    }
}
