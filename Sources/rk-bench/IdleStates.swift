import Foundation

/// How this machine's idle cores sleep, which sets what waking a thread costs: on a virtual machine whose guest
/// halts at once (`guest_halt_poll_ns` 0), a thread woken on an idle core waits tens of microseconds for it, and
/// latency figures measured there move with how often a path wakes one.
enum IdleStates {
    /// E.g. `cpuidle driver haltpoll, guest_halt_poll_ns 0`; `nil` when the system does not say.
    static func summary() -> String? {
        guard let driver = read("/sys/devices/system/cpu/cpuidle/current_driver") else { return nil }
        guard let poll = read("/sys/module/haltpoll/parameters/guest_halt_poll_ns") else {
            return "cpuidle driver \(driver)"
        }
        return "cpuidle driver \(driver), guest_halt_poll_ns \(poll)"
    }

    private static func read(_ path: String) -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return value.isEmpty ? nil : value
    }
}
