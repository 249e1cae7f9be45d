/// The first step of a lookup (docs/ARCHITECTURE.md, "One lookup"): one pass over the URL that
/// validates it and finds the scheme, the host and the path a walk reads.
///
/// The fast path reads the caller's bytes where they are: a URL whose path (and custom host)
/// holds no `%`, no non-ASCII byte, no NUL and no `//` is already canonical once one trailing
/// `/` is dropped. Anything else takes the slow path: ``load(url:webSchemes:plusAsSpace:)``
/// splits and decodes it, and the segments are joined into the scratch as a canonical path.
/// Both give the same answers (the differential test checks it).
extension ScratchState {
    /// Prepares a walk over `url` into ``WalkState/input``, given what ``scanPlainPath(_:_:)``
    /// found (`end` is -1 for a URL that is not a plain path), with `core`'s options: `false`
    /// for an invalid URL (docs/SEMANTICS.md §3.4).
    /// - Complexity: one pass over a URL that is not a plain path; allocates only when it is
    ///   longer than any this scratch has seen and must be copied.
    @inline(__always)
    mutating func takeURL(_ url: UnsafeBufferPointer<UInt8>, end: Int, slashes: UInt64, options core: RouterCore) -> Bool {
        guard end >= 0 else { return loadFullURL(url, options: core) }
        takePlainPath(url, end: end, slashes: slashes, options: core)
        return true
    }

    /// Makes the plain path `url` (``scanPlainPath(_:_:)`` gave its `end` and `slashes`) the
    /// walk's input (``WalkState/input``), read where it is.
    ///
    /// Most URLs a server routes are a plain path: `/`, then bytes that need neither decoding nor
    /// a query split. Those are checked sixteen bytes at a time with two compares and walked
    /// where they are; everything else (a scheme, a query, an escape, a rare byte) goes through
    /// ``loadFullURL(_:options:)``, which decides the same URLs alike. The input is written
    /// where the walk reads it, once: the walk's hot loop reads it there.
    @inline(__always)
    mutating func takePlainPath(_ url: UnsafeBufferPointer<UInt8>, end: Int, slashes: UInt64, options core: RouterCore) {
        // A plain path has bytes: the scan refused a URL without.
        let base = url.baseAddress.unsafelyUnwrapped
        // Field by field: the host is already nil (only the full scan sets one, and the next
        // lookup clears it with the other extras, see ``ScratchState/urlExtras``).
        walk.input.bytes = base
        walk.input.values = base
        walk.input.start = 0
        walk.input.end = end
        walk.input.readable = url.count
        walk.input.foldLimit = core.plainPathFoldLimit
        walk.input.slashes = slashes
        walk.input.slashBase = 0
        // The whole first window: it shows the path's end when the path ends in it, and past
        // that end the walk never asks.
        walk.input.slashLimit = 64
        walk.input.startAhead = slashes &>> 1
    }

    /// Prepares a walk over `url`, which is not a plain path, into ``WalkState/input``, with
    /// `core`'s options: `false` for an invalid URL (docs/SEMANTICS.md §3.4). The router's
    /// options are read here, off the plain path's way.
    /// - Complexity: one pass over the URL; allocates only when it is longer than any this
    ///   scratch has seen and must be copied.
    @inline(never)
    mutating func loadFullURL(_ url: UnsafeBufferPointer<UInt8>, options core: RouterCore) -> Bool {
        // A URL that lies in this scratch (a parameter value of the last lookup) is moved out of
        // the buffers the slow path writes.
        let url = holdsURL(url) ? setAside(url) : url
        guard let input = scanFullURL(url, webSchemes: core.webSchemes, plusAsSpace: core.options.plusAsSpace,
                                      foldAll: core.options.caseInsensitivePaths) else { return false }
        walk.input = input
        return true
    }

    /// Where the walk of a plain path ends (one trailing `/` dropped), or -1 when `url` is not
    /// one: it starts with `/` and passes ``plainPathSlashes(_:_:)`` within 2048 bytes (so it
    /// cannot have more segments than allowed). With it, where the path's first 64 bytes end a
    /// segment, at a `/` or the path's end (bit i for byte i): the walk finds its segments'
    /// ends there (``WalkInput/slashes``).
    @inline(never)
    static func scanPlainPath(_ base: UnsafePointer<UInt8>?, _ length: Int) -> (end: Int, slashes: UInt64) {
        guard let base, length > 0, length <= 2 &* MatchScratch.maxSegments, base[0] == 0x2F,
              let (slashes, trailingSlash) = plainPathSlashes(base, length) else { return (-1, 0) }
        // One trailing '/' is not a segment ("//" is not plain), and marks the path's end in the
        // window already; any other end is marked when the window reaches it.
        if trailingSlash { return (length &- 1, slashes) }
        return (length, length < 64 ? slashes | 1 &<< UInt64(truncatingIfNeeded: length) : slashes)
    }

