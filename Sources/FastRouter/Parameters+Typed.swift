extension Parameters {
    /// The first value named `name` as an `Int`, or `nil` when absent or not an integer.
    public func int(_ name: String) -> Int? { self[name].flatMap { Int($0) } }

    /// The first value named `name` as a `Double`, or `nil` when absent or not a number.
    public func double(_ name: String) -> Double? { self[name].flatMap { Double($0) } }

    /// The first value named `name` as a `Bool`: `true`/`false`, `1`/`0`, `yes`/`no` (any case).
    public func bool(_ name: String) -> Bool? {
        switch self[name]?.lowercased() {
        case "true", "1", "yes", "on": return true
        case "false", "0", "no", "off": return false
        default: return nil
        }
    }

    /// The first value named `name` as a string-backed enum case, or `nil`.
    public func value<T: RawRepresentable>(_ name: String, as type: T.Type = T.self) -> T? where T.RawValue == String {
        self[name].flatMap { T(rawValue: $0) }
    }

    /// Every value named `name`, each split on commas (empty items dropped), in order: `?t=a&t=b`
    /// and `?t=a,b` agree, as in `DeepLinkArguments` (FastRouterDeepLinks). Empty when absent.
    public func list(_ name: String) -> [String] {
        values(name).flatMap { $0.split(separator: ",", omittingEmptySubsequences: true).map(String.init) }
    }
}
