extension ScratchState {
    /// Splits a query on `&` and the first `=`, decoding keys and values (docs/SEMANTICS.md §3.2, §3.6):
    /// empty items are skipped, a key without `=` has an empty value, repeated keys are kept in
    /// order, `+` is a space unless the router turns that off. Returns `false` for an invalid
    /// escape, NUL or invalid UTF-8.
    mutating func parseQuery(_ start: UnsafePointer<UInt8>, _ length: Int, plusAsSpace: Bool, decodedUsed: inout Int) -> Bool {
        var index = 0
        while index < length {
            let itemStart = index
            var equals = -1
            while index < length && start[index] != UInt8(ascii: "&") {
                if equals < 0 && start[index] == UInt8(ascii: "=") { equals = index }
                index += 1
            }
            let itemEnd = index
            index += 1
            if itemEnd == itemStart { continue }
            let keyEnd = equals >= 0 ? equals : itemEnd
            let key = decoded + decodedUsed
            let keyLength = PercentDecoding.decode(start + itemStart, keyEnd - itemStart, into: key, plusAsSpace: plusAsSpace)
            guard keyLength >= 0 else { return false }
            decodedUsed += keyLength
            let value = decoded + decodedUsed
            var valueLength = 0
            if equals >= 0 {
                valueLength = PercentDecoding.decode(start + equals + 1, itemEnd - equals - 1, into: value,
                                                     plusAsSpace: plusAsSpace)
                guard valueLength >= 0 else { return false }
                decodedUsed += valueLength
            }
            queryPairs.append(QueryPair(key: UnsafePointer(key), keyLength: keyLength,
                                        value: UnsafePointer(value), valueLength: valueLength))
        }
        return true
    }
}
