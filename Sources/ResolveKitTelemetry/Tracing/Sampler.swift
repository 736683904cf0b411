public import ResolveKitCore

/// Which traces are recorded, as OpenTelemetry's built-in samplers decide (`OTEL_TRACES_SAMPLER`).
public indirect enum Sampler: Sendable, Hashable, CustomStringConvertible {
    /// Records every trace (`always_on`).
    case alwaysOn
    /// Records nothing (`always_off`).
    case alwaysOff
    /// Records the fraction `ratio` (0…1) of traces, decided by the trace id alone so that every process of a
    /// trace decides the same (`traceidratio`).
    case traceIDRatio(Double)
    /// Follows the parent's sampled flag when there is a parent, and asks `root` for a root span
    /// (`parentbased_always_on`, `parentbased_always_off`, `parentbased_traceidratio`).
    case parentBased(root: Sampler)

    /// Whether a span of `traceID` with parent `parent` is recorded and exported.
    public func shouldSample(traceID: TraceID, parent: SpanContext?) -> Bool {
        switch self {
        case .alwaysOn:
            return true
        case .alwaysOff:
            return false
        case .traceIDRatio(let ratio):
            guard ratio < 1 else { return true }
            guard ratio > 0 else { return false }
            // The low eight bytes of the id, read as an integer, against ratio × 2^64.
            return Double(traceID.low) < ratio * 18_446_744_073_709_551_616.0
        case .parentBased(let root):
            guard let parent, parent.isValid else { return root.shouldSample(traceID: traceID, parent: nil) }
            return parent.isSampled
        }
    }

    /// As OpenTelemetry SDKs name it, e.g. `ParentBased{root=TraceIdRatioBased{0.25}}`.
    public var description: String {
        switch self {
        case .alwaysOn: "AlwaysOnSampler"
        case .alwaysOff: "AlwaysOffSampler"
        case .traceIDRatio(let ratio): "TraceIdRatioBased{\(ratio)}"
        case .parentBased(let root): "ParentBased{root=\(root)}"
        }
    }
}
