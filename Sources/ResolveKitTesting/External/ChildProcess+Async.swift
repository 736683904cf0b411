import Foundation
package import ResolveKitChildProcess

extension ChildProcess {
    /// Runs `executable` to its end on a thread of its own (``run(_:arguments:environment:currentDirectory:
    /// standardInput:started:)`` blocks its thread) and returns what it wrote, so that no task holds a cooperative
    /// thread while it waits.
    package static func runToEnd(
        _ executable: String, arguments: [String], environment: [String: String]? = nil,
        currentDirectory: String? = nil
    ) async throws -> Output {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Output, any Error>) in
            Thread.detachNewThread {
                continuation.resume(
                    with: Result {
                        try ChildProcess.run(
                            executable, arguments: arguments, environment: environment,
                            currentDirectory: currentDirectory)
                    })
            }
        }
    }
}

/// A child that failed to run as a test fixture needs it.
package struct FixtureError: Error, Sendable, CustomStringConvertible {
    /// What failed, with the child's own words.
    package var description: String

    package init(_ description: String) {
        self.description = description
    }
}
