// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "FastRouter",
    products: [
        .library(name: "FastRouter", targets: ["FastRouter"]),
        .library(name: "fastrouter", type: .dynamic, targets: ["FastRouter"]),
        .executable(name: "fastrouter-bench", targets: ["fastrouter-bench"]),
        .executable(name: "fastrouter-soak", targets: ["fastrouter-soak"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/vapor/routing-kit", from: "4.9.3"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CPCRE2",
            pkgConfig: "libpcre2-8",
            providers: [.apt(["libpcre2-dev"])]
        ),
        .target(
            name: "FastRouter",
            dependencies: ["CPCRE2"]
        ),
        // Counts heap allocations in fastrouter-bench by defining malloc & co. in the executable.
        .target(
            name: "CAllocCounter"
        ),
        .executableTarget(
            name: "fastrouter-bench",
            dependencies: [
                "FastRouter",
                "CAllocCounter",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "RoutingKit", package: "routing-kit"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]
        ),
        .executableTarget(name: "fastrouter-soak", dependencies: ["FastRouter"]),
        .testTarget(
            name: "FastRouterTests",
            dependencies: ["FastRouter"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
