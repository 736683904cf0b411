import ResolveKitHTTP
import ResolveKitTelemetry

/// The event stream as the metrics see it: connected streams, reconnects by reason, events by type.
extension SessionTelemetry {
    /// One element of a stream whose connection state `connected` tracks (one per stream task).
    func streamElement(_ element: EventStream.Element, connected: inout Bool) {
        guard let metrics else { return }
        switch element {
        case .event(let event):
            metrics.eventReceived(type: event.type)
        case .state(.open):
            if !connected { metrics.streamConnected() }
            connected = true
        case .state:
            if connected { metrics.streamDisconnected() }
            connected = false
        case .comment, .discarded:
            break
        }
    }

    /// The stream of a task that ended: it is no longer connected.
    func streamEnded(connected: Bool) {
        if connected { metrics?.streamDisconnected() }
    }

    /// The stream is opened again because of `cause` (`nil`: the server ended a healthy stream, the routine
    /// rotation).
    func streamReconnecting(_ cause: EventStreamError?) {
        guard let metrics else { return }
        let reason: ResolveKitMetrics.ReconnectReason
        switch cause?.code {
        case nil, .endedEarly?: reason = .endOfStream
        case .idleTimeout?: reason = .idleTimeout
        case .httpStatus?: reason = .httpStatus
        default: reason = .transportError
        }
        metrics.streamReconnecting(reason: reason)
    }
}
