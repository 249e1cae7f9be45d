import FastRouter
import FastRouterLint

// Swift views of the value types and constants of include/fastrouter.h.
//
// The module does not import its own header (the package has no C target for it), so the C types
// are mirrored here with the same layout, and the exports read and write them through raw
// pointers. Tests/c/test_api.c asserts the C side of every layout fact relied on here.

/// Swift view of `fr_str`: `{ const char *ptr; size_t len; }`, two machine words.
struct FRStr {
    /// First byte, or `nil` for the absent string.
    var ptr: UnsafePointer<CChar>?
    /// Number of bytes.
    var len: Int

    /// `{NULL, 0}`: no value.
    static var absent: FRStr { FRStr(ptr: nil, len: 0) }

    /// A view of `bytes`; a present empty value keeps its non-NULL pointer.
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        ptr = bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
        len = bytes.count
    }

    /// A string from its parts.
    init(ptr: UnsafePointer<CChar>?, len: Int) {
        self.ptr = ptr
        self.len = len
    }

    /// Writes `value` to a caller's `fr_str *` when it is not NULL.
    ///
    /// Safety: `destination` is NULL or points to a writable `fr_str`; `storeBytes` copies the
    /// two words without binding the caller's memory to a Swift type.
    static func store(_ value: FRStr, to destination: UnsafeMutableRawPointer?) {
        destination?.storeBytes(of: value, as: FRStr.self)
    }

    /// The `index`-th element of a caller's `const fr_str *` array.
    ///
    /// Safety: `array` holds at least `index + 1` elements, aligned as C aligns `fr_str`.
    static func load(_ array: UnsafeRawPointer, at index: Int) -> FRStr {
        array.load(fromByteOffset: index * MemoryLayout<FRStr>.stride, as: FRStr.self)
    }
}

/// Swift view of `fr_error`: `{ int code; size_t offset; char message[256]; }`.
///
/// `InlineArray` lays the message out inline like the C array, so size, alignment and field
/// offsets match the C struct on every ABI where `int` is 32 bits.
struct FRError {
    /// The status the failing function returned.
    var code: Int32
    /// Byte offset of the offending construct in the pattern, else 0.
    var offset: Int
    /// NUL-terminated message, at most 255 bytes before the NUL.
    var message: InlineArray<256, CChar>

    /// Bytes of the message, not counting the NUL.
    static let messageCapacity = 255

    /// Writes a caller's `fr_error *` when it is not NULL.
    ///
    /// The message is cut to 255 bytes at a UTF-8 character boundary, so a truncated message is
    /// still valid UTF-8.
    ///
    /// Safety: `destination` is NULL or points to a writable `fr_error`; the fields are stored at
    /// the offsets of this layout-compatible struct, without binding the caller's memory.
    static func store(code: Int32, offset: Int, message: String, to destination: UnsafeMutableRawPointer?) {
        guard let destination else { return }
        destination.storeBytes(of: code, toByteOffset: MemoryLayout<FRError>.offset(of: \.code)!, as: Int32.self)
        destination.storeBytes(of: offset, toByteOffset: MemoryLayout<FRError>.offset(of: \.offset)!, as: Int.self)
        let text = destination + MemoryLayout<FRError>.offset(of: \.message)!
        var message = message
        message.withUTF8 { bytes in
            var count = min(bytes.count, messageCapacity)
            // Back off to the first byte of a character cut in half: continuation bytes are 10xxxxxx.
            if count < bytes.count {
                while count > 0, bytes[count] & 0xC0 == 0x80 { count -= 1 }
            }
            if count > 0 { text.copyMemory(from: bytes.baseAddress!, byteCount: count) }
            text.storeBytes(of: 0, toByteOffset: count, as: CChar.self)
        }
    }

    /// Writes success (`FR_OK`, offset 0, empty message) to a caller's `fr_error *`.
    static func storeSuccess(to destination: UnsafeMutableRawPointer?) {
        store(code: FRStatus.ok, offset: 0, message: "", to: destination)
    }
}

