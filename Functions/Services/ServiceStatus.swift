/// What systemd says about one unit.
public struct ServiceStatus: Codable, Sendable, Hashable {
    /// The unit name as systemd knows it, such as `nginx.service`.
    public var unit: String
    /// What `systemctl is-active` prints: `active`, `inactive`, `failed`, `activating`, `deactivating`,
    /// `reloading` or `maintenance`.
    public var activeState: String
    /// The finer state, such as `running`, `exited` or `dead`.
    public var subState: String?
    /// `loaded`, or `not-found` when no such unit exists, `masked`, `error` …
    public var loadState: String?
    /// Whether the unit is enabled: `enabled`, `disabled`, `static`, `masked` …
    public var unitFileState: String?
    /// The unit's description line.
    public var description: String?
    /// The main process id while it runs.
    public var mainPID: Int?
    /// When it last entered the active state, as systemd prints it.
    public var activeSince: String?
}
