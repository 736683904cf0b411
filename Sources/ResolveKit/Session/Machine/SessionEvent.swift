import Foundation
import ResolveKitHTTP

/// Something that happened to a session, as ``SessionMachine/handle(_:at:)`` takes it: what the driver was asked
/// to do came back, a timer fired, the stream said something, or a caller asked for something.
enum SessionEvent: Sendable {
    /// `run()` began, with what the last process left and whether there is an API key.
    case start(Restored, hasAPIKey: Bool)
    /// A request the machine asked for was answered (or failed).
    case answered(RequestTag, Result<BackendAnswer, BackendFailure>)
    /// The event stream opened as `generation` said something.
    case stream(generation: Int, EventStream.Element)
    /// The event stream opened as `generation` ended.
    case streamEnded(generation: Int, EventStream.Termination)
    /// The event stream opened as `generation` is about to wait and connect again, because of `cause` (`nil` for
    /// the routine reconnect after the server ended a healthy stream).
    case streamWillReconnect(generation: Int, cause: EventStreamError?)
    /// The write of `sequence` (and every one before it) completed, or failed.
    case written(Int, Result<Void, ResolveKitError>)
    /// A timer armed for `at` fired.
    case timerFired(TimerID, at: Duration)
    /// A step of a call handed to the tools core, in the session of `epoch`.
    case call(ToolCallReport, epoch: Int)
    /// A call of the session of `epoch` that waited for a decision asks to start (``SessionAction/permitStart(_:_:)``
    /// answers).
    case startRequested(ToolCallID, epoch: Int)
    /// The tools core finished batch `batchID` of the session of `epoch`.
    case batchDone(batchID: Int, epoch: Int)
    /// `ask`: send `text` as `requestID` and answer `waiter` with the turn's result, within `timeout`.
    case ask(WaiterID, text: String, requestID: String, timeout: Duration?)
    /// `sendMessage`: send `text` as `requestID` and answer `waiter` once it is accepted or failed.
    case send(WaiterID, text: String, requestID: String)
    /// `resend(messageID:)`: send the failed message of `requestID` again, with the same request id.
    case resend(WaiterID, requestID: String)
    /// The task waiting as `waiter` was cancelled.
    case cancelled(WaiterID)
    /// `refreshSessionContext()` or `setLocale(_:)`: send it and answer `waiter`.
    case operation(WaiterID, SessionOperation)
    /// `reloadWithNewSession()`.
    case newSession
    /// `drain`: refuse new calls, let running ones finish and deliver, answer `waiter` once idle.
    case drain(WaiterID)
    /// `stop()`: end everything now.
    case stop
}

/// What a process left in the state folder for the next one.
struct Restored: Sendable, Equatable {
    /// The session last used, with its cursor and its turn.
    var session: SessionRecord?
    /// The call journal as saved (calls left unfinished are not yet resolved).
    var journal: CallJournal
    /// How many records the journal's store holds (one per change since it was last compacted).
    var journalRecords: Int

    init(session: SessionRecord? = nil, journal: CallJournal = CallJournal(), journalRecords: Int = 0) {
        self.session = session
        self.journal = journal
        self.journalRecords = journalRecords
    }
}

/// A public operation that is one request on the open session.
enum SessionOperation: Sendable, Equatable {
    /// `PATCH /context` with the current context, allow-list and locale.
    case refreshContext
    /// `GET /localization` for this locale.
    case setLocale(String?)
    /// `GET /messages`: the conversation as the backend keeps it.
    case history
    /// `POST /feedback` with a rating (1–5) and an optional comment.
    case feedback(rating: Int, comment: String?)
}

/// A request's answer, by request.
enum BackendAnswer: Sendable, Equatable {
    /// The compatibility check passed and the functions are registered.
    case registered
    /// `POST /v1/sessions` answered.
    case session(SessionResponse)
    /// `GET /messages` answered.
    case history([SessionMessage])
    /// `POST /messages` accepted the turn.
    case accepted(turnID: String)
    /// `POST /tool-results` answered; `deduplicated` when the server had the result already.
    case delivered(deduplicated: Bool)
    /// `PATCH /context` applied with these function names.
    case contextRefreshed(names: [String])
    /// `GET /localization` answered.
    case localization(LocalizationResponse)
    /// `POST /feedback` answered: recorded, or already given for this session (409).
    case feedback(alreadyGiven: Bool)
}

/// Why a request failed: the backend's answer or the transport, or (only for registration) an SDK the backend
/// does not support.
enum BackendFailure: Error, Sendable, Equatable {
    /// The backend or the transport failed; the error says which endpoint.
    case backend(BackendError, BackendFailurePolicy.Endpoint)
    /// The compatibility check says this SDK is not supported.
    case unsupported(minimum: String, majors: [Int])

    /// The backend error, when there is one.
    var backendError: BackendError? {
        if case .backend(let error, _) = self { return error }
        return nil
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.backend(let a, let x), .backend(let b, let y)): a.description == b.description && x == y
        case (.unsupported(let a, let x), .unsupported(let b, let y)): a == b && x == y
        default: false
        }
    }
}

/// A moment as the machine sees it: the runtime clock's elapsed time for every timer, and the wall clock for the
/// server's times (token expiry, replay cutoffs).
struct Moment: Sendable, Equatable {
    var elapsed: Duration
    var date: Date
}

/// Who waits for an answer from the machine: an `ask`, a `sendMessage`, an operation or a drain.
struct WaiterID: Hashable, Sendable, CustomStringConvertible {
    var rawValue: UInt64
    var description: String { "waiter \(rawValue)" }
}
