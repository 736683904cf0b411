// swift-tools-version:6.0

import PackageDescription

let package = Package(
    name: "resolvekit-linux",
    products: [
        .library(name: "ResolveKitCore", targets: ["ResolveKitCore"]),
        .library(name: "ResolveKitTesting", targets: ["ResolveKitTesting"]),
        .executable(name: "rk-codegen", targets: ["rk-codegen"]),
        .plugin(name: "ResolveKitPlugin", targets: ["ResolveKitPlugin"]),
    ],
    dependencies: [],
    targets: [
        .target(name: "ResolveKitCore"),
        .target(name: "ResolveKitTesting", dependencies: ["ResolveKitCore"]),
        .testTarget(name: "ResolveKitCoreTests", dependencies: ["ResolveKitCore"]),
        .target(name: "ResolveKitCodegen", dependencies: ["ResolveKitCore"]),
        .executableTarget(name: "rk-codegen", dependencies: ["ResolveKitCodegen"]),
        .plugin(
            name: "ResolveKitPlugin",
            capability: .buildTool(),
            dependencies: ["rk-codegen"],
            path: "Sources/ResolveKitPlugin"
        ),
        .target(
            name: "ResolveKitCodegenFixtures",
            dependencies: ["ResolveKitCore"],
            path: "Tests/ResolveKitCodegenFixtures",
            plugins: ["ResolveKitPlugin"]
        ),
        .testTarget(
            name: "ResolveKitCodegenTests",
            dependencies: ["ResolveKitCodegen", "rk-codegen"],
            exclude: ["Goldens"]
        ),
        .testTarget(
            name: "ResolveKitCodegenFixtureTests",
            dependencies: ["ResolveKitCodegenFixtures", "ResolveKitCore"]
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
