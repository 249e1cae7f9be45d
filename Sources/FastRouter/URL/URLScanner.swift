
/// Lower-cased scheme names treated as web schemes (host = domain, path matched alone).
/// Plain memory, read by every lookup without reference counting.
struct WebSchemes {
    private let names: UnsafeMutablePointer<UInt8>
    private let offsets: UnsafeMutablePointer<Int>
    let count: Int

    init(_ schemes: Set<String>) {
        let sorted = schemes.map { Array($0.lowercased().utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        let total = sorted.reduce(0) { $0 + $1.count }
        names = .allocate(capacity: max(total, 1))
        offsets = .allocate(capacity: sorted.count + 1)
        count = sorted.count
        var offset = 0
        for (index, name) in sorted.enumerated() {
            offsets[index] = offset
            (names + offset).initialize(from: name, count: name.count)
            offset += name.count
        }
        offsets[sorted.count] = offset
    }

    func deallocate() {
        names.deallocate()
        offsets.deallocate()
    }

    /// True when the scheme bytes (any case) name a web scheme.
    @inline(__always)
    func contains(_ scheme: UnsafePointer<UInt8>, _ length: Int) -> Bool {
        for index in 0..<count where offsets[index + 1] - offsets[index] == length {
            if ByteComparison.equal(names + offsets[index], scheme, length, folded: true) { return true }
        }
        return false
    }
}

extension ScratchState {
    /// Whether `url` starts inside one of this scratch's buffers: a result of the last lookup
    /// (its fragment, a parameter) matched again. A lookup writes over those buffers, so such a
    /// URL must first be ``setAside(_:)``.
    @inline(__always)
    func holdsURL(_ url: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = url.baseAddress else { return false }
        // The four buffers are one allocation (see ``allocateBytes(_:)``).
        return UInt(bitPattern: start - UnsafePointer(self.url)) < UInt(bitPattern: 4 &* (byteCapacity &+ Self.padding))
    }

    /// `url`, which lies in one of this scratch's buffers, moved to the start of the canonical
    /// path buffer: the slow path copies it out before writing there, and a plain path kept for
    /// declines is read from there (the kept copy goes to ``url``).
    @inline(never)
    func setAside(_ url: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        // No URL inside a buffer is longer than it; the regions may overlap (a move).
        UnsafeMutableRawPointer(joined).copyMemory(from: url.baseAddress!, byteCount: url.count)
        return UnsafeBufferPointer(start: joined, count: url.count)
    }

    /// Splits and decodes `url` into this scratch (docs/SEMANTICS.md §3.2, §3.4). Returns `false` for an
    /// invalid URL: over 64 KiB, over 1024 segments, a bad escape, NUL, or invalid UTF-8.
    /// - Complexity: one pass over the URL's bytes; allocates only when the URL is longer
    ///   than any this scratch has seen.
    mutating func load(url: UnsafeBufferPointer<UInt8>, webSchemes: WebSchemes, plusAsSpace: Bool) -> Bool {
        segmentCount = 0
        host = nil
        hostLength = 0
        scheme = nil
        schemeLength = 0
        firstSegmentIsHost = false
        fragment = nil
        fragmentLength = 0
        queryPairs.removeAll()
        let length = url.count
        guard length <= MatchScratch.maxURLLength else { return false }
        guard length > 0, let source = url.baseAddress else { return true }
        reserveBytes(length)
        // Work on the padded copy: every load below may run past the URL's end.
        Self.copy(source, length, to: self.url)
        // A '?' after the copy ends the path scan where the URL ends, so the scan needs no
        // separate end check (see `splitPlainPath`).
        self.url[length] = UInt8(ascii: "?")
        let base = UnsafePointer(self.url)

        var position = 0
        var isWeb = false
        if let colon = URLSyntax.schemeLength(base, length) {
            scheme = UnsafePointer(base)
            schemeLength = colon
            isWeb = webSchemes.contains(base, colon)
            position = colon + 1
        }
        var decodedUsed = 0
        if scheme != nil, URLSyntax.authorityFollows(base, at: position, length: length) {
            let authorityStart = position + 2
            var authorityEnd = authorityStart
            // A '%' or a non-ASCII byte: the authority's escapes and UTF-8 need checking.
            var escaped = false
            while authorityEnd < length && !URLSyntax.endsAuthority(base[authorityEnd]) {
                escaped = escaped || base[authorityEnd] == 0x25 || base[authorityEnd] >= 0x80
                authorityEnd += 1
            }
            // NUL, bad escapes and invalid UTF-8 make a URL invalid anywhere but in its fragment,
            // including the parts matching never reads (userinfo, port). Decoded into spare room
            // that the rest of the URL's decoding then overwrites.
            if authorityEnd > authorityStart && memchr(base + authorityStart, 0, authorityEnd - authorityStart) != nil {
                return false
            }
            if escaped && PercentDecoding.decode(base + authorityStart, authorityEnd - authorityStart,
                                                 into: decoded, plusAsSpace: false) < 0 {
                return false
            }
            var hostStart = authorityStart
            // Userinfo ("user:pass@") is dropped.
            for index in authorityStart..<authorityEnd where base[index] == UInt8(ascii: "@") { hostStart = index + 1 }
            if isWeb {
                var hostEnd = authorityEnd
                if hostStart < authorityEnd && base[hostStart] == UInt8(ascii: "[") {
                    // IPv6 literal: the port colon comes after the closing bracket.
                    var index = hostStart
                    while index < authorityEnd && base[index] != UInt8(ascii: "]") { index += 1 }
                    hostEnd = min(index + 1, authorityEnd)
                } else {
                    var index = hostStart
                    while index < authorityEnd && base[index] != UInt8(ascii: ":") { index += 1 }
                    hostEnd = index
                }
                host = UnsafePointer(base + hostStart)
                hostLength = hostEnd - hostStart
                if escaped && memchr(base + hostStart, 0x25, hostLength) != nil {
                    // The host is matched decoded, as path segments are.
                    let destination = decoded + decodedUsed
                    hostLength = PercentDecoding.decode(base + hostStart, hostLength, into: destination, plusAsSpace: false)
                    host = UnsafePointer(destination)
                    decodedUsed += hostLength
                }
            } else if hostStart < authorityEnd {
                // A custom scheme's host is the first path segment.
                guard addSegment(base + hostStart, authorityEnd - hostStart, special: true, &decodedUsed) else {
                    return false
                }
                firstSegmentIsHost = true
            }
            position = authorityEnd
        }

        // Path: split on '/', dropping empty segments. Most paths need no decoding and are split in
        // one word-at-a-time pass; a path with '%', NUL or non-ASCII bytes is split again segment by
        // segment, decoding and validating each on its own.
        let firstPathSegment = segmentCount
        var needsDecoding = false
        let pathEnd = splitPlainPath(base, from: position, length: length, needsDecoding: &needsDecoding)
        guard pathEnd >= 0 else { return false }
        if needsDecoding {
            segmentCount = firstPathSegment
            var index = position
            while index < pathEnd {
                if base[index] == 0x2F {
                    index += 1
                    continue
                }
                let start = index
                let (segmentEnd, special) = Self.scanSegment(base, from: index, limit: pathEnd)
                index = segmentEnd
                guard addSegment(base + start, segmentEnd - start, special: special, &decodedUsed) else {
                    return false
                }
            }
        }
        return recordQueryAndFragment(base, from: pathEnd, length: length, plusAsSpace: plusAsSpace,
                                      decodedUsed: &decodedUsed)
    }

    /// Splits the path starting at `start` on '/' up to the first '?' or '#', sixteen bytes at a
    /// time, recording each non-empty segment as it is written. Returns where the path ends, or
    /// -1 past 1024 segments. Sets `needsDecoding` when the path holds '%', NUL or a non-ASCII
    /// byte: its segments must then be decoded and validated instead.
    /// `base` is the padded copy of the URL with a '?' at `length`: the scan always stops there
    /// at the latest, and a block may extend past it (those bytes are masked off).
    @inline(__always)
    private mutating func splitPlainPath(_ base: UnsafePointer<UInt8>, from start: Int, length: Int,
                                         needsDecoding: inout Bool) -> Int {
        let raw = UnsafeRawPointer(base)
        // Local copies: stores through them could alias `self`, which would be reloaded each time.
        let starts = segmentStarts
        let lengths = segmentLengths
        var count = segmentCount
        var index = start
        var segmentStart = start
        var special: UInt32 = 0
        while true {
            // Bit i of each mask stands for byte index + i.
            let block = raw.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
            let ends = LaneMask.of((block .== SIMD16(repeating: 0x3F)) .| (block .== SIMD16(repeating: 0x23)))
            // Only the block that holds the path's end needs its bytes past the end masked off.
            let inside: UInt32 = ends == 0 ? 0xFFFF : (UInt32(1) &<< UInt32(ends.trailingZeroBitCount)) &- 1
            special |= (LaneMask.highBits(block) | LaneMask.of((block .== SIMD16(repeating: 0)) .| (block .== SIMD16(repeating: 0x25))))
                & inside
            var slashes = LaneMask.of(block .== SIMD16(repeating: 0x2F)) & inside
            while slashes != 0 {
                let slash = index &+ slashes.trailingZeroBitCount
                if slash > segmentStart {
                    guard Self.record(base + segmentStart, slash &- segmentStart, starts, lengths, &count) else { return -1 }
                }
                segmentStart = slash &+ 1
                slashes &= slashes &- 1
            }
            if ends != 0 {
                index &+= ends.trailingZeroBitCount
                break
            }
            index &+= 16
        }
        if index > segmentStart {
            guard Self.record(base + segmentStart, index &- segmentStart, starts, lengths, &count) else { return -1 }
        }
        segmentCount = count
        needsDecoding = special != 0
        return index
    }

    /// Copies `count` bytes (at least one) from `source`, reading none outside them: a URL is
    /// short, so 16-byte blocks (the last one overlapping the one before) beat a call to memcpy.
    /// `source` and `target` must not overlap: the last block rereads bytes already stored.
    @inline(__always)
    private static func copy(_ source: UnsafePointer<UInt8>, _ count: Int, to target: UnsafeMutablePointer<UInt8>) {
        let from = UnsafeRawPointer(source)
        let to = UnsafeMutableRawPointer(target)
        if count >= 16 {
            var offset = 0
            while offset &+ 16 < count {
                to.storeBytes(of: from.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self),
                              toByteOffset: offset, as: SIMD16<UInt8>.self)
                offset &+= 16
            }
            to.storeBytes(of: from.loadUnaligned(fromByteOffset: count &- 16, as: SIMD16<UInt8>.self),
                          toByteOffset: count &- 16, as: SIMD16<UInt8>.self)
        } else if count >= 8 {
            to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
            to.storeBytes(of: from.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self),
                          toByteOffset: count &- 8, as: UInt64.self)
        } else {
            for index in 0..<count { target[index] = source[index] }
        }
    }



