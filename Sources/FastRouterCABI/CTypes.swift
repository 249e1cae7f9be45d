import CFastRouter
import FastRouter

// The value types and constants of include/fastrouter.h as the exports use them. The header is
// imported (module CFastRouter), so `fr_str` and `fr_error` are the C structs themselves: no
// layout is written down twice.

extension fr_str {
    /// `{NULL, 0}`: no value.
    static var absent: fr_str { fr_str(ptr: nil, len: 0) }

    /// A view of `bytes`; a present empty value keeps its non-NULL pointer.
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.init(ptr: bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
                  len: bytes.count)
    }
}

extension fr_error {
    /// Bytes of the message, not counting the NUL.
    static let messageCapacity = 255

    /// Writes a caller's `fr_error *` when it is not NULL.
    ///
    /// The message is cut to 255 bytes at a UTF-8 character boundary, so a truncated message is
    /// still valid UTF-8.
    static func store(code: Int32, offset: Int, message: String, to destination: UnsafeMutablePointer<fr_error>?) {
        guard let destination else { return }
        destination.pointer(to: \.code)!.pointee = code
        destination.pointer(to: \.offset)!.pointee = offset
        // Safety: `message` is the C array `char message[256]`, 256 contiguous CChars.
        let text = UnsafeMutableRawPointer(destination.pointer(to: \.message)!)
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
    static func storeSuccess(to destination: UnsafeMutablePointer<fr_error>?) {
        store(code: FRStatus.ok, offset: 0, message: "", to: destination)
    }
}

/// The `FR_*` status codes of the header, and the mapping of the core's results onto them.
enum FRStatus {
    /// `FR_OK`: success, or a route matched.
    static let ok = Int32(FR_OK)
    /// `FR_NOMATCH`: no (further) route matches.
    static let noMatch = Int32(FR_NOMATCH)
    /// `FR_NOMETHOD`: routes match the URL but none accepts the method.
    static let noMethod = Int32(FR_NOMETHOD)
    /// `FR_EINVAL`.
    static let invalidArgument = Int32(FR_EINVAL)
    /// `FR_ENOTFOUND`.
    static let notFound = Int32(FR_ENOTFOUND)
    /// `FR_ENOMEM`.
    static let outOfMemory = Int32(FR_ENOMEM)

    /// The status of a router error.
    static func of(_ code: RouterError.Code) -> Int32 {
        switch code {
        case .invalidArgument: return Int32(FR_EINVAL)
        case .invalidPattern: return Int32(FR_EPATTERN)
        case .invalidRegex: return Int32(FR_EREGEX)
        case .duplicateRoute: return Int32(FR_EDUPLICATE)
        case .invalidURL: return Int32(FR_EURL)
        case .notFound: return Int32(FR_ENOTFOUND)
        case .outOfMemory: return Int32(FR_ENOMEM)
        }
    }

    /// The router error a status stands for, or `nil` for `FR_OK`, `FR_NOMATCH` and unknown codes.
    static func code(of status: Int32) -> RouterError.Code? {
        RouterError.Code.allCases.first { of($0) == status }
    }

    /// The status of a lookup or a decline: `FR_OK`, `FR_NOMATCH`, `FR_NOMETHOD`, `FR_EURL` or
    /// `FR_EINVAL` (a method that is not a token).
    @inline(__always)
    static func of(_ status: LookupStatus) -> Int32 {
        // A lookup's status is its C number (see LookupStatus); CStatusMappingTests checks each.
        status.rawValue
    }

    /// The static text `fr_strerror` returns for `code`.
    ///
    /// The error texts are ``RouterError/Code/message`` spelled as static strings, because C
    /// callers get a pointer that must never be freed; debug builds check the two agree.
    static func description(of code: Int32) -> StaticString {
        switch code {
        case ok: return "ok"
        case noMatch: return "no match"
        case noMethod: return "method not allowed"
        default: break
        }
        guard let known = Self.code(of: code) else { return "unknown status" }
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
    static let caseInsensitive = UInt32(FR_CASE_INSENSITIVE)
    /// `FR_NO_GLOBAL_FALLBACK`: a URL with a scheme never falls back to the global table.
    static let noGlobalFallback = UInt32(FR_NO_GLOBAL_FALLBACK)
    /// `FR_NO_PLUS_AS_SPACE`: `+` in the query stays a `+`.
    static let noPlusAsSpace = UInt32(FR_NO_PLUS_AS_SPACE)
    /// `FR_NO_HEAD_FALLBACK`: GET routes never serve a HEAD request.
    static let noHeadFallback = UInt32(FR_NO_HEAD_FALLBACK)
    /// Every defined flag; any other bit makes `fr_router_new` return NULL.
    static let all: UInt32 = caseInsensitive | noGlobalFallback | noPlusAsSpace | noHeadFallback

    /// Router options for `flags`, or `nil` when it holds an unknown bit.
    ///
    /// Only `http` and `https` are web schemes through the C ABI (docs/SEMANTICS.md §3.6).
    static func options(_ flags: UInt32) -> RouterOptions? {
        guard flags & ~all == 0 else { return nil }
        return RouterOptions(caseInsensitivePaths: flags & caseInsensitive != 0,
                             globalFallback: flags & noGlobalFallback == 0,
                             plusAsSpace: flags & noPlusAsSpace == 0,
                             headFallback: flags & noHeadFallback == 0,
                             webSchemes: ["http", "https"])
    }
}

/// `FR_NO_ROUTE`: no current match; reserved as a route id.
let frNoRoute = UInt64.max

/// `FR_VERSION` of the header; `fr_version` returns it (a test checks the two agree).
let frVersionText: StaticString = "0.2.0"
