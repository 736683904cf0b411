extension RuntimeOutput {
    /// Shows hosts one change the session machine decided: the snapshot behind the runtime's properties, its
    /// events, and the log.
    func apply(_ publication: Publication) {
        switch publication {
        case .connection(let state): setState(state)
        case .message(let message):
            append(message)
            if let delivery = message.delivery { emit(.messageDeliveryChanged(messageID: message.id, delivery)) }
        case .notice(let text): system(text)
        case .log(let line, let level, let span): log(line, level: level, metadata: span?.logMetadata ?? [:])
        case .error(let error): fail(error)
        case .sessionOpened(let response):
            update { snapshot in
                let isFirstSession = snapshot.sessionID == nil
                snapshot.sessionID = response.id
                snapshot.currentLocale = response.locale
                snapshot.chatTitle = response.chatTitle
                snapshot.messagePlaceholder = response.messagePlaceholder
                snapshot.isTurnInProgress = false
                snapshot.activeTurnID = nil
                if !response.reusedActiveSession || !isFirstSession { snapshot.messages = [] }
            }
        case .history(let history):
            let known = Set(read().messages.map(\.id))
            for message in history where !known.contains(message.id) {
                guard let text = message.content, !text.isEmpty else { continue }
                append(ResolveKitChatMessage(
                    id: message.id, role: ResolveKitChatMessage.Role(rawValue: message.role) ?? .assistant, text: text))
            }
        case .sessionStarted(let sessionID, let reused): emit(.sessionStarted(sessionID: sessionID, reused: reused))
        case .turnStarted(let turnID):
            update { snapshot in
                snapshot.activeTurnID = turnID
                snapshot.isTurnInProgress = true
            }
            emit(.turnStarted(turnID: turnID))
        case .turnEnded(let turnID):
            update { snapshot in
                snapshot.activeTurnID = nil
                snapshot.isTurnInProgress = false
                snapshot.assistantDraft = nil
            }
            emit(.turnEnded(turnID: turnID))
        case .turnFinished:
            // Telemetry's: the driver ends the turn's span and counts it.
            break
        case .turnInProgress(let inProgress): update { $0.isTurnInProgress = inProgress }
        case .draft(let draft):
            update { $0.assistantDraft = draft }
            if let draft { emit(.assistantDraft(draft)) }
        case .immediateCall(let item):
            var item = item
            if item.decision == nil { item.decision = .notRequired }
            let row = item
            update { $0.addImmediate(row) }
            emit(.toolCallUpdated(row))
        case .batch(let items):
            var batch = ToolCallChecklistBatch(id: 0, items: items)
            update { batch = $0.startBatch(items) }
            emit(.toolBatchAwaitingApproval(batch))
        case .callUpdated(let item): updateItem(item)
        case .delivered(let callID): emit(.toolResultDelivered(callID: callID))
        case .delivery(let messageID, let delivery):
            update { snapshot in snapshot.setDelivery(delivery, ofMessage: messageID) }
            emit(.messageDeliveryChanged(messageID: messageID, delivery))
        case .feedbackRequested(let immediate): emit(.feedbackRequested(immediate: immediate))
        case .localization(let localization):
            update { snapshot in
                snapshot.currentLocale = localization.locale
                snapshot.chatTitle = localization.chatTitle
                snapshot.messagePlaceholder = localization.messagePlaceholder
            }
        }
    }
}
