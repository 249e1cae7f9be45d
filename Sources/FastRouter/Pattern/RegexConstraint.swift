import CPCRE2

/// A regex constraint compiled once by PCRE2 and shared by every thread that matches.
///
/// The pattern is compiled in UTF mode and anchored at both ends, so it must match the whole
/// decoded segment (`{x:[a-z]+}` does not accept `abc1`). A pattern that is one repeated
/// character class is then matched by a ``ByteClassScanner``, which answers as PCRE2 would.
/// JIT compilation is attempted and its failure ignored: the interpreter then runs the same
/// program under the same limits.
///
/// Thread safety: immutable after `init`; PCRE2 only reads compiled code while matching, so one
/// instance serves any number of threads, each with its own ``RegexScratch``.
/// Lifetime: the PCRE2 code is freed in `deinit`.
package final class CompiledRegex: @unchecked Sendable {
    /// The PCRE2 source, exactly as written between `:` and the closing `}`.
    let source: String
    /// Whether PCRE2 JIT-compiled the pattern (false where JIT is unavailable or refused).
    let isJITCompiled: Bool
    /// The table that matches the pattern without PCRE2 when it is a repeated character class.
    let scanner: ByteClassScanner?
    // Safety: set once in init, never mutated, freed only in deinit; pcre2_match treats it as const.
    private let code: OpaquePointer

    /// Options every constraint is compiled with: UTF-8 subjects, whole-segment match.
    private static let compileOptions: UInt32 = UInt32(PCRE2_UTF) | UInt32(PCRE2_ANCHORED) | UInt32(PCRE2_ENDANCHORED)

    /// Compiles `source` with PCRE2 (UTF, anchored at both ends), then JIT-compiles it when possible.
    ///
    /// - Parameters:
    ///   - source: The regex text, valid UTF-8 without NUL (the parser guarantees both).
    ///   - patternOffset: Byte offset of the regex's first byte in the whole route pattern, so that
    ///     a compile error points into the text the user wrote.
    /// - Throws: ``RouterError/Code/invalidRegex`` with offset `patternOffset` plus PCRE2's error
    ///   offset and PCRE2's own message.
    /// - Complexity: O(length of `source`); allocates the compiled program.
    init(source: String, patternOffset: Int) throws(RouterError) {
        var text = source
        var errorCode: Int32 = 0
        var errorOffset = 0
        let compiled: OpaquePointer? = text.withUTF8 { utf8 in
            // An empty Swift string may have no storage; PCRE2 10.42 rejects a NULL pattern even when empty.
            var empty: UInt8 = 0
            return withUnsafePointer(to: &empty) { fallback in
                fr_pcre2_compile(utf8.baseAddress ?? fallback, utf8.count, Self.compileOptions, &errorCode, &errorOffset)
            }
        }
        guard let compiled else {
            // PCRE2 points at the regex's end for an unfinished construct (the constraint's
            // closing brace), and for some verbs past it: never further than that brace.
            let inside = min(errorOffset, source.utf8.count)
            throw RouterError(.invalidRegex, offset: patternOffset + inside,
                              "regex constraint does not compile: \(Self.errorMessage(errorCode))")
        }
        self.source = source
        self.code = compiled
        self.scanner = ByteClassScanner.recognize(source)
        // JIT failure (no JIT support, or out of executable memory) is not an error: the interpreter is exact too.
        // The JIT size, not the return value, tells whether JIT code exists: `(*NO_JIT)` makes the call a no-op.
        _ = fr_pcre2_jit_compile(compiled)
        self.isJITCompiled = fr_pcre2_jit_size(compiled) > 0
    }

    deinit {
        fr_pcre2_code_free(code)
    }

    /// Matches the whole segment against the regex, under the limits set in `scratch`.
    ///
    /// - Parameters:
    ///   - segment: A decoded segment, expected to be valid UTF-8 (PCRE2 still checks it, so invalid
    ///     bytes fail to match rather than reach undefined behaviour).
    ///   - scratch: The calling thread's scratch; never used by two threads at once.
    /// - Returns: `.matched`, `.failed`, or `.limitExceeded` when a PCRE2 resource limit stopped the match.
    /// - Complexity: bounded by ``RegexScratch/matchLimit``; allocates nothing when JIT-compiled.
    package func match(_ segment: UnsafeBufferPointer<UInt8>, scratch: RegexScratch) -> RegexOutcome {
        if let scanner { return scanner.matches(segment) ? .matched : .failed }
        return matchWithPCRE2(segment, scratch: scratch)
    }

    /// ``match(_:scratch:)`` by PCRE2 itself, even when a scanner could answer.
    func matchWithPCRE2(_ segment: UnsafeBufferPointer<UInt8>, scratch: RegexScratch) -> RegexOutcome {
        guard let data = scratch.matchData, let context = scratch.matchContext else { return .limitExceeded }
        let status: Int32
        if let base = segment.baseAddress {
            status = fr_pcre2_match(code, base, segment.count, 0, data, context)
        } else {
            var empty: UInt8 = 0
            status = withUnsafePointer(to: &empty) { fr_pcre2_match(code, $0, 0, 0, data, context) }
        }
        return RegexOutcome(status: status)
    }

    /// PCRE2's text for a compile error code.
    private static func errorMessage(_ code: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let length = buffer.withUnsafeMutableBufferPointer { fr_pcre2_get_error_message(code, $0.baseAddress, $0.count) }
        guard length > 0 else { return "PCRE2 error \(code)" }
        return String(decoding: buffer[..<Int(length)], as: UTF8.self)
    }
}