    /// Forgets the scheme, host, fragment and query of the last URL (see ``urlExtras``).
    @inline(never)
    mutating func clearURLExtras() {
        urlExtras = false
        host = nil
        hostLength = 0
        scheme = nil
        schemeLength = 0
        fragment = nil
        fragmentLength = 0
        queryPairs.removeAll()
        slowPath = false
        walk.input.host = nil
        walk.input.hostLength = 0
    }

    /// Where the `length` bytes at `base` (a path of at most 2048 bytes) hold a `/`, bit i for
    /// byte i of the first 64, when they hold no byte below `&` (NUL, space, `!`, `"`, `#`, `$`,
    /// `%`, controls), no `?`, no non-ASCII byte and no `//`: a path that is already canonical.
    /// `nil` sends the URL to the full scan, which tells the rare bytes that are fine (`!`, `$`,
    /// space) from the rest.
    /// Sixteen bytes at a time; the last block is the one ending at the path's end, and a
    /// shorter path is read as two overlapping words, so no load leaves the caller's buffer.
    /// Also tells whether the last byte is a `/`, from the classes already computed (reading
    /// the byte again would cost the caller a frame: the compiler takes it from the last block,
    /// kept on the stack).
    @inline(__always)
    static func plainPathSlashes(_ base: UnsafePointer<UInt8>, _ length: Int) -> (slashes: UInt64, trailingSlash: Bool)? {
        let raw = UnsafeRawPointer(base)
        if length >= 16 {
            var index = 0
            var carry: UInt32 = 0
            var slashes: UInt64 = 0
            while length &- index > 16 {
                let (rare, slash) = plainClasses(raw.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self))
                if rare != 0 || slash & (slash &<< 1 | carry) != 0 { return nil }
                if index < 64 { slashes |= UInt64(slash) &<< UInt64(truncatingIfNeeded: index) }
                carry = slash &>> 15
                index &+= 16
            }
            // The block ending at the path's end overlaps bytes already checked, which hold no
            // rare byte and no "//": whatever it finds is new, or a "//" across the boundary.
            let last = length &- 16
            let (rare, slash) = plainClasses(raw.loadUnaligned(fromByteOffset: last, as: SIMD16<UInt8>.self))
            guard rare == 0 && slash & (slash &<< 1 | (length &- index == 16 ? carry : 0)) == 0 else { return nil }
            // Bits past 64 fall off: the mask covers the first 64 bytes.
            if last < 64 { slashes |= UInt64(slash) &<< UInt64(truncatingIfNeeded: last) }
            return (slashes, slash & 0x8000 != 0)
        }
        // A shorter path: its bytes in two words, some of them twice where the words overlap.
        // Repeated bytes change nothing about rare bytes, but lanes side by side across the
        // overlap are not side by side in the path: that pair (lanes 7 and 8, or 3 and 4) is not
        // a "//", and every pair the path has is inside one half.
        var low: UInt64, high: UInt64, seam: UInt32, half: UInt32, shift: Int
        if length >= 8 {
            low = raw.loadUnaligned(as: UInt64.self)
            high = raw.loadUnaligned(fromByteOffset: length &- 8, as: UInt64.self)
            seam = 1 &<< 8
            half = 8
            shift = length &- 8
        } else if length >= 4 {
            low = UInt64(raw.loadUnaligned(as: UInt32.self))
                | UInt64(raw.loadUnaligned(fromByteOffset: length &- 4, as: UInt32.self)) &<< 32
            high = 0x4141_4141_4141_4141
            seam = 1 &<< 4
            half = 4
            shift = length &- 4
        } else {
            // One to three bytes, then letters.
            low = 0x4141_4141_4141_4100 | UInt64(base[0])
            if length > 1 { low = low & ~0xFF00 | UInt64(base[1]) &<< 8 }
            if length > 2 { low = low & ~0xFF_0000 | UInt64(base[2]) &<< 16 }
            high = 0x4141_4141_4141_4141
            seam = 0
            half = 8
            shift = 0
        }
        let (rare, slash) = plainClasses(unsafeBitCast(SIMD2<UInt64>(low, high), to: SIMD16<UInt8>.self))
        guard rare == 0 && slash & (slash &<< 1) & ~seam == 0 else { return nil }
        // The first half's lanes are the path's first bytes; the second half's end at its end.
        let first = slash & (1 &<< half &- 1)
        let slashes = UInt64(first) | UInt64(slash &>> half) &<< UInt64(truncatingIfNeeded: shift)
        return (slashes, slashes &>> UInt64(truncatingIfNeeded: length &- 1) & 1 != 0)
    }

    /// Bit i set where byte i of `block` is below `&` or non-ASCII (one signed compare), or `?`;
    /// and where it is `/`.
    @inline(__always)
    private static func plainClasses(_ block: SIMD16<UInt8>) -> (rare: UInt32, slash: UInt32) {
        let signed = unsafeBitCast(block, to: SIMD16<Int8>.self)
        return (LaneMask.of((signed .< SIMD16(repeating: 0x26)) .| (block .== SIMD16(repeating: 0x3F))),
                LaneMask.of(block .== SIMD16(repeating: 0x2F)))
    }

    /// ``loadFullURL(_:options:)`` for any URL: scheme and authority, the
    /// path's end and whether it is canonical, then the query and fragment; the slow path
    /// decodes what is not canonical.
    @inline(never)
    mutating func scanFullURL(_ url: UnsafeBufferPointer<UInt8>, webSchemes: WebSchemes, plusAsSpace: Bool,
                              foldAll: Bool) -> WalkInput? {
        clearURLExtras()
        // Conservative: whatever this URL sets, the next plain URL clears once.
        urlExtras = true
        let length = url.count
        guard length <= MatchScratch.maxURLLength else { return nil }
        reserveBytes(length)
        guard length > 0, let base = url.baseAddress else {
            return WalkInput(bytes: UnsafePointer(joined), values: UnsafePointer(joined), start: 0, end: 0, readable: 0,
                             foldLimit: 0, host: nil, hostLength: 0, slashes: 0, slashBase: 0, slashLimit: 0)
        }
        var position = 0
        var foldLimit = foldAll ? Int.max : 0
        if let colon = URLSyntax.schemeLength(base, length) {
            scheme = base
            schemeLength = colon
            position = colon &+ 1
        }
        if scheme != nil {
            // "scheme://authority": anything else is left to the slow path.
            guard URLSyntax.authorityFollows(base, at: position, length: length) else {
                return slowPrepare(url, webSchemes: webSchemes, plusAsSpace: plusAsSpace, foldAll: foldAll)
            }
            let authorityStart = position &+ 2
            var index = authorityStart
            var colon = -1
            while index < length {
                let byte = base[index]
                if URLSyntax.endsAuthority(byte) { break }
                // Userinfo, escapes, IPv6 literals, NUL and non-ASCII bytes need the slow path.
                if byte == 0x40 || byte == 0x25 || byte == 0x5B || byte == 0 || byte >= 0x80 {
                    return slowPrepare(url, webSchemes: webSchemes, plusAsSpace: plusAsSpace, foldAll: foldAll)
                }
                if byte == 0x3A && colon < 0 { colon = index }
                index &+= 1
            }
            if webSchemes.contains(base, schemeLength) {
                host = base + authorityStart
                hostLength = (colon < 0 ? index : colon) &- authorityStart
                position = index
            } else {
                // A custom scheme's host is the first segment: the walk starts at the '/' before it.
                guard index > authorityStart else {
                    return slowPrepare(url, webSchemes: webSchemes, plusAsSpace: plusAsSpace, foldAll: foldAll)
                }
                position = authorityStart &- 1
                if foldLimit == 0 { foldLimit = index }
            }
        } else if base[0] != 0x2F && base[0] != 0x3F && base[0] != 0x23 {
            return slowPrepare(url, webSchemes: webSchemes, plusAsSpace: plusAsSpace, foldAll: foldAll)
        }
        guard let pathEnd = Self.plainPathEnd(base, from: position, length: length) else {
            return slowPrepare(url, webSchemes: webSchemes, plusAsSpace: plusAsSpace, foldAll: foldAll)
        }
        var decodedUsed = 0
        guard recordQueryAndFragment(base, from: pathEnd, length: length, plusAsSpace: plusAsSpace,
                                     decodedUsed: &decodedUsed) else { return nil }
        // One trailing '/' is not a segment ("//" went to the slow path).
        let end = pathEnd > position && base[pathEnd &- 1] == 0x2F ? pathEnd &- 1 : pathEnd
        return WalkInput(bytes: base, values: base, start: position, end: end, readable: length, foldLimit: foldLimit,
                         host: host, hostLength: hostLength, slashes: 0, slashBase: 0, slashLimit: 0)
    }

    /// Where the path starting at `start` ends (its first `?` or `#`, or the URL's end), or
    /// `nil` when it is not canonical: a `%`, NUL or non-ASCII byte, or an empty segment.
    /// Sixteen bytes at a time with vector compares; the last block of a URL of sixteen bytes or
    /// more is the one ending at its end, and a shorter URL is read into a local block, so no
    /// load leaves the caller's buffer. A URL longer than 2048 bytes may have more segments than
    /// allowed (each takes two bytes): the slow path counts them.
    @inline(__always)
    static func plainPathEnd(_ base: UnsafePointer<UInt8>, from start: Int, length: Int) -> Int? {
        guard length <= 2 * MatchScratch.maxSegments else { return nil }
        let raw = UnsafeRawPointer(base)
        var index = start
        // The previous block ended with a '/': bit 0 of the next block's "after a slash" mask.
        var carry: UInt32 = 0
        while index < length {
            let available = length &- index
            let valid = Swift.min(available, 16)
            var (ends, slash, special): (UInt32, UInt32, UInt32)
            if available >= 16 {
                (ends, slash, special) = classify(raw.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self))
            } else if length >= 16 {
                // The block ending at the URL's end, its bytes already seen shifted out below.
                (ends, slash, special) = classify(raw.loadUnaligned(fromByteOffset: length &- 16, as: SIMD16<UInt8>.self))
                let shift = UInt32(truncatingIfNeeded: 16 &- available)
                ends &>>= shift
                slash &>>= shift
                special &>>= shift
            } else if available >= 8 {
                // A short URL: its first and last eight bytes (overlapping), lanes 8... moved to
                // their places.
                let words = SIMD2<UInt64>(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self),
                                          raw.loadUnaligned(fromByteOffset: length &- 8, as: UInt64.self))
                (ends, slash, special) = classify(unsafeBitCast(words, to: SIMD16<UInt8>.self))
                let shift = UInt32(truncatingIfNeeded: available &- 8)
                ends = ends & 0xFF | (ends &>> 8) &<< shift
                slash = slash & 0xFF | (slash &>> 8) &<< shift
                special = special & 0xFF | (special &>> 8) &<< shift
            } else {
                var word: UInt64 = 0x4141_4141_4141_4141
                if length >= 8 {
                    word = raw.loadUnaligned(fromByteOffset: length &- 8, as: UInt64.self) &>> UInt64(truncatingIfNeeded: (8 &- available) &* 8)
                } else {
                    for offset in 0..<available {
                        word = word & ~(0xFF &<< UInt64(truncatingIfNeeded: offset &* 8))
                            | UInt64(base[index &+ offset]) &<< UInt64(truncatingIfNeeded: offset &* 8)
                    }
                }
                (ends, slash, special) = classify(unsafeBitCast(SIMD2<UInt64>(word, 0x4141_4141_4141_4141), to: SIMD16<UInt8>.self))
            }
            var taken = valid
            if ends != 0 { taken = Swift.min(taken, ends.trailingZeroBitCount) }
            let inside: UInt32 = (1 &<< UInt32(truncatingIfNeeded: taken)) &- 1
            slash &= inside
            if special & inside != 0 || (slash & (slash &<< 1 | carry)) != 0 { return nil }
            if taken < 16 { return index &+ taken }
            carry = slash &>> 15
            index &+= 16
        }
        return index
    }

    /// Bit i set where byte i of `block` ends the path (`?`, `#`), is a `/`, or needs the slow
    /// path (`%`, NUL, non-ASCII).
    @inline(__always)
    private static func classify(_ block: SIMD16<UInt8>) -> (ends: UInt32, slash: UInt32, special: UInt32) {
        (LaneMask.of((block .== SIMD16(repeating: 0x3F)) .| (block .== SIMD16(repeating: 0x23))),
         LaneMask.of(block .== SIMD16(repeating: 0x2F)),
         LaneMask.of((block .== SIMD16(repeating: 0x25)) .| (block .== SIMD16(repeating: 0)))
            | LaneMask.highBits(block))
    }


    /// The slow path: splits and decodes the URL into the scratch, then joins its segments as
    /// the canonical path a walk reads. A decoded `/` stays in its segment: in the bytes a walk
    /// compares it is NUL (as literals spell it), in the values it is `/` again.
    @inline(never)
    mutating func slowPrepare(_ url: UnsafeBufferPointer<UInt8>, webSchemes: WebSchemes, plusAsSpace: Bool,
                              foldAll: Bool) -> WalkInput? {
        guard load(url: url, webSchemes: webSchemes, plusAsSpace: plusAsSpace) else { return nil }
        slowPath = true
        var used = 0
        for index in 0..<segmentCount {
            let start = segmentStarts[index]
            let count = segmentLengths[index]
            joined[used] = 0x2F
            values[used] = 0x2F
            used += 1
            for offset in 0..<count {
                let byte = start[offset]
                values[used + offset] = byte
                joined[used + offset] = byte == 0x2F ? 0 : byte
            }
            used += count
        }
        var foldLimit = 0
        if foldAll {
            foldLimit = Int.max
        } else if firstSegmentIsHost {
            foldLimit = 1 + segmentLengths[0]
        }
        return WalkInput(bytes: UnsafePointer(joined), values: UnsafePointer(values), start: 0, end: used,
                         readable: byteCapacity + Self.padding, foldLimit: foldLimit, host: host, hostLength: hostLength,
                         slashes: 0, slashBase: 0, slashLimit: 0)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