    /// Records segment number `count` as it is written in the URL. `false` past 1024 segments.
    @inline(__always)
    private static func record(_ start: UnsafePointer<UInt8>, _ length: Int,
                               _ starts: UnsafeMutablePointer<UnsafePointer<UInt8>>,
                               _ lengths: UnsafeMutablePointer<Int>, _ count: inout Int) -> Bool {
        guard count < MatchScratch.maxSegments else { return false }
        starts[count] = start
        lengths[count] = length
        count &+= 1
        return true
    }

    /// Validates, decodes if needed and records one non-empty segment. `special` says whether its
    /// bytes hold '%', NUL or non-ASCII bytes, as found while splitting.
    @inline(__always)
    private mutating func addSegment(_ start: UnsafePointer<UInt8>, _ length: Int, special: Bool,
                                     _ decodedUsed: inout Int) -> Bool {
        guard segmentCount < MatchScratch.maxSegments else { return false }
        var bytes = start
        var count = length
        if special {
            let destination = decoded + decodedUsed
            count = PercentDecoding.decode(start, length, into: destination, plusAsSpace: false)
            guard count >= 0 else { return false }
            if count != length || memchr(start, 0x25, length) != nil {
                bytes = UnsafePointer(destination)
                decodedUsed += count
            }
        }
        segmentStarts[segmentCount] = bytes
        segmentLengths[segmentCount] = count
        segmentCount += 1
        return true
    }

