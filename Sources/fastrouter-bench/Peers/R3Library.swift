import CBenchLoops
#if canImport(Glibc)
import Glibc
#endif

/// libr3 (c9s/r3 1.3, Debian's libr3-0), loaded with dlopen so the build never needs it.
///
/// The functions come from `/usr/include/r3/r3.h`; the struct fields the benchmark reads or
/// writes are those of `CBenchLoops.h`'s copies of that version's LP64 layout, checked on a
/// fresh match entry when the library loads.
///
/// zmalloc's thread-safe mode (`zmalloc_enable_thread_safeness`, a pthread mutex around the
/// byte count of every allocation in Debian's build) is left off, as r3's documentation and
/// its own benchmark leave it: the count is a statistic r3 never reads, so a lost update on two
/// threads costs nothing else. With it on, each capture paid two mutex lock/unlock pairs: 1729
/// → 1936 instructions per GitHub lookup (callgrind), and the last full run with it on read
/// 5.4 M GitHub lookups/s on one thread and 2.7 on two (docs/BENCHMARKS.md).
struct R3Library: @unchecked Sendable {
    // Safety: C function pointers into a library that is never unloaded.
    typealias TreeCreate = @convention(c) (Int32) -> UnsafeMutablePointer<bench_r3_node>?
    typealias TreeInsertPath = @convention(c) (UnsafeMutablePointer<bench_r3_node>?, UnsafePointer<CChar>?, Int32,
                                               UnsafeMutableRawPointer?, UnsafeMutableRawPointer?,
                                               UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> UnsafeMutableRawPointer?
    typealias TreeCompile = @convention(c) (UnsafeMutablePointer<bench_r3_node>?,
                                            UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32
    typealias TreeMatch = @convention(c) (UnsafePointer<bench_r3_node>?, UnsafePointer<CChar>?, Int32,
                                          UnsafeMutablePointer<bench_r3_match_entry>?) -> UnsafeMutablePointer<bench_r3_node>?
    typealias EntryCreate = @convention(c) (UnsafePointer<CChar>?, Int32) -> UnsafeMutablePointer<bench_r3_match_entry>?
    typealias EntryFree = @convention(c) (UnsafeMutablePointer<bench_r3_match_entry>?) -> Void
    typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Void
    typealias TreeInsertRoute = @convention(c) (UnsafeMutablePointer<bench_r3_node>?, Int32, UnsafePointer<CChar>?, Int32,
                                                UnsafeMutableRawPointer?,
                                                UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> UnsafeMutablePointer<bench_r3_route>?
    typealias TreeMatchRoute = @convention(c) (UnsafePointer<bench_r3_node>?,
                                               UnsafeMutablePointer<bench_r3_match_entry>?) -> UnsafeMutablePointer<bench_r3_route>?
    typealias RouteCreate = @convention(c) (UnsafePointer<CChar>?, Int32) -> UnsafeMutablePointer<bench_r3_route>?
    typealias RouteFree = @convention(c) (UnsafeMutablePointer<bench_r3_route>?) -> Void

    let treeCreate: TreeCreate
    let treeInsertPath: TreeInsertPath
    let treeCompile: TreeCompile
    let treeMatch: TreeMatch
    let entryCreate: EntryCreate
    let entryFree: EntryFree
    /// r3's own free (zfree), for the captured strings it allocates with zstrndup.
    let free: Free
    /// r3_tree_insert_routel_ex: a path with a condition on the method (a mask of METHOD_* bits).
    let treeInsertRoute: TreeInsertRoute
    /// r3_tree_match_route: the tree walk, then the first route of the node whose condition holds.
    let treeMatchRoute: TreeMatchRoute

    /// r3.h's METHOD_* bits, the only methods r3 can put in a route's condition.
    static let methodBits: [String: Int32] = ["GET": 2, "POST": 2 << 1, "PUT": 2 << 2, "DELETE": 2 << 3,
                                              "PATCH": 2 << 4, "HEAD": 2 << 5, "OPTIONS": 2 << 6]

    static let installHint = "not installed (apt-get install libr3-0)"

    /// The library, or why it cannot be used; loaded once.
    static let shared: Result<R3Library, Inexpressible> = load()

    private static func load() -> Result<R3Library, Inexpressible> {
        guard let handle = dlopen("libr3.so.0", RTLD_NOW | RTLD_LOCAL) else {
            return .failure(Inexpressible(installHint))
        }
        func symbol<T>(_ name: String, as type: T.Type) -> T? {
            dlsym(handle, name).map { unsafeBitCast($0, to: type) }
        }
        guard let treeCreate = symbol("r3_tree_create", as: TreeCreate.self),
              let treeInsertPath = symbol("r3_tree_insert_pathl_ex", as: TreeInsertPath.self),
              let treeCompile = symbol("r3_tree_compile", as: TreeCompile.self),
              let treeMatch = symbol("r3_tree_matchl", as: TreeMatch.self),
              let entryCreate = symbol("match_entry_createl", as: EntryCreate.self),
              let entryFree = symbol("match_entry_free", as: EntryFree.self),
              let free = symbol("zfree", as: Free.self),
              let treeInsertRoute = symbol("r3_tree_insert_routel_ex", as: TreeInsertRoute.self),
              let treeMatchRoute = symbol("r3_tree_match_route", as: TreeMatchRoute.self),
              let routeCreate = symbol("r3_route_createl", as: RouteCreate.self),
              let routeFree = symbol("r3_route_free", as: RouteFree.self) else {
            return .failure(Inexpressible("libr3.so.0 lacks the r3 1.3 functions (another version?)"))
        }
        let library = R3Library(treeCreate: treeCreate, treeInsertPath: treeInsertPath, treeCompile: treeCompile,
                                treeMatch: treeMatch, entryCreate: entryCreate, entryFree: entryFree, free: free,
                                treeInsertRoute: treeInsertRoute, treeMatchRoute: treeMatchRoute)
        // The layout check: a fresh entry must show our path and length, and an empty array,
        // where 1.3 keeps them.
        let probe = "/probe"
        let layoutHolds = probe.withCString { pointer -> Bool in
            guard let entry = entryCreate(pointer, 6) else { return false }
            defer { entryFree(entry) }
            guard let vars = entry.pointee.vars else { return false }
            return entry.pointee.path == pointer && entry.pointee.path_len == 6 && vars.pointee.len == 0
                && vars.pointee.cap > 0 && vars.pointee.tokens != nil
        }
        // The same for a route: our path and length, no method condition, host or data yet.
        let routeLayoutHolds = probe.withCString { pointer -> Bool in
            guard let route = routeCreate(pointer, 6) else { return false }
            defer { routeFree(route) }
            return route.pointee.path == UnsafeMutablePointer(mutating: pointer) && route.pointee.path_len == 6
                && route.pointee.request_method == 0 && route.pointee.host == nil && route.pointee.data == nil
        }
        guard layoutHolds, routeLayoutHolds else {
            return .failure(Inexpressible("libr3.so.0 does not have the r3 1.3 match_entry and route layouts"))
        }
        return .success(library)
    }
}
