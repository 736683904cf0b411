import Foundation
import ResolveKitCore

/// Echoes every scalar type back.
// @ResolveKit(name: "echo_scalars", requiresApproval: false)
struct EchoScalars: ResolveKitFunction {
    /// What came in.
    struct Echo: Encodable {
        var text: String
        var flag: Bool
        var int: Int
        var small: Int8
        var unsigned: UInt16
        var wide: Int64
        var natural: UInt
        var double: Double
        var float: Float
        var decimal: Decimal
        var date: Date
        var url: URL
        var id: UUID
    }

    // swift-format-ignore
    func perform(
        text: String, flag: Bool, int: Int, small: Int8, unsigned: UInt16, wide: Int64, natural: UInt,
        double: Double, float: Float, decimal: Decimal, date: Date, url: URL, id: UUID
    ) async throws -> Echo {
        Echo(
            text: text, flag: flag, int: int, small: small, unsigned: unsigned, wide: wide, natural: natural,
            double: double, float: float, decimal: decimal, date: date, url: url, id: id)
    }
}

/// Sums numbers in nested collections.
/// - Parameter matrix: Rows of numbers.
/// - Parameter labels: Distinct labels.
/// - Parameter weights: A weight per name.
// @ResolveKit(name: "sum_collections", description: "Adds up every number it is given.")
struct SumCollections: ResolveKitFunction {
    func perform(
        matrix: [[Int]], labels: Set<String> = [], weights: [String: Double] = ["default": 1.5],
        extra: Dictionary<String, [Int]>? = nil
    ) async throws -> JSONValue {
        let total = matrix.joined().reduce(0, +) + (extra?.values.joined().reduce(0, +) ?? 0)
        return [
            "total": .number(Double(total)),
            "labels": .array(labels.sorted().map(JSONValue.string)),
            "weight": .number(weights.values.reduce(0, +)),
        ]
    }
}
