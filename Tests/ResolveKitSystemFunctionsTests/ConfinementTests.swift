import Glibc
import ResolveKitCore
import Testing

@testable import ResolveKitSystemFunctions

/// The layout every confinement test runs against:
///
/// ```
/// root/app.log  root/sub/nested.log  root/fifo (named pipe)
/// root/link-inside -> root/app.log        root/dirlink -> sub
/// root/escape-file -> outside/secret.log  root/escape-dir -> outside
/// root/relative-escape -> ../outside/secret.log
/// root2/secret.log (shares the prefix "root")   outside/secret.log   rootlink -> root
/// ```
final class ConfinedTree {
    let tree: TemporaryTree
    var path: String { tree.path }

    init() throws {
        tree = try TemporaryTree()
        try tree.file("root/app.log", "one\ntwo\nthree\n")
        try tree.file("root/sub/nested.log", "nested\n")
        try tree.file("root2/secret.log", "root2 secret\n")
        try tree.file("outside/secret.log", "outside secret\n")
        try tree.symlink("root/link-inside", to: tree.url("root/app.log"))
        try tree.symlink("root/dirlink", to: "sub")
        try tree.symlink("root/escape-file", to: tree.url("outside/secret.log"))
        try tree.symlink("root/escape-dir", to: tree.url("outside"))
        try tree.symlink("root/relative-escape", to: "../outside/secret.log")
        try tree.symlink("root/devnull", to: "/dev/null")
        try tree.symlink("rootlink", to: "root")
        guard mkfifo(tree.url("root/fifo"), 0o600) == 0 else { throw SystemCallError.current("mkfifo", "fifo") }
    }

    func reader(roots: [String]? = nil, maxLogBytes: Int = 256 * 1024) -> ConfiguredReadLogTail {
        let settings = SystemFunctionsConfiguration(
            allowedRoots: roots ?? [tree.url("root")], maxLogBytes: maxLogBytes)
        return ConfiguredReadLogTail(settings: settings)
    }

    func lister(roots: [String]? = nil, maxEntries: Int = 500) -> ConfiguredListDirectory {
        let settings = SystemFunctionsConfiguration(
            allowedRoots: roots ?? [tree.url("root")], maxDirectoryEntries: maxEntries)
        return ConfiguredListDirectory(settings: settings)
    }
}

@Suite(.timeLimit(.minutes(1)))
struct ConfinementTests {
    @Test(arguments: [
        ("root/app.log", "root/app.log"), ("root/link-inside", "root/app.log"),
        ("root/dirlink/nested.log", "root/sub/nested.log"), ("rootlink/app.log", "root/app.log"),
        ("root//sub/./nested.log", "root/sub/nested.log"),
    ])
    func readsFilesThatResolveInsideTheRoot(requested: String, resolved: String) async throws {
        let tree = try ConfinedTree()
        let tail = try await tree.reader().perform(path: tree.tree.url(requested))
        #expect(tail.path == tree.tree.url(resolved))
        #expect(!tail.lines.isEmpty)
    }

    @Test(arguments: [
        ("root/sub/../app.log", ".."), ("root/../outside/secret.log", ".."), ("root/..", ".."),
        ("outside/secret.log", "outside the allowed roots"), ("root2/secret.log", "outside the allowed roots"),
        ("root/escape-file", "outside the allowed roots"), ("root/escape-dir/secret.log", "outside the allowed roots"),
        ("root/relative-escape", "outside the allowed roots"), ("root/devnull", "outside the allowed roots"),
        ("root/fifo", "named pipe"), ("root/sub", "a directory, not a regular file"),
        ("root/missing.log", "does not exist"), ("root/app.log/x", "does not exist"),
    ])
    func refusesFilesOutsideTheRootOrOfTheWrongKind(requested: String, reason: String) async throws {
        let tree = try ConfinedTree()
        await expectFunctionError(.invalidArguments, mentioning: reason) {
            try await tree.reader().perform(path: tree.tree.url(requested))
        }
    }

