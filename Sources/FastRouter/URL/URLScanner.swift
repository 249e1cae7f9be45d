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
            if LiteralHash.equal(names + offsets[index], scheme, length, folded: true) { return true }
        }
        return false
    }
}

extension MatchScratch {
    /// Splits and decodes `url` into this scratch (SPEC §3.2, §3.4). Returns `false` for an
    /// invalid URL: over 64 KiB, over 1024 segments, a bad escape, NUL, or invalid UTF-8.
    /// - Complexity: one pass over the URL's bytes; allocates only when the URL is longer
    ///   than any this scratch has seen.
    func load(url: UnsafeBufferPointer<UInt8>, webSchemes: WebSchemes, plusAsSpace: Bool) -> Bool {
        segmentCount = 0
        host = nil
        hostLength = 0
        scheme = nil
        schemeLength = 0
        firstSegmentIsHost = false
        fragment = nil
        fragmentLength = 0
        queryPairs.removeLast(queryPairs.count)
        let length = url.count
        guard length <= Self.maxURLLength else { return false }
        guard length > 0, let base = url.baseAddress else { return true }
        reserveBytes(length)

        // The fragment is exposed raw and never validated, so everything after '#' is set aside first.
        var end = length
        if let hash = memchr(base, 0x23, length) {
            let position = UnsafeRawPointer(hash).assumingMemoryBound(to: UInt8.self) - base
            fragment = base + position + 1
            fragmentLength = length - position - 1
            end = position
        }
        var queryStart = end
        if let question = memchr(base, 0x3F, end) {
            queryStart = UnsafeRawPointer(question).assumingMemoryBound(to: UInt8.self) - base
        }

        var position = 0
        var isWeb = false
        // scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"
        if isAlpha(base[0]) {
            var index = 1
            while index < queryStart && isSchemeByte(base[index]) { index += 1 }
            if index < queryStart && base[index] == UInt8(ascii: ":") {
                scheme = UnsafePointer(base)
                schemeLength = index
                isWeb = webSchemes.contains(base, index)
                position = index + 1
            }
        }
        var decodedUsed = 0
        if scheme != nil, position + 1 < queryStart, base[position] == 0x2F, base[position + 1] == 0x2F {
            let authorityStart = position + 2
            var authorityEnd = authorityStart
            while authorityEnd < queryStart && base[authorityEnd] != 0x2F { authorityEnd += 1 }
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
                for index in hostStart..<hostEnd where base[index] == 0 { return false }
                host = UnsafePointer(base + hostStart)
                hostLength = hostEnd - hostStart
            } else if hostStart < authorityEnd {
                // A custom scheme's host is the first path segment.
                guard addSegment(base + hostStart, authorityEnd - hostStart, &decodedUsed) else { return false }
                firstSegmentIsHost = true
            }
            position = authorityEnd
        }

        // Path: split on '/', dropping empty segments, decoding each on its own.
        var index = position
        while index < queryStart {
            if base[index] == 0x2F {
                index += 1
                continue
            }
            let start = index
            while index < queryStart && base[index] != 0x2F { index += 1 }
            guard addSegment(base + start, index - start, &decodedUsed) else { return false }
        }
        if queryStart < end {
            guard parseQuery(base + queryStart + 1, end - queryStart - 1, plusAsSpace: plusAsSpace,
                             decodedUsed: &decodedUsed) else { return false }
        }
        return true
    }

    /// Validates, decodes if needed, hashes and records one non-empty segment.
    @inline(__always)
    private func addSegment(_ start: UnsafePointer<UInt8>, _ length: Int, _ decodedUsed: inout Int) -> Bool {
        guard segmentCount < Self.maxSegments else { return false }
        var flags: UInt8 = 0
        PercentDecoding.byteClass.withUnsafeBufferPointer { table in
            for offset in 0..<length { flags |= table[Int(start[offset])] }
        }
        var bytes = start
        var count = length
        if flags & 1 != 0 {
            let destination = decoded + decodedUsed
            count = PercentDecoding.decode(start, length, into: destination, plusAsSpace: false)
            guard count >= 0 else { return false }
            bytes = UnsafePointer(destination)
            decodedUsed += count
        } else if flags & 2 != 0 {
            return false
        } else if flags & 4 != 0 {
            guard PercentDecoding.isValidUTF8(start, length) else { return false }
        }
        segmentStarts[segmentCount] = bytes
        segmentLengths[segmentCount] = count
        segmentHashes[segmentCount] = LiteralHash.segmentHash(bytes, count)
        segmentCount += 1
        return true
    }

    @inline(__always)
    private func isAlpha(_ byte: UInt8) -> Bool { (byte | 0x20) &- 0x61 < 26 }

    @inline(__always)
    private func isSchemeByte(_ byte: UInt8) -> Bool {
        isAlpha(byte) || byte &- 0x30 < 10 || byte == 0x2B || byte == 0x2D || byte == 0x2E
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
