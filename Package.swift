// swift-tools-version:6.0

import PackageDescription

let package = Package(
    name: "resolvekit-linux",
    products: [
        .library(name: "ResolveKitCore", targets: ["ResolveKitCore"]),
        .library(name: "ResolveKitTesting", targets: ["ResolveKitTesting"]),
        .library(name: "ResolveKitSystemFunctions", targets: ["ResolveKitSystemFunctions"]),
    ],
    dependencies: [],
    targets: [
        .target(name: "ResolveKitCore"),
        .target(name: "ResolveKitTesting", dependencies: ["ResolveKitCore"]),
        .target(name: "ResolveKitSystemFunctions", dependencies: ["ResolveKitCore"], path: "Functions"),
        .testTarget(name: "ResolveKitCoreTests", dependencies: ["ResolveKitCore"]),
        .testTarget(
            name: "ResolveKitSystemFunctionsTests",
            dependencies: ["ResolveKitSystemFunctions", "ResolveKitCore"]
        ),
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
