// swift-tools-version:6.0

import PackageDescription

let package = Package(
    name: "resolvekit-linux",
    products: [
        .library(name: "ResolveKit", targets: ["ResolveKit"]),
        .library(name: "ResolveKitCore", targets: ["ResolveKitCore"]),
        .library(name: "ResolveKitHTTP", targets: ["ResolveKitHTTP"]),
        .library(name: "ResolveKitTools", targets: ["ResolveKitTools"]),
        .library(name: "ResolveKitTesting", targets: ["ResolveKitTesting"]),
        .library(name: "ResolveKitTerminal", targets: ["ResolveKitTerminal"]),
        .library(name: "ResolveKitSystemFunctions", targets: ["ResolveKitSystemFunctions"]),
        .library(name: "ResolveKitMCP", targets: ["ResolveKitMCP"]),
        .library(name: "ResolveKitTelemetry", targets: ["ResolveKitTelemetry"]),
        .library(name: "ResolveKitTelemetryHTTP", targets: ["ResolveKitTelemetryHTTP"]),
        // Every tool is a product, so an adopter's package can `swift run rk-devserver` and the install step
        // can build them all.
        .executable(name: "rk-codegen", targets: ["rk-codegen"]),
        .executable(name: "rk-chat", targets: ["rk-chat"]),
        .executable(name: "rk-service", targets: ["rk-service"]),
        .executable(name: "rk-approve", targets: ["rk-approve"]),
        .executable(name: "rk-mcp", targets: ["rk-mcp"]),
        .executable(name: "rk-devserver", targets: ["rk-devserver"]),
        .executable(name: "rk-install", targets: ["rk-install"]),
        .plugin(name: "ResolveKitPlugin", targets: ["ResolveKitPlugin"]),
    ],
    dependencies: [],
    targets: [
        // Libraries, lowest layer first.
        .target(name: "ResolveKitCore"),
        .systemLibrary(
            name: "CCurl",
            path: "Sources/CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .target(name: "ResolveKitHTTP", dependencies: ["ResolveKitCore", "CCurl"]),
        // Metrics, spans, OTLP and the /metrics endpoint on plain sockets: no libcurl, so rk-mcp can link it.
        .target(name: "ResolveKitTelemetry", dependencies: ["ResolveKitCore"]),
        // The OTLP exporter's transport over the libcurl client.
        .target(name: "ResolveKitTelemetryHTTP", dependencies: ["ResolveKitTelemetry", "ResolveKitHTTP"]),
        // What runs a call wherever it came from: dispatch, approvals, the audit trail, each call's metrics and
        // spans. No transport.
        .target(name: "ResolveKitTools", dependencies: ["ResolveKitCore", "ResolveKitTelemetry"]),
        // The Redis state store that replicas share links the RESP client (no libcurl in it).
        .target(
            name: "ResolveKit",
            dependencies: [
                "ResolveKitCore", "ResolveKitTools", "ResolveKitHTTP", "ResolveKitTelemetry", "ResolveKitTelemetryHTTP",
                "ResolveKitRedis",
            ]),
        // The approval prompt and terminal I/O need no session, so rk-mcp uses them without linking libcurl.
        .target(name: "ResolveKitTerminalCore", dependencies: ["ResolveKitTools"]),
        .target(name: "ResolveKitTerminal", dependencies: ["ResolveKitTerminalCore", "ResolveKit"]),
        // CCurl only for <sys/epoll.h>, which Glibc's Swift module leaves out: the loopback server waits on epoll.
        .target(name: "ResolveKitTesting", dependencies: ["ResolveKitCore", "CCurl", "ResolveKitChildProcess"]),
        .target(name: "ResolveKitCodegen", dependencies: ["ResolveKitCore"]),
        // One flag parser for every tool: parsing, --help, completions and manual pages from one table per tool.
        .target(name: "ResolveKitCLI"),
        // The network flags as NetworkSettings, and a network failure in words: for the tools that talk HTTP (the
        // parser itself links no libcurl, so rk-mcp and rk-codegen stay without it).
        .target(name: "ResolveKitCLINetwork", dependencies: ["ResolveKitCLI", "ResolveKitHTTP", "ResolveKitCore"]),
        // Child processes through posix_spawn: Foundation's Process crashes a process with many descriptors open.
        .systemLibrary(name: "CSpawn", path: "Sources/CSpawn"),
        .target(name: "ResolveKitChildProcess", dependencies: ["CSpawn"]),
        .target(
            name: "ResolveKitSystemFunctions",
            dependencies: ["ResolveKitCore", "ResolveKitChildProcess"],
            path: "Functions",
            plugins: ["ResolveKitPlugin"]
        ),
        .target(name: "ResolveKitMCP", dependencies: ["ResolveKitTools", "ResolveKitTelemetry"]),
        // A RESP2/RESP3 client on the project's own sockets, and Redis leases with fencing tokens.
        .target(name: "ResolveKitRedis", dependencies: ["ResolveKitCore"]),

        // Tools and the build plugin.
        .executableTarget(name: "rk-codegen", dependencies: ["ResolveKitCodegen", "ResolveKitCore", "ResolveKitCLI"]),
        // Installs the tools built beside it, with the manual pages and completions they print.
        .executableTarget(
            name: "rk-install", dependencies: ["ResolveKitCLI", "ResolveKitCore", "ResolveKitChildProcess"]),
        .plugin(
            name: "ResolveKitPlugin",
            capability: .buildTool(),
            dependencies: ["rk-codegen"],
            path: "Sources/ResolveKitPlugin"
        ),
        .executableTarget(
            name: "rk-bench",
            dependencies: [
                "ResolveKitHTTP", "ResolveKitCore", "ResolveKitCodegen", "ResolveKit", "ResolveKitTesting",
                "ResolveKitChildProcess", "ResolveKitRedis", "ResolveKitTelemetry",
            ]
        ),

        // Samples.
        .executableTarget(
            name: "rk-devserver", dependencies: ["ResolveKitTesting", "ResolveKitHTTP", "ResolveKitCLI"],
            path: "Samples/rk-devserver"),
        .executableTarget(
            name: "rk-chat",
            dependencies: [
                "ResolveKit", "ResolveKitTerminal", "ResolveKitSystemFunctions", "ResolveKitTesting", "ResolveKitCLI",
                "ResolveKitCLINetwork",
            ],
            path: "Samples/rk-chat"
        ),
        .executableTarget(
            name: "rk-mcp",
            dependencies: [
                "ResolveKitMCP", "ResolveKitTools", "ResolveKitSystemFunctions", "ResolveKitTerminalCore", "ResolveKitCLI",
                "ResolveKitTelemetry",
            ],
            path: "Samples/rk-mcp"),
        .executableTarget(
            name: "rk-approve", dependencies: ["ResolveKit", "ResolveKitTerminal", "ResolveKitCLI"],
            path: "Samples/rk-approve"),
        .executableTarget(
            name: "rk-service",
            dependencies: [
                "ResolveKit", "ResolveKitTools", "ResolveKitSystemFunctions", "ResolveKitCLI", "ResolveKitCLINetwork",
                "ResolveKitTelemetry",
            ],
            path: "Samples/rk-service",
            exclude: ["rk-service.service", "policy.json"]
        ),

        // Tests.
        .target(
            name: "ResolveKitCodegenFixtures",
            dependencies: ["ResolveKitCore"],
            path: "Tests/ResolveKitCodegenFixtures",
            plugins: ["ResolveKitPlugin"]
        ),
        .testTarget(name: "ResolveKitCoreTests", dependencies: ["ResolveKitCore"]),
        .testTarget(name: "ResolveKitChildProcessTests", dependencies: ["ResolveKitChildProcess"]),
        .testTarget(
            name: "ResolveKitRedisTests",
            dependencies: ["ResolveKitRedis", "ResolveKitTesting", "ResolveKitChildProcess", "ResolveKitCore"]),
        .testTarget(
            name: "ResolveKitHTTPTests", dependencies: ["ResolveKitHTTP", "ResolveKitTesting", "ResolveKitChildProcess"]),
        .testTarget(
            name: "ResolveKitToolsTests",
            dependencies: ["ResolveKitTools", "ResolveKitTesting", "ResolveKitTelemetry"]),
        .testTarget(
            name: "ResolveKitTests",
            dependencies: ["ResolveKit", "ResolveKitTesting", "ResolveKitTelemetry", "ResolveKitRedis"]),
        .testTarget(
            name: "ResolveKitTelemetryTests",
            dependencies: [
                "ResolveKitTelemetry", "ResolveKitTelemetryHTTP", "ResolveKitHTTP", "ResolveKitTesting",
                "ResolveKitCore", "ResolveKitChildProcess", "ResolveKit",
            ],
            exclude: ["Scripts"]),
        .testTarget(
            name: "ResolveKitTestingTests", dependencies: ["ResolveKitTesting", "ResolveKitCore", "ResolveKitHTTP"]),
        .testTarget(
            name: "ResolveKitCodegenTests",
            dependencies: ["ResolveKitCodegen", "rk-codegen", "ResolveKitChildProcess"],
            exclude: ["Goldens"]
        ),
        // A second library whose `.resolvekit.json` makes its generated registry public, used from another target.
        .target(
            name: "ResolveKitCodegenPublicFixtures",
            dependencies: ["ResolveKitCore"],
            path: "Tests/ResolveKitCodegenPublicFixtures",
            plugins: ["ResolveKitPlugin"]
        ),
        .testTarget(
            name: "ResolveKitCodegenFixtureTests",
            dependencies: ["ResolveKitCodegenFixtures", "ResolveKitCodegenPublicFixtures", "ResolveKitCore"]
        ),
        .testTarget(
            name: "ResolveKitSystemFunctionsTests",
            dependencies: ["ResolveKitSystemFunctions", "ResolveKitCore"]
        ),
        .testTarget(
            name: "ResolveKitTerminalTests",
            dependencies: ["ResolveKitTerminal", "ResolveKitTerminalCore", "ResolveKit", "ResolveKitTesting"]),
        .testTarget(
            name: "rk-chatTests", dependencies: ["rk-chat", "rk-devserver", "ResolveKitChildProcess", "ResolveKitTesting"]),
        // The shared parser, and every tool's command line run as a process (so every tool is a dependency).
        .testTarget(
            name: "ResolveKitCLITests",
            dependencies: [
                "ResolveKitCLI", "ResolveKitCLINetwork", "ResolveKitHTTP", "ResolveKitCore", "ResolveKitChildProcess",
                "ResolveKitTesting",
                "rk-chat", "rk-service", "rk-approve", "rk-mcp", "rk-devserver", "rk-codegen", "rk-install",
            ]),
        .testTarget(
            name: "ResolveKitMCPTests",
            dependencies: [
                "ResolveKitMCP", "ResolveKit", "rk-mcp", "ResolveKitChildProcess", "ResolveKitTelemetry",
                "ResolveKitTesting", "ResolveKitHTTP",
            ]),
        // rk-bench's command line and its report of a series of runs (the workloads run in `swift run -c release`).
        .testTarget(name: "rk-benchTests", dependencies: ["rk-bench"]),
        .testTarget(
            name: "rk-devserverTests",
            dependencies: ["rk-devserver", "ResolveKitTesting", "ResolveKitCore", "ResolveKitChildProcess"]),
        .testTarget(
            name: "rk-serviceTests",
            dependencies: [
                "rk-service", "rk-approve", "rk-chat", "rk-crash-probe", "ResolveKitTesting", "ResolveKit",
                "ResolveKitHTTP", "ResolveKitChildProcess",
            ]),
        // A runtime in a process of its own, killed and restarted by the exactly-once tests.
        .executableTarget(
            name: "rk-crash-probe", dependencies: ["ResolveKit", "ResolveKitChildProcess"], path: "Tests/CrashProbe"),
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