/// The `FR_*` status codes. Errors are the raw values of ``RouterError/Code``, so Swift and C
/// share one list.
enum FRStatus {
    /// `FR_OK`: success, or a route matched.
    static let ok: Int32 = 0
    /// `FR_NOMATCH`: no (further) route matches.
    static let noMatch: Int32 = 1
    /// `FR_EINVAL`.
    static let invalidArgument = RouterError.Code.invalidArgument.rawValue
    /// `FR_EPATTERN`.
    static let invalidPattern = RouterError.Code.invalidPattern.rawValue
    /// `FR_EREGEX`.
    static let invalidRegex = RouterError.Code.invalidRegex.rawValue
    /// `FR_EDUPLICATE`.
    static let duplicateRoute = RouterError.Code.duplicateRoute.rawValue
    /// `FR_EURL`.
    static let invalidURL = RouterError.Code.invalidURL.rawValue
    /// `FR_ENOTFOUND`.
    static let notFound = RouterError.Code.notFound.rawValue
    /// `FR_ENOMEM`.
    static let outOfMemory = RouterError.Code.outOfMemory.rawValue

    /// The status of a lookup or a decline: `FR_OK`, `FR_NOMATCH` or `FR_EURL`.
    @inline(__always)
    static func of(_ status: LookupStatus) -> Int32 {
        switch status {
        case .found: return ok
        case .noMatch: return noMatch
        case .invalidURL: return invalidURL
        }
    }

    /// The static text `fr_strerror` returns for `code`.
    ///
    /// The error texts are ``RouterError/Code/message`` spelled as static strings, because C
    /// callers get a pointer that must never be freed; debug builds check the two agree.
    static func description(of code: Int32) -> StaticString {
        switch code {
        case ok: return "ok"
        case noMatch: return "no match"
        default: break
        }
        guard let known = RouterError.Code(rawValue: code) else { return "unknown status" }
        let text: StaticString
        switch known {
        case .invalidArgument: text = "invalid argument"
        case .invalidPattern: text = "invalid pattern"
        case .invalidRegex: text = "invalid regex constraint"
        case .duplicateRoute: text = "duplicate route"
        case .invalidURL: text = "invalid URL"
        case .notFound: text = "not found"
        case .outOfMemory: text = "out of memory"
        }
        assert(text.description == known.message, "fr_strerror and RouterError.Code.message disagree for \(known)")
        return text
    }
}

/// The `FR_*` flags of `fr_router_new`.
enum FRFlag {
    /// `FR_CASE_INSENSITIVE`: path literals compare ASCII case-insensitively.
    static let caseInsensitive: UInt32 = 1 << 0
    /// `FR_NO_GLOBAL_FALLBACK`: a URL with a scheme never falls back to the global table.
    static let noGlobalFallback: UInt32 = 1 << 1
    /// `FR_NO_PLUS_AS_SPACE`: `+` in the query stays a `+`.
    static let noPlusAsSpace: UInt32 = 1 << 2
    /// Every defined flag; any other bit makes `fr_router_new` return NULL.
    static let all: UInt32 = caseInsensitive | noGlobalFallback | noPlusAsSpace

    /// Router options for `flags`, or `nil` when it holds an unknown bit.
    ///
    /// Only `http` and `https` are web schemes through the C ABI (docs/SEMANTICS.md §3.6).
    static func options(_ flags: UInt32) -> RouterOptions? {
        guard flags & ~all == 0 else { return nil }
        return RouterOptions(caseInsensitivePaths: flags & caseInsensitive != 0,
                             globalFallback: flags & noGlobalFallback == 0,
                             plusAsSpace: flags & noPlusAsSpace == 0,
                             webSchemes: ["http", "https"])
    }
}

/// `FR_NO_ROUTE`: no current match; reserved as a route id.
let frNoRoute = UInt64.max

/// `FR_VERSION` of the header; `fr_version` returns it.
let frVersionText: StaticString = "0.1.0"
