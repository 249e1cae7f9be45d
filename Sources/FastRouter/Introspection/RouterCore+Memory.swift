/// Where a router's bytes go (docs/ARCHITECTURE.md, "Memory per route"): the figure
/// `fastrouter-bench` prints for its scale sets, part by part, so a change to any of them shows
/// in its own line.
package struct MemoryBreakdown: Sendable {
    /// One part: its name, its bytes, and how many items make it up (nodes, records...).
    package struct Part: Sendable {
        package var name: String
        package var bytes: Int
        package var items: Int
    }

    package var parts: [Part] = []

    /// Every part's bytes.
    package var totalBytes: Int { parts.reduce(0) { $0 + $1.bytes } }

    mutating func add(_ name: String, bytes: Int, items: Int) {
        parts.append(Part(name: name, bytes: bytes, items: items))
    }
}

extension RouterCore {
    /// The bytes this router holds, part by part, as the allocator gives them: a tree block at
    /// its size class (a multiple of a cache line, ``BlockArena``), an array at its capacity.
    /// What routers share for the process (interned names and shapes) is left out, and so are
    /// the payloads' own boxes, which only their owner knows (``Router`` adds its own).
    /// O(routes + nodes), under the writer lock.
    package func memoryBreakdown() -> MemoryBreakdown {
        writer.withLock { state in
            var breakdown = MemoryBreakdown()
            var census = TreeCensus()
            let tables = tables.published
            for entry in tables.all { census.count(entry.root) }
            breakdown.add("tree: leaf nodes", bytes: census.leafBytes, items: census.leaves)
            breakdown.add("tree: inner nodes", bytes: census.innerBytes, items: census.inner)
            breakdown.add("tree: literal chunks", bytes: census.chunkBytes, items: census.chunks)
            var pathBlocks = 0, pathBytes = 0
            if tables.dynamicRoutes == 0 {
                tables.staticPaths.forEachBlock { pointer, isEntry in
                    pathBlocks += 1
                    pathBytes += isEntry ? StaticPathEntry(pointer).byteCount : LiteralChunk(pointer).byteCount
                }
            }
            breakdown.add("static path map", bytes: pathBytes, items: pathBlocks)
            state.routes.addMemory(to: &breakdown)
            // Shared objects whose bytes PCRE2 and the runtime hold: counted, not sized.
            breakdown.add("regexes and templates (count only)", bytes: 0, items: state.regexes.count + state.templates.count)
            return breakdown
        }
    }
}

/// Counts a tree's blocks by kind, at their allocated sizes.
private struct TreeCensus {
    var leaves = 0, leafBytes = 0, inner = 0, innerBytes = 0, chunks = 0, chunkBytes = 0

    /// Counts `root` and everything below it; a stack, not recursion.
    mutating func count(_ root: Node) {
        var stack = [root]
        while let node = stack.popLast() {
            let bytes = Self.allocated(node.byteCount)
            if node.isLeafOnly {
                leaves += 1
                leafBytes += bytes
            } else {
                inner += 1
                innerBytes += bytes
            }
            for chunk in node.chunkBlocks {
                chunks += 1
                chunkBytes += Self.allocated(LiteralChunk(chunk).byteCount)
            }
            stack += node.children
        }
    }

    /// A block's size as allocated: its size class in a region (a multiple of
    /// ``Node/blockAlignment``). A small router's blocks come from the system allocator and
    /// take a little less; the large tables the breakdown is for are nearly all in regions.
    static func allocated(_ bytes: Int) -> Int { (bytes + Node.blockAlignment - 1) & ~(Node.blockAlignment - 1) }
}
