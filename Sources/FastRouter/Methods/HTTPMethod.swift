/// An HTTP request method: any RFC 9110 token, compared case-sensitively (docs/SEMANTICS.md
/// §3.7). The standard methods are static members; extension methods (`PURGE`, `PROPFIND`) are
/// made by name and route exactly like them.
///
/// ```swift
/// try router.add("/users/:id", methods: [.get, .head], value: "user")
/// let purge = HTTPMethod(rawValue: "PURGE")!
/// ```
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// A name of up to eight bytes as a lookup compares it (``MethodTable/word(_:)``), made
    /// once; a longer one as it is. A lookup with a method of the first kind (every standard
    /// one) neither reads nor retains a string.
    @usableFromInline enum Name: Hashable, Sendable {
        case word(UInt64)
        case long(String)
    }

    @usableFromInline let name: Name

    /// The token, e.g. `"GET"`.
    public var rawValue: String {
        switch name {
        case .long(let name): return name
        case .word(let word):
            // The length is the top byte when under eight (see ``MethodTable/word(_:)``).
            let count = word &>> 56 < 8 ? Int(word &>> 56) : 8
            return withUnsafeBytes(of: word.littleEndian) { String(decoding: $0.prefix(count), as: UTF8.self) }
        }
    }

    /// The name's ``MethodTable/word(_:)``, or 0 for a name over eight bytes.
    @inlinable var word: UInt64 {
        if case .word(let word) = name { return word }
        return 0
    }

    /// The method named `rawValue`, or `nil` when it is not an RFC 9110 token (empty, or a byte
    /// other than letters, digits and the symbols RFC 9110 allows in a token) or is longer than
    /// ``maxLength`` bytes.
    public init?(rawValue: String) {
        guard withUTF8(rawValue, { $0.count <= HTTPMethod.maxLength && HTTPMethod.isToken($0) }) else { return nil }
        self.init(unchecked: rawValue)
    }

    /// The longest method name, in bytes: 64 KiB, as the longest URL (the C ABI refuses longer ones).
    /// A literal, not a stored global, so that the C boundary folds it instead of calling a lazy
    /// global's accessor on every lookup with a method.
    @inlinable public static var maxLength: Int { 65536 }

    /// A method whose name the caller has checked.
    init(unchecked rawValue: String) {
        // A token of up to eight bytes has a word that is not 0 (its bytes are not controls).
        name = withUTF8(rawValue) { $0.count <= 8 ? .word(MethodTable.word($0)) : .long(rawValue) }
    }

    /// The token.
    public var description: String { rawValue }

    /// `GET`.
    public static let get = HTTPMethod(unchecked: "GET")
    /// `HEAD`: answered by the route that answers `GET` unless a route of the same shape names
    /// `HEAD` (see ``RouterOptions/headFallback``).
    public static let head = HTTPMethod(unchecked: "HEAD")
    /// `POST`.
    public static let post = HTTPMethod(unchecked: "POST")
    /// `PUT`.
    public static let put = HTTPMethod(unchecked: "PUT")
    /// `DELETE`.
    public static let delete = HTTPMethod(unchecked: "DELETE")
    /// `CONNECT`.
    public static let connect = HTTPMethod(unchecked: "CONNECT")
    /// `OPTIONS`.
    public static let options = HTTPMethod(unchecked: "OPTIONS")
    /// `TRACE`.
    public static let trace = HTTPMethod(unchecked: "TRACE")
    /// `PATCH` (RFC 5789). Not one of RFC 9110's methods, so an `Allow` value lists it after them.
    public static let patch = HTTPMethod(unchecked: "PATCH")

    /// RFC 9110's methods in its order: the order an `Allow` value lists them in.
    static let standardOrder: [HTTPMethod] = [.get, .head, .post, .put, .delete, .connect, .options, .trace]

    /// Whether `bytes` is a non-empty RFC 9110 token.
    static func isToken(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy(isTokenByte)
    }

    /// `tchar` of RFC 9110 §5.6.2.
    @inline(__always)
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
             UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}