    @Test(arguments: ["relative/app.log", "", "app.log", "/tmp/\0/x"])
    func refusesPathsThatAreNotAbsolute(requested: String) async throws {
        let tree = try ConfinedTree()
        await expectFunctionError(.invalidArguments, mentioning: "absolute path", tree.tree.url("root")) {
            try await tree.reader().perform(path: requested)
        }
    }

    @Test func refusesEverythingWhenNoRootIsConfigured() async throws {
        let tree = try ConfinedTree()
        await expectFunctionError(.executionFailed, mentioning: "RK_ALLOWED_ROOTS", "dependencies.systemFunctions") {
            try await tree.reader(roots: []).perform(path: tree.tree.url("root/app.log"))
        }
        await expectFunctionError(.executionFailed, mentioning: "RK_ALLOWED_ROOTS") {
            try await tree.lister(roots: []).perform(path: tree.tree.url("root"))
        }
    }

    @Test func refusesEverythingWhenNoConfiguredRootExists() async throws {
        let tree = try ConfinedTree()
        let roots = [tree.tree.url("gone"), "relative", tree.tree.url("root/app.log")]
        await expectFunctionError(.executionFailed, mentioning: "existing directory") {
            try await tree.reader(roots: roots).perform(path: tree.tree.url("root/app.log"))
        }
    }

    @Test func acceptsAnyOfSeveralRootsIncludingOneGivenThroughASymlink() async throws {
        let tree = try ConfinedTree()
        let reader = tree.reader(roots: [tree.tree.url("rootlink"), tree.tree.url("outside")])
        #expect(try await reader.perform(path: tree.tree.url("root/app.log")).lines == ["one", "two", "three"])
        #expect(try await reader.perform(path: tree.tree.url("root/escape-file")).lines == ["outside secret"])
        await expectFunctionError(.invalidArguments, mentioning: "outside the allowed roots") {
            try await reader.perform(path: tree.tree.url("root2/secret.log"))
        }
    }

    @Test(arguments: [
        ("root", "", true), ("root/sub", "", true), ("root/dirlink", "", true), ("rootlink", "", true),
        ("root2", "outside the allowed roots", false), ("root/escape-dir", "outside the allowed roots", false),
        ("root/sub/..", "..", false), ("root/app.log", "not a directory", false),
        ("/", "outside the allowed roots", false),
    ])
    func listsOnlyDirectoriesInsideTheRoot(requested: String, reason: String, allowed: Bool) async throws {
        let tree = try ConfinedTree()
        let path = requested.hasPrefix("/") ? requested : tree.tree.url(requested)
        if allowed {
            let listing = try await tree.lister().perform(path: path)
            #expect(PathRules.isInside(listing.path, root: tree.tree.url("root")))
        } else {
            await expectFunctionError(.invalidArguments, mentioning: reason) {
                try await tree.lister().perform(path: path)
            }
        }
    }

    @Test func namesTheObjectAnOpenDescriptorReallyIs() throws {
        let tree = try ConfinedTree()
        let descriptor = Glibc.open(tree.tree.url("rootlink/dirlink/nested.log"), O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        #expect(try PathRules.openedPath(of: descriptor) == tree.tree.url("root/sub/nested.log"))
    }

    @Test(arguments: [
        ("/var/log", "/var/log", true), ("/var/log/syslog", "/var/log", true), ("/var/log2", "/var/log", false),
        ("/var/lo", "/var/log", false), ("/var", "/var/log", false), ("/anything", "/", true), ("/", "/", true),
        ("/srv/root2/x", "/srv/root", false), ("/var//log/x", "/var/log/", true),
    ])
    func comparesPathsComponentByComponent(path: String, root: String, inside: Bool) {
        #expect(PathRules.isInside(path, root: root) == inside)
    }
}