    /// Finds the end of the segment starting at `start` (the next '/' or `limit`) eight bytes at a
    /// time, noting whether it holds a byte that needs decoding or validation ('%', NUL, non-ASCII).
    /// `base` is the padded copy of the URL: a word may be loaded from any position before `limit`.
    @inline(__always)
    static func scanSegment(_ base: UnsafePointer<UInt8>, from start: Int, limit: Int) -> (end: Int, special: Bool) {
        let raw = UnsafeRawPointer(base)
        var special: UInt64 = 0
        var index = start
        while true {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            var stop = ByteComparison.zeroBytes(word ^ 0x2F2F_2F2F_2F2F_2F2F)
            if index + 8 > limit {
                // Bytes at or past the limit (the query's '?') end the segment too.
                stop |= 0x8080_8080_8080_8080 << (UInt64(limit - index) * 8)
            }
            // Zero-byte tests may misfire only above a real zero byte, so masking keeps them exact.
            let flags = (word & 0x8080_8080_8080_8080) | ByteComparison.zeroBytes(word) | ByteComparison.zeroBytes(word ^ 0x2525_2525_2525_2525)
            if stop != 0 {
                let taken = stop.trailingZeroBitCount / 8
                if taken > 0 { special |= flags & (UInt64.max >> UInt64(64 - 8 * taken)) }
                return (index + taken, special != 0)
            }
            special |= flags
            index += 8
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
