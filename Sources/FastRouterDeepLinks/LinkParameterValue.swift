import FastRouter
import Foundation

/// A type a link parameter converts to and from: the typed side of ``DeepLinkArguments`` and of
/// URL generation.
///
/// `Int`, `Int32`, `Int64`, `UInt`, `UInt32`, `UInt64`, `Double`, `Float`, `Bool`, `String`,
/// `UUID`, `URL` and arrays of conforming types (comma-separated) conform. A string- or
/// integer-backed enum conforms by declaring it, with no code:
///
/// ```swift
/// enum PokemonType: String, LinkParameterValue { case fire, water, grass }
/// ```
/// Enums that do not declare it are still read by ``DeepLinkArguments``'s `RawRepresentable` overloads.
public protocol LinkParameterValue {
    /// Reads a decoded parameter value; `nil` when the text is not a value of this type.
    init?(linkParameter text: String)
    /// The text a URL carries for this value (before percent-encoding).
    var linkParameter: String { get }
}

extension LinkParameterValue where Self: RawRepresentable, RawValue: LinkParameterValue {
    /// Reads the raw value, then the case with that raw value.
    public init?(linkParameter text: String) {
        guard let raw = RawValue(linkParameter: text) else { return nil }
        self.init(rawValue: raw)
    }

    /// The raw value's text.
    public var linkParameter: String { rawValue.linkParameter }
}

extension String: LinkParameterValue {
    /// The text itself; an empty query value is an empty string.
    public init?(linkParameter text: String) { self = text }
    /// The string itself.
    public var linkParameter: String { self }
}

extension Int: LinkParameterValue {
    /// Decimal digits with an optional sign, within range.
    public init?(linkParameter text: String) { self.init(text, radix: 10) }
    /// Decimal digits.
    public var linkParameter: String { String(self) }
}

extension Int32: LinkParameterValue {
    /// Decimal digits with an optional sign, within range.
    public init?(linkParameter text: String) { self.init(text, radix: 10) }
    /// Decimal digits.
    public var linkParameter: String { String(self) }
}

extension Int64: LinkParameterValue {
    /// Decimal digits with an optional sign, within range.
    public init?(linkParameter text: String) { self.init(text, radix: 10) }
    /// Decimal digits.
    public var linkParameter: String { String(self) }
}

extension UInt: LinkParameterValue {
    /// Decimal digits, within range.
    public init?(linkParameter text: String) { self.init(text, radix: 10) }
    /// Decimal digits.
    public var linkParameter: String { String(self) }
}

extension UInt32: LinkParameterValue {
    /// Decimal digits, within range.
    public init?(linkParameter text: String) { self.init(text, radix: 10) }
    /// Decimal digits.
    public var linkParameter: String { String(self) }
}

extension UInt64: LinkParameterValue {
    /// Decimal digits, within range.
    public init?(linkParameter text: String) { self.init(text, radix: 10) }
    /// Decimal digits.
    public var linkParameter: String { String(self) }
}

extension Double: LinkParameterValue {
    /// A finite decimal number (`1`, `-2.5`, `1e3`); `nan`, `inf` and hexadecimal forms are
    /// refused, as a link rarely means them.
    public init?(linkParameter text: String) {
        guard text.utf8.allSatisfy(isDecimalNumberByte), let value = Double(text), value.isFinite else { return nil }
        self = value
    }
    /// The shortest text that reads back as the same value.
    public var linkParameter: String { description }
}

extension Float: LinkParameterValue {
    /// A finite decimal number; `nan`, `inf` and hexadecimal forms are refused.
    public init?(linkParameter text: String) {
        guard text.utf8.allSatisfy(isDecimalNumberByte), let value = Float(text), value.isFinite else { return nil }
        self = value
    }
    /// The shortest text that reads back as the same value.
    public var linkParameter: String { description }
}

extension Bool: LinkParameterValue {
    /// `true`/`false`, `1`/`0`, `yes`/`no`, `on`/`off`, in any case (as `Parameters.bool(_:)`).
    public init?(linkParameter text: String) {
        switch text.lowercased() {
        case "true", "1", "yes", "on": self = true
        case "false", "0", "no", "off": self = false
        default: return nil
        }
    }
    /// `true` or `false`.
    public var linkParameter: String { self ? "true" : "false" }
}

extension UUID: LinkParameterValue {
    /// 8-4-4-4-12 hex digits, any case.
    public init?(linkParameter text: String) { self.init(uuidString: text) }
    /// Lower-case, as links usually carry it.
    public var linkParameter: String { uuidString.lowercased() }
}

extension URL: LinkParameterValue {
    /// Any non-empty text Foundation reads as a URL (an `url=` query value is already decoded).
    public init?(linkParameter text: String) {
        guard !text.isEmpty else { return nil }
        self.init(string: text)
    }
    /// The absolute string.
    public var linkParameter: String { absoluteString }
}

extension Array: LinkParameterValue where Element: LinkParameterValue {
    /// Comma-separated items, empty items skipped: `fire,water` → `[.fire, .water]`; "" → `[]`.
    public init?(linkParameter text: String) {
        guard case .success(let items) = Self.read([text]) else { return nil }
        self = items
    }
    /// The items' texts joined by commas.
    public var linkParameter: String { map(\.linkParameter).joined(separator: ",") }

    /// Reads every comma-separated item of every value, or names the first item that fails.
    static func read(_ values: [String]) -> Result<[Element], ListItemFailure> {
        var items: [Element] = []
        for value in values {
            for item in value.split(separator: ",", omittingEmptySubsequences: true) {
                guard let element = Element(linkParameter: String(item)) else {
                    return .failure(ListItemFailure(item: String(item)))
                }
                items.append(element)
            }
        }
        return .success(items)
    }
}

/// The item of a comma-separated list that did not convert.
struct ListItemFailure: Error {
    var item: String
}

/// Lists read all values of a name, so `?type=fire&type=water` and `?type=fire,water` agree.
protocol LinkParameterList {
    static func readList(_ values: [String]) -> Result<Any, ListItemFailure>
    static var elementTypeName: String { get }
}

extension Array: LinkParameterList where Element: LinkParameterValue {
    static func readList(_ values: [String]) -> Result<Any, ListItemFailure> { read(values).map { $0 } }
    static var elementTypeName: String { String(describing: Element.self) }
}

/// Digits, sign, point and exponent: the bytes of a decimal floating-point literal.
private func isDecimalNumberByte(_ byte: UInt8) -> Bool {
    byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
        || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
}
