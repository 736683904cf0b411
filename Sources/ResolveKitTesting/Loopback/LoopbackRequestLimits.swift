/// Size limits the loopback server applies to requests.
public struct LoopbackRequestLimits: Sendable {
    /// The request line and all header fields together; beyond it the server answers 431.
    public var maxHeadBytes: Int
    /// The number of header fields; beyond it the server answers 431.
    public var maxHeaderCount: Int
    /// The request body; beyond it the server answers 413.
    public var maxBodyBytes: Int

    /// Creates limits; the defaults are 16 KiB of head, 100 fields and 64 MiB of body.
    public init(maxHeadBytes: Int = 16 * 1024, maxHeaderCount: Int = 100, maxBodyBytes: Int = 64 * 1024 * 1024) {
        self.maxHeadBytes = maxHeadBytes
        self.maxHeaderCount = maxHeaderCount
        self.maxBodyBytes = maxBodyBytes
    }

    var parserLimits: LoopbackRequestParser.Limits {
        var limits = LoopbackRequestParser.Limits()
        limits.maxHeadBytes = maxHeadBytes
        limits.maxHeaderLineBytes = min(limits.maxHeaderLineBytes, maxHeadBytes)
        limits.maxHeaderCount = maxHeaderCount
        limits.maxBodyBytes = maxBodyBytes
        return limits
    }
}
