#if Hummingbird
import Hummingbird

/// A Hummingbird path that FastRouter cannot route, with the reason (reported as a RouteRegistrationError).
struct PathTranslationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The Hummingbird path as written (its `description`).
    let path: String
    /// The element of the path that does not translate.
    let element: String
    /// Why it does not translate.
    let reason: String

    var description: String {
        "cannot route \(path) with FastRouter: '\(element)' \(reason)"
    }
}

/// A Hummingbird `RouterPath` rewritten in FastRouter's pattern language, with what each
/// FastRouter parameter becomes in `context.parameters` (docs/HUMMINGBIRD.md, "Paths").
///
/// Every placeholder gets a generated name (`_0`, `_1`, …) so that any Hummingbird parameter name
/// works, including names FastRouter's grammar refuses and a name used twice; the slots map them
/// back, by position, since a match lists path parameters in pattern order.
struct TranslatedPath: Sendable, Equatable {
    /// What one FastRouter parameter of the pattern becomes.
    enum Slot: Sendable, Equatable {
        /// `context.parameters[name]`.
        case parameter(Substring)
        /// Matched but not exposed: Hummingbird's `*`, `*.jpg`, `file.*`.
        case hidden
        /// The first segment of a `**`; the next slot is the rest (FastRouter's wildcard).
        case catchAllFirst
        /// The rest of a `**`, joined to the first segment under `Parameters.recursiveCaptureKey`.
        case catchAllRest
    }

    /// The FastRouter pattern: `/users/{_0}`.
    let pattern: String
    /// One entry per FastRouter parameter, in pattern order.
    let slots: [Slot]

    /// Rewrites `path`; throws for elements FastRouter has no equivalent of.
    init(_ path: RouterPath) throws(PathTranslationError) {
        var pattern = ""
        var slots: [Slot] = []
        func placeholder() -> String { "{_\(slots.count)}" }
        for (index, element) in path.enumerated() {
            let text = element.description
            pattern += "/"
            // `.null` describes itself as "!", as does the literal "!": compare the element itself.
            switch element == .null ? .null : HummingbirdElement(text) {
            case .literal(let literal):
                pattern += Self.escapedLiteral(literal, segmentStart: true)
            case .capture(let name):
                pattern += placeholder()
                slots.append(.parameter(name))
            case .captureWithSuffix(let name, let suffix):
                pattern += placeholder() + Self.escapedLiteral(suffix, segmentStart: false)
                slots.append(.parameter(name))
            case .captureWithPrefix(let prefix, let name):
                pattern += Self.escapedLiteral(prefix, segmentStart: true) + placeholder()
                slots.append(.parameter(name))
            case .wildcard:
                pattern += placeholder()
                slots.append(.hidden)
            case .wildcardWithSuffix(let suffix):
                pattern += placeholder() + Self.escapedLiteral(suffix, segmentStart: false)
                slots.append(.hidden)
            case .wildcardWithPrefix(let prefix):
                pattern += Self.escapedLiteral(prefix, segmentStart: true) + placeholder()
                slots.append(.hidden)
            case .recursiveWildcard:
                guard index == path.count - 1 else {
                    throw PathTranslationError(path: path.description, element: text,
                                               reason: "is not the last element (FastRouter's wildcard only ends a path)")
                }
                // `**` takes one or more segments: a placeholder for the first, the wildcard for the rest.
                pattern += placeholder()
                slots.append(.catchAllFirst)
                pattern += "/*_\(slots.count)"
                slots.append(.catchAllRest)
            case .null:
                throw PathTranslationError(path: path.description, element: text, reason: "never matches")
            }
        }
        self.pattern = pattern.isEmpty ? "/" : pattern
        self.slots = slots
    }

    /// `text` as FastRouter literal text: bytes with a meaning in FastRouter's grammar (`{ } ( ) *`,
    /// a leading `:`) or outside its literal alphabet are percent-escaped; since FastRouter compares
    /// literals after decoding, the escaped text matches what the bytes matched. A valid `%XX` in
    /// the Hummingbird path is kept as an escape.
    static func escapedLiteral(_ text: Substring, segmentStart: Bool) -> String {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let isEscape = byte == UInt8(ascii: "%") && index + 2 < bytes.count
                && bytes[index + 1].isHexDigit && bytes[index + 2].isHexDigit
                && !(bytes[index + 1] == UInt8(ascii: "0") && bytes[index + 2] == UInt8(ascii: "0"))
            let isPlainColon = byte == UInt8(ascii: ":") && !(segmentStart && index == 0)
            if isEscape || byte.isLiteralSafe || isPlainColon || byte >= 0x80 {
                out.append(byte)
            } else {
                let hex = Array("0123456789ABCDEF".utf8)
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// One element of a Hummingbird path, classified from its text exactly as Hummingbird's
/// `RouterPath.Element.init` classifies it (the enum Hummingbird keeps for this is not public);
/// `.null`, which has no text of its own, is recognised by comparing the element.
enum HummingbirdElement: Equatable {
    case literal(Substring)
    case capture(Substring)                                    // :id, {id}
    case captureWithSuffix(name: Substring, suffix: Substring) // {file}.jpg
    case captureWithPrefix(prefix: Substring, name: Substring) // file.{ext}
    case wildcard                                              // *
    case wildcardWithSuffix(Substring)                         // *.jpg
    case wildcardWithPrefix(Substring)                         // file.*
    case recursiveWildcard                                     // **
    case null                                                  // RouterPath.Element.null

    init(_ text: String) {
        let string = Substring(text)
        if string.first == ":" {
            self = .capture(string.dropFirst())
        } else if string.first == "{" {
            let parameter = string.dropFirst()
            if let close = parameter.firstIndex(of: "}") {
                let after = parameter.index(after: close)
                self = after == parameter.endIndex
                    ? .capture(parameter[..<close])
                    : .captureWithSuffix(name: parameter[..<close], suffix: parameter[after...])
            } else {
                self = .literal(string)
            }
        } else if string.last == "}" {
            let parameter = string.dropLast()
            if let open = parameter.lastIndex(of: "{"), open != parameter.startIndex {
                self = .captureWithPrefix(prefix: parameter[..<open], name: parameter[parameter.index(after: open)...])
            } else {
                self = .literal(string)
            }
        } else if text == "*" {
            self = .wildcard
        } else if text == "**" {
            self = .recursiveWildcard
        } else if string.first == "*" {
            self = .wildcardWithSuffix(string.dropFirst())
        } else if string.last == "*" {
            self = .wildcardWithPrefix(string.dropLast())
        } else {
            self = .literal(string)
        }
    }
}

extension UInt8 {
    /// Unreserved and sub-delimiter bytes that FastRouter reads as plain literal text.
    fileprivate var isLiteralSafe: Bool {
        switch self {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "!"), UInt8(ascii: "$"),
             UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
             UInt8(ascii: "@"):
            return true
        default:
            return false
        }
    }

    fileprivate var isHexDigit: Bool {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"):
            return true
        default:
            return false
        }
    }
}

#endif
