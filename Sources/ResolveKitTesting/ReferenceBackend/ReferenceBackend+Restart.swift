import Synchronization

extension ReferenceBackend {
    /// The backend process restarts in the middle of turns, as a deployed worker that dies does (WireProtocol
    /// §7.6): each running turn's work and its pending tool calls vanish (a result posted for them is answered
    /// as for any call that is not pending), the events already written stay, no terminal event is ever written
    /// for the turn, and its lock stays held for `lockHeldFor` on the backend's clock (the Redis lock's TTL is
    /// 600 s), so `POST /messages` answers 409 `A turn is already in progress` until then. The history shows the
    /// user's message last.
    /// - Returns: How many turns were lost.
    @discardableResult
    public func restartMidTurn(lockHeldFor: Duration = .seconds(600)) -> Int {
        let (tasks, lost) = state.withLock { state -> ([Task<Void, Never>], [(sessionID: String, turnID: String)]) in
            var lost: [(sessionID: String, turnID: String)] = []
            for (sessionID, session) in state.sessions {
                guard let turnID = session.activeTurnID, session.lostTurnID != turnID else { continue }
                state.sessions[sessionID]?.lostTurnID = turnID
                state.sessions[sessionID]?.pendingCalls = session.pendingCalls.filter { $0.value.turnID != turnID }
                for (callID, call) in session.pendingCalls where call.turnID == turnID && call.result == nil {
                    state.counters.callsLostToRestarts.insert(callID)
                }
                lost.append((sessionID, turnID))
            }
            state.counters.turnsLostToRestarts += lost.count
            return (lost.compactMap { state.turnTasks[$0.turnID] }, lost)
        }
        for task in tasks { task.cancel() }
        for turn in lost {
            let clock = configuration.clock
            let release = Task {
                do { try await clock.sleep(for: lockHeldFor) } catch { return }
                self.releaseLostTurnLock(sessionID: turn.sessionID, turnID: turn.turnID)
            }
            state.withLock { $0.lockReleases[turn.turnID] = release }
        }
        changes.notify()
        return lost.count
    }

    private func releaseLostTurnLock(sessionID: String, turnID: String) {
        state.withLock { state in
            state.lockReleases[turnID] = nil
            guard state.sessions[sessionID]?.lostTurnID == turnID else { return }
            state.sessions[sessionID]?.lostTurnID = nil
            if state.sessions[sessionID]?.activeTurnID == turnID { state.sessions[sessionID]?.activeTurnID = nil }
        }
        changes.notify()
    }
}
