// TEMPORARY until the real parser lands. Not committed.
import CPCRE2
final class CompiledRegex: @unchecked Sendable {
    let source: String
    init(source: String, patternOffset: Int) throws(RouterError) { self.source = source }
    func match(_ segment: UnsafeBufferPointer<UInt8>, scratch: RegexScratch) -> RegexOutcome { .failed }
}
final class RegexScratch { init() {} }
enum RegexOutcome { case matched, failed, limitExceeded }
extension Constraint {
    func matchesBuiltin(_ segment: UnsafeBufferPointer<UInt8>) -> Bool {
        switch self {
        case .int: return !segment.isEmpty && segment.allSatisfy { $0 >= 48 && $0 <= 57 }
        default: return false
        }
    }
}
extension Pattern { var regexes: [String: CompiledRegex] { [:] } }
enum PatternParser {
    static func parse(_ pattern: UnsafeBufferPointer<UInt8>, webSchemes: Set<String>) throws(RouterError) -> Pattern {
        let text = String(decoding: pattern, as: UTF8.self)
        var scheme: String? = nil
        var path = Substring(text)
        if let r = text.range(of: "://") { scheme = String(text[..<r.lowerBound]); path = text[r.upperBound...]; path = "/" + path }
        var segs: [Segment] = []
        for part in path.split(separator: "/") {
            if part.hasPrefix(":") { segs.append(.parameter(name: String(part.dropFirst()))) }
            else if part.hasPrefix("{") && part.hasSuffix(":int}") { segs.append(.constrained(name: String(part.dropFirst().dropLast(5)), .int)) }
            else if part.hasPrefix("*") { segs.append(.wildcard(name: part.count == 1 ? "*" : String(part.dropFirst()))) }
            else { segs.append(.literal(Array(part.utf8))) }
        }
        return Pattern(scheme: scheme, host: .any, variants: [segs])
    }
}
