#if canImport(Glibc)
import Glibc
#endif

/// libr3 (c9s/r3 1.3, Debian's libr3-0), loaded with dlopen so the build never needs it.
///
/// The functions come from `/usr/include/r3/r3.h`; the three struct fields read or written
/// here are at fixed offsets of that version's LP64 layout (checked when the library loads):
/// `node.data` at 56, `match_entry.vars` at 0, `.path` at 8, `.path_len` at 16, and the
/// `str_array` `tokens` at 0, `len` at 8.
struct R3Library: @unchecked Sendable {
    // Safety: C function pointers into a library that is never unloaded.
    typealias TreeCreate = @convention(c) (Int32) -> UnsafeMutableRawPointer?
    typealias TreeInsertPath = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int32,
                                               UnsafeMutableRawPointer?, UnsafeMutableRawPointer?,
                                               UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> UnsafeMutableRawPointer?
    typealias TreeCompile = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32
    typealias TreeMatch = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int32,
                                          UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?
    typealias TreeFree = @convention(c) (UnsafeMutableRawPointer?) -> Void
    typealias EntryCreate = @convention(c) (UnsafePointer<CChar>?, Int32) -> UnsafeMutableRawPointer?
    typealias EntryFree = @convention(c) (UnsafeMutableRawPointer?) -> Void
    typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Void
    typealias EnableThreadSafety = @convention(c) () -> Void

    let treeCreate: TreeCreate
    let treeInsertPath: TreeInsertPath
    let treeCompile: TreeCompile
    let treeMatch: TreeMatch
    let treeFree: TreeFree
    let entryCreate: EntryCreate
    let entryFree: EntryFree
    /// r3's own free (zfree), for the captured strings it allocates with zstrndup.
    let free: Free

    static let nodeDataOffset = 56
    static let entryPathOffset = 8
    static let entryPathLengthOffset = 16
    static let arrayLengthOffset = 8

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
              let treeFree = symbol("r3_tree_free", as: TreeFree.self),
              let entryCreate = symbol("match_entry_createl", as: EntryCreate.self),
              let entryFree = symbol("match_entry_free", as: EntryFree.self),
              let free = symbol("zfree", as: Free.self) else {
            return .failure(Inexpressible("libr3.so.0 lacks the r3 1.3 functions (another version?)"))
        }
        // zmalloc keeps a global byte count; unsynchronized it is a data race between threads.
        symbol("zmalloc_enable_thread_safeness", as: EnableThreadSafety.self)?()
        let library = R3Library(treeCreate: treeCreate, treeInsertPath: treeInsertPath, treeCompile: treeCompile,
                                treeMatch: treeMatch, treeFree: treeFree, entryCreate: entryCreate,
                                entryFree: entryFree, free: free)
        // The layout check: a fresh entry must show our path and length where 1.3 keeps them.
        let probe = "/probe"
        let layoutHolds = probe.withCString { pointer -> Bool in
            guard let entry = entryCreate(pointer, 6) else { return false }
            defer { entryFree(entry) }
            let path = entry.load(fromByteOffset: entryPathOffset, as: UnsafePointer<CChar>?.self)
            let length = entry.load(fromByteOffset: entryPathLengthOffset, as: Int32.self)
            guard let vars = entry.load(as: UnsafeMutableRawPointer?.self) else { return false }
            return path == pointer && length == 6 && vars.load(fromByteOffset: arrayLengthOffset, as: Int32.self) == 0
        }
        guard layoutHolds else {
            return .failure(Inexpressible("libr3.so.0 does not have the r3 1.3 match_entry layout"))
        }
        return .success(library)
    }
}
