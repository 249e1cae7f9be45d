/// The URL syntax both scans read (docs/SEMANTICS.md §3.2), stated once: where a scheme ends,
/// whether an authority follows it, which bytes end the authority, and how the query and the
/// fragment follow the path. The plain-path scan needs none of it (a plain path has no scheme,
/// query or fragment); ``ScratchState/scanFullURL(_:webSchemes:plusAsSpace:foldAll:)``, which
/// reads other URLs where they are, and ``ScratchState/load(url:webSchemes:plusAsSpace:)``,
/// which decodes the rest, both use these.
enum URLSyntax {
    /// The length of the scheme the `length` bytes at `base` start with,
    /// `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )` followed by `:`; `nil` when they start with
    /// none (`?` and `#` are not scheme bytes, so they end the search).
    @inline(__always)
    static func schemeLength(_ base: UnsafePointer<UInt8>, _ length: Int) -> Int? {
        guard length > 0, ASCII.isAlpha(base[0]) else { return nil }
        var index = 1
        while index < length && ASCII.isSchemeCharacter(base[index]) { index &+= 1 }
        return index < length && base[index] == UInt8(ascii: ":") ? index : nil
    }

    /// Whether an authority starts at `position` (just after the scheme's `:`): `//`.
    @inline(__always)
    static func authorityFollows(_ base: UnsafePointer<UInt8>, at position: Int, length: Int) -> Bool {
        length &- position >= 2 && base[position] == 0x2F && base[position &+ 1] == 0x2F
    }

    /// True for the bytes that end an authority: `/`, `?` and `#`.
    @inline(__always)
    static func endsAuthority(_ byte: UInt8) -> Bool {
        byte == 0x2F || byte == 0x3F || byte == 0x23
    }
}

extension ScratchState {
    /// Records what follows the path, which ends at `pathEnd` (its `?`, its `#`, or the URL's
    /// end): the query, decoded into the scratch after the `decodedUsed` bytes already used, and
    /// the raw fragment, which starts at the first `#` and is never validated. `false` for an
    /// invalid query.
    @inline(__always)
    mutating func recordQueryAndFragment(_ base: UnsafePointer<UInt8>, from pathEnd: Int, length: Int,
                                         plusAsSpace: Bool, decodedUsed: inout Int) -> Bool {
        guard pathEnd < length else { return true }
        if base[pathEnd] == UInt8(ascii: "#") {
            fragment = base + (pathEnd &+ 1)
            fragmentLength = length &- pathEnd &- 1
            return true
        }
        return recordQuery(base, from: pathEnd &+ 1, length: length, plusAsSpace: plusAsSpace, decodedUsed: &decodedUsed)
    }

    /// ``recordQueryAndFragment(_:from:length:plusAsSpace:decodedUsed:)`` for a URL with a query
    /// starting at `queryStart` (after its `?`).
    @inline(never)
    private mutating func recordQuery(_ base: UnsafePointer<UInt8>, from queryStart: Int, length: Int,
                                      plusAsSpace: Bool, decodedUsed: inout Int) -> Bool {
        var queryEnd = length
        if queryStart < length, let hash = memchr(base + queryStart, 0x23, length &- queryStart) {
            queryEnd = UnsafeRawPointer(hash).assumingMemoryBound(to: UInt8.self) - base
            fragment = base + (queryEnd &+ 1)
            fragmentLength = length &- queryEnd &- 1
        }
        return parseQuery(base + queryStart, queryEnd &- queryStart, plusAsSpace: plusAsSpace, decodedUsed: &decodedUsed)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
