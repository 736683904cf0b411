public import ResolveKitTools
import Synchronization

extension TerminalApprover {
    /// Applies one call's new status to the checklist of the last decided batch and redraws it in place; for
    /// hosts that feed updates themselves instead of ``attach(to:)``. Once every call has an outcome the checklist
    /// stays on the screen as ordinary output. When something else has taken the live region meanwhile (a streaming
    /// draft), each change is printed as a line instead. Updates for other calls are ignored.
    public func update(_ item: ToolCallChecklistItem) {
        storage.state.withLock { state in
            guard var checklist = state.checklist, let row = checklist.update(item) else { return }
            if screen.ownsLive(liveOwner) {
                screen.showLive(checklist.lines, owner: liveOwner)
            } else {
                // Something else took the live region (a streaming draft): report the change as a line instead.
                screen.print(row)
            }
            if checklist.isFinished {
                screen.commitLive(owner: liveOwner)
                state.checklist = nil
            } else {
                state.checklist = checklist
            }
        }
    }

    /// Who owns the live region while a prompt or checklist shows.
    var liveOwner: ObjectIdentifier { ObjectIdentifier(storage) }

    /// Leaves the previous batch's checklist on the screen as it is before a new prompt takes the live region.
    func commitChecklist() {
        storage.state.withLock { state in
            guard state.checklist != nil else { return }
            screen.commitLive(owner: liveOwner)
            state.checklist = nil
        }
    }
}
