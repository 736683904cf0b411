import ResolveKit
import ResolveKitCLINetwork

/// `start()` for someone waiting at the terminal or a script: as the runtime starts, except that an attempt the
/// network refused for a reason only a change can fix (an untrusted or expired certificate, a pin, a missing client
/// certificate, the proxy's credentials) ends it at once, instead of retrying until the 30 s budget is spent.
/// `retrying` hears the first failure that is retried (a refused port, a server not up yet), so a caller that shows
/// no connection states can still say why it waits.
enum Connecting {
    private enum Outcome: Sendable {
        case started
        case failed(ResolveKitError)
        case refused(ResolveKitError)
        case watchEnded
    }

    /// Starts `runtime`; returns `nil` once it is connected, else why it is not (the runtime is then stopped).
    static func start(
        _ runtime: ResolveKitRuntime, retrying: @escaping @Sendable (ResolveKitError) -> Void = { _ in }
    ) async -> ResolveKitError? {
        let events = runtime.events  // subscribed before starting: the first attempt's failure is not missed
        let outcome = await withTaskGroup(of: Outcome.self) { group -> Outcome in
            group.addTask {
                do throws(ResolveKitError) {
                    try await runtime.start()
                    return .started
                } catch {
                    return .failed(error)
                }
            }
            group.addTask {
                var toldRetrying = false
                for await event in events {
                    guard case .connectionStateChanged(.reconnecting(_, _, let cause?)) = event else { continue }
                    if let failure = NetworkFailure(cause), failure.retryingCannotHelp { return .refused(cause) }
                    if !toldRetrying {
                        toldRetrying = true
                        retrying(cause)
                    }
                }
                return .watchEnded
            }
            while let next = await group.next() {
                if case .watchEnded = next { continue }
                group.cancelAll()
                return next
            }
            return .watchEnded
        }
        switch outcome {
        case .started:
            return nil
        case .failed(let error):
            return error
        case .refused(let cause):
            await runtime.stop()
            return ResolveKitError(
                .unreachable,
                "Gave up at the first attempt, as retrying cannot help until this changes: \(cause.message)",
                isRetryable: false, underlying: cause.underlying)
        case .watchEnded:
            await runtime.stop()
            return ResolveKitError(.cancelled, "The runtime stopped while connecting")
        }
    }
}