extension CompiledRegex: Equatable {
    /// Two compiled regexes are interchangeable when their sources are equal: the options are fixed.
    package static func == (lhs: CompiledRegex, rhs: CompiledRegex) -> Bool {
        lhs.source == rhs.source
    }
}

/// How one regex match ended.
package enum RegexOutcome: Equatable {
    /// The whole segment matched.
    case matched
    /// The segment does not match (or is not valid UTF-8).
    case failed
    /// A match, depth, heap or JIT-stack limit stopped PCRE2: the constraint counts as not matching,
    /// and the router records the event.
    case limitExceeded

    /// Maps a `pcre2_match` return value; zero (ovector too small) still means a match.
    init(status: Int32) {
        if status >= 0 {
            self = .matched
            return
        }
        switch status {
        case Int32(PCRE2_ERROR_MATCHLIMIT), Int32(PCRE2_ERROR_DEPTHLIMIT), Int32(PCRE2_ERROR_HEAPLIMIT),
             Int32(PCRE2_ERROR_JIT_STACKLIMIT), Int32(PCRE2_ERROR_NOMEMORY):
            self = .limitExceeded
        default:
            self = .failed
        }
    }
}

/// Per-thread PCRE2 working memory: match data, a match context carrying the limits, and a JIT stack.
///
/// Create one per thread (or per reusable match object) and keep it: after creation, matching with
/// a JIT-compiled regex allocates nothing. Thread safety: not shareable; one thread at a time.
/// Lifetime: everything is freed in `deinit`.
///
/// The limits bound the worst case of a catastrophic pattern while leaving room for linear ones on
/// the largest segment a URL may hold (64 KiB). Measured with PCRE2 10.42 on a 2-core x86_64 VM:
/// - `(a+)+$` on 10 KiB of `a` then `b` stops at the match limit in about 1 ms with JIT (about 7 ms
///   in the interpreter); with PCRE2's default limit of 10,000,000 it takes 14 ms / 100 ms.
/// - Linear regexes that backtrack once per byte, such as `v[0-9]+(\.[0-9]+)*` or `(a|b)*` on a
///   64 KiB segment, succeed with a match limit of 100,000; 500,000 leaves five times that headroom.
/// - The JIT ignores the depth limit and keeps backtracking state on its own stack: the same regexes
///   need about 3 MiB of it at 64 KiB, so the stack may grow to 4 MiB (reserved address space,
///   committed only as touched), far above the 32 KiB PCRE2 uses by default.
/// - The interpreter (no JIT) keeps backtracking frames on the heap, one per nesting level: a depth
///   limit of 250,000 (about four per byte of 64 KiB) and a heap limit of 32 MiB cover the same
///   regexes. Its frames stay in the match data for reuse until this scratch is freed.
package final class RegexScratch {
    /// Backtracking steps one match may take (`pcre2_set_match_limit`).
    static let matchLimit: UInt32 = 500_000
    /// Nesting depth of interpreter backtracking (`pcre2_set_depth_limit`); the JIT ignores it.
    static let depthLimit: UInt32 = 250_000
    /// Interpreter heap for backtracking frames, in KiB (`pcre2_set_heap_limit`).
    static let heapLimitKiB: UInt32 = 32 * 1024
    /// Initial and maximum JIT stack sizes in bytes.
    static let jitStackStart = 32 * 1024
    static let jitStackMax = 4 * 1024 * 1024

    // Safety: owned by this object, created in init and freed in deinit; nil only when PCRE2 ran out
    // of memory, in which case every match reports `.limitExceeded` instead of dereferencing NULL.
    fileprivate let matchData: OpaquePointer?
    fileprivate let matchContext: OpaquePointer?
    private let jitStack: OpaquePointer?

    /// Creates match data, a match context with the limits above, and a JIT stack.
    ///
    /// - Complexity: a few small allocations and one address-space reservation of ``jitStackMax`` bytes.
    package init() {
        // Captures are never read: one ovector pair is enough for any pattern.
        matchData = fr_pcre2_match_data_create(1)
        matchContext = fr_pcre2_match_context_create()
        jitStack = fr_pcre2_jit_stack_create(Self.jitStackStart, Self.jitStackMax)
        if let context = matchContext {
            _ = fr_pcre2_set_match_limit(context, Self.matchLimit)
            _ = fr_pcre2_set_depth_limit(context, Self.depthLimit)
            _ = fr_pcre2_set_heap_limit(context, Self.heapLimitKiB)
            // Without a stack of our own, JIT matches fall back to 32 KiB of the machine stack.
            if let stack = jitStack { fr_pcre2_jit_stack_assign(context, stack) }
        }
    }

    deinit {
        if let matchData { fr_pcre2_match_data_free(matchData) }
        if let matchContext { fr_pcre2_match_context_free(matchContext) }
        if let jitStack { fr_pcre2_jit_stack_free(jitStack) }
    }
}
