public import ResolveKit
public import ResolveKitTerminalCore

extension TerminalApprover {
    /// Keeps the checklist of the last decided batch current from the runtime's events (running, done, failed
    /// with its reason, declined, timed out) until the calling task is cancelled or the runtime's events end.
    /// Run it next to the runtime, in the host's task group.
    public func attach(to runtime: ResolveKitRuntime) async {
        await attach(to: runtime.events)
    }

    /// Keeps the checklist current from `events`, a subscription to ``ResolveKit/ResolveKitRuntime/events`` taken
    /// earlier (so no update between subscribing and starting this task is missed).
    public func attach(to events: AsyncStream<ResolveKitRuntimeEvent>) async {
        for await event in events {
            if case .toolCallUpdated(let item) = event { update(item) }
        }
    }
}
