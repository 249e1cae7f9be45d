/// The methods a route accepts, as one router numbers them (see ``MethodTable``): a bit per
/// method name, or any method.
struct MethodSet: Hashable, Sendable {
    /// Bit `i` stands for the router's method `i`; every bit when ``isAny``.
    var mask: UInt64
    /// True for a route registered without methods: it accepts every method, even one the
    /// router has never seen, so it is not the same as a mask with all 64 names.
    var isAny: Bool

    /// Every method.
    static let any = MethodSet(mask: .max, isAny: true)

    /// Whether a route of this set and one of `other` both accept some method (docs/SEMANTICS.md
    /// §3.7: only then are two routes of the same path duplicates).
    func overlaps(_ other: MethodSet) -> Bool {
        isAny || other.isAny || mask & other.mask != 0
    }
}

/// A comma-separated method list as the C ABI takes it (`"GET,POST"`; `""` or `"*"` for any).
enum MethodList {
    /// The methods of `list` in written order, each once; empty for any method.
    /// - Throws: `.invalidArgument` naming an empty or invalid token, or `*` among other methods.
    static func parse(_ list: UnsafeBufferPointer<UInt8>) throws(RouterError) -> [HTTPMethod] {
        var methods: [HTTPMethod] = []
        var start = 0
        var sawAny = false
        var items = 0
        func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        while start <= list.count {
            var end = start
            while end < list.count && list[end] != UInt8(ascii: ",") { end += 1 }
            var first = start, last = end
            while first < last && isSpace(list[first]) { first += 1 }
            while last > first && isSpace(list[last - 1]) { last -= 1 }
            let token = UnsafeBufferPointer(rebasing: list[first..<last])
            if token.isEmpty {
                // An empty list is "any method"; an empty item between commas is a mistake.
                guard list.allSatisfy(isSpace) else {
                    throw RouterError(.invalidArgument, offset: start, "empty method name in the method list")
                }
                return []
            }
            items += 1
            if token.count == 1 && token[0] == UInt8(ascii: "*") {
                sawAny = true
            } else {
                guard HTTPMethod.isToken(token) else {
                    throw RouterError(.invalidArgument, offset: first,
                                      "invalid method \"\(String(decoding: token, as: UTF8.self).debugEscaped)\": not an HTTP token")
                }
                let method = HTTPMethod(unchecked: String(decoding: token, as: UTF8.self))
                if !methods.contains(method) { methods.append(method) }
            }
            start = end + 1
        }
        if sawAny {
            guard items == 1 else {
                throw RouterError(.invalidArgument, offset: 0, "\"*\" (any method) cannot be listed with other methods")
            }
            return []
        }
        return methods
    }
}

extension String {
    /// The string with control characters, quotes and backslashes escaped, cut to 40 characters,
    /// for an error message that names caller input.
    var debugEscaped: String {
        var text = ""
        for scalar in unicodeScalars.prefix(40) { text += scalar.escaped(asASCII: false) }
        return unicodeScalars.count > 40 ? text + "…" : text
    }
}
