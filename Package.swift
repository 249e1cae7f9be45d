// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "FastRouter",
    products: [
        // The core router: patterns, URL scanning, tables, Router, Matcher, reverse routing.
        .library(name: "FastRouter", targets: ["FastRouter"]),
        // Everything a Swift app uses at once: the core, deep-link handlers and the route linter.
        .library(name: "FastRouterKit", targets: ["FastRouter", "FastRouterDeepLinks", "FastRouterLint"]),
        .library(name: "FastRouterDeepLinks", targets: ["FastRouterDeepLinks"]),
        .library(name: "FastRouterLint", targets: ["FastRouterLint"]),
        // libfastrouter.so, the C library of include/fastrouter.h.
        .library(name: "fastrouter", type: .dynamic, targets: ["FastRouterCABI"]),
        .executable(name: "fastrouter-bench", targets: ["fastrouter-bench"]),
        .executable(name: "fastrouter-soak", targets: ["fastrouter-soak"]),
        // Hummingbird 2 routing through FastRouter. Empty unless the `Hummingbird` trait is enabled,
        // so the core's users never fetch or build SwiftNIO or Hummingbird (docs/HUMMINGBIRD.md).
        .library(name: "FastRouterHummingbird", targets: ["FastRouterHummingbird"]),
    ],
    traits: [
        .trait(name: "Hummingbird", description: "Builds FastRouterHummingbird, a Hummingbird 2 router that routes with FastRouter."),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/vapor/routing-kit", from: "4.9.3"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        // `swift package generate-documentation` (make docs); a command plugin, built only when run.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // Only with the `Hummingbird` trait: SwiftPM neither fetches nor builds it otherwise.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
    ],
    targets: [
        .systemLibrary(
            name: "CPCRE2",
            pkgConfig: "libpcre2-8",
            providers: [.apt(["libpcre2-dev"])]
        ),
        // The core. No Foundation, no C exports, no C status numbers.
        .target(
            name: "FastRouter",
            dependencies: ["CPCRE2", "CThreadScratch", "CProcessFence"]
        ),
        // One pointer per thread, read inline: the Swift API's match scratch (ThreadScratch.swift).
        .target(
            name: "CThreadScratch"
        ),
        // The two halves of an asymmetric fence (membarrier): what a lookup's reader slot costs
        // (ReaderRegistry.swift).
        .target(
            name: "CProcessFence"
        ),
        // Handlers and dispatch, typed arguments, destinations: the only module that imports Foundation.
        .target(
            name: "FastRouterDeepLinks",
            dependencies: ["FastRouter", "FastRouterLint"]
        ),
        // Shadowed and ambiguous routes, example URLs, the routes-file line format.
        .target(
            name: "FastRouterLint",
            dependencies: ["FastRouter"]
        ),
        // The C boundary: one @_cdecl entry point per function of include/fastrouter.h.
        .target(
            name: "FastRouterCABI",
            dependencies: ["FastRouter", "FastRouterLint", "CFastRouter"]
        ),
        // include/fastrouter.h as a C module, so Swift code calls the C API as a C program does.
        .systemLibrary(
            name: "CFastRouter",
            path: "Sources/CFastRouter"
        ),
        // Counts heap allocations in fastrouter-bench by defining malloc & co. in the executable.
        .target(
            name: "CAllocCounter"
        ),
        // The benchmark's lookups through C interfaces (FastRouter's C API, r3), written in C.
        .target(
            name: "CBenchLoops"
        ),
        .executableTarget(
            name: "fastrouter-bench",
            dependencies: [
                "FastRouter",
                "FastRouterLint",
                "FastRouterCABI",
                "CFastRouter",
                "CAllocCounter",
                "CBenchLoops",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "RoutingKit", package: "routing-kit"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]
        ),
        .executableTarget(name: "fastrouter-soak", dependencies: ["FastRouter"]),
        // A drop-in for Hummingbird's `Router`: RouterMethods + HTTPResponderBuilder over a FastRouter
        // table. Its sources compile to nothing without the trait.
        .target(
            name: "FastRouterHummingbird",
            dependencies: [
                "FastRouter",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
            ]
        ),
        .testTarget(
            name: "FastRouterTests",
            dependencies: ["FastRouter"]
        ),
        // Run with `make test-hummingbird` (the trait on, in its own build folder).
        .testTarget(
            name: "FastRouterHummingbirdTests",
            dependencies: [
                "FastRouterHummingbird",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                .product(name: "HummingbirdTesting", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
            ]
        ),
        .testTarget(
            name: "FastRouterDeepLinksTests",
            dependencies: ["FastRouter", "FastRouterDeepLinks", "FastRouterLint"]
        ),
        .testTarget(
            name: "FastRouterLintTests",
            dependencies: ["FastRouter", "FastRouterLint"]
        ),
        // The C boundary's Swift side: status mapping, the header's structs, and answers that must
        // agree with the Swift core's. (Tests/c tests the library as a C program uses it.)
        .testTarget(
            name: "FastRouterCABITests",
            dependencies: ["FastRouter", "FastRouterLint", "FastRouterCABI", "CFastRouter"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
