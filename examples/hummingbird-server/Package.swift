// swift-tools-version:6.1
// An HTTP server for the GitHub API route set (examples/c/github.routes) or a generated 10k-route
// API, answering small JSON documents that echo the route and its parameters. The same
// application is built twice: routed by FastRouter (`github-server-fastrouter`) and by
// Hummingbird's own `Router` (`github-server-hummingbird`); `make http-bench` loads both.
import PackageDescription

let package = Package(
    name: "hummingbird-server",
    platforms: [.macOS(.v14)],
    dependencies: [
        // FastRouter with its `Hummingbird` trait: what an application adds to use FastRouterHummingbird.
        .package(name: "FastRouter", path: "../..", traits: ["Hummingbird"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // Everything but the router: routes, handlers, the request list the load test uses.
        .target(
            name: "GitHubAPIServer",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "github-server-fastrouter",
            dependencies: [
                "GitHubAPIServer",
                .product(name: "FastRouterHummingbird", package: "FastRouter"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
        .executableTarget(
            name: "github-server-hummingbird",
            dependencies: [
                "GitHubAPIServer",
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
