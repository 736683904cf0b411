// swift-tools-version:6.0

import PackageDescription

let package = Package(
    name: "resolvekit-linux",
    products: [
        .library(name: "ResolveKitCore", targets: ["ResolveKitCore"]),
        .library(name: "ResolveKit", targets: ["ResolveKit"]),
        .library(name: "ResolveKitTesting", targets: ["ResolveKitTesting"]),
        .library(name: "ResolveKitHTTP", targets: ["ResolveKitHTTP"]),
        .library(name: "ResolveKitTerminal", targets: ["ResolveKitTerminal"]),
    ],
    dependencies: [],
    targets: [
        .target(name: "ResolveKitCore"),
        .systemLibrary(
            name: "CCurl",
            path: "Sources/CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .target(name: "ResolveKitHTTP", dependencies: ["ResolveKitCore", "CCurl"]),
        .target(name: "ResolveKit", dependencies: ["ResolveKitCore", "ResolveKitHTTP"]),
        .target(name: "ResolveKitTesting", dependencies: ["ResolveKitCore"]),
        .target(name: "ResolveKitTerminal", dependencies: ["ResolveKit"]),
        .executableTarget(name: "rk-bench", dependencies: ["ResolveKitHTTP", "ResolveKitCore"]),
        .executableTarget(
            name: "rk-devserver", dependencies: ["ResolveKitTesting", "ResolveKitHTTP"], path: "Samples/rk-devserver"),
        .testTarget(name: "ResolveKitCoreTests", dependencies: ["ResolveKitCore"]),
        .testTarget(name: "rk-devserverTests", dependencies: ["rk-devserver", "ResolveKitTesting"]),
        .testTarget(name: "ResolveKitHTTPTests", dependencies: ["ResolveKitHTTP", "ResolveKitTesting"]),
        .testTarget(
            name: "ResolveKitTestingTests", dependencies: ["ResolveKitTesting", "ResolveKitCore", "ResolveKitHTTP"]),
        .testTarget(name: "ResolveKitTests", dependencies: ["ResolveKit", "ResolveKitTesting"]),
        .testTarget(
            name: "ResolveKitTerminalTests", dependencies: ["ResolveKitTerminal", "ResolveKit", "ResolveKitTesting"]),
    ]
)

// One settings list for every Swift target, as swift-log does.
for target in package.targets where [.executable, .test, .regular].contains(target.type) {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}
