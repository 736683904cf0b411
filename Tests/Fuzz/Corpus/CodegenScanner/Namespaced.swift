import ResolveKitCore

/// A namespace with functions nested in it.
enum Tools {}

extension Tools {
    /// A unit of length.
    enum Unit: String, Sendable {
        case metres, feet
    }

    /// Converts a length.
    /// - Parameters:
    ///   - value: The length.
    ///   - unit: The unit to convert to.
    ///   - reader: A parameter whose name the generated code also uses.
    ///   - default: A keyword as a parameter name.
    // @ResolveKit(name: "convert-length", timeout: 5, requiresApproval: false)
    struct ConvertLength: ResolveKitFunction {
        @available(*, deprecated, message: "only here to test attribute skipping")
        static let factor = 3.28084

        func perform(_ value: Double, to unit: Unit = .feet, reader: String = "", default: Bool = false) async throws
            -> Double
        {
            let converted = unit == .feet ? value * 3.28084 : value
            return `default` ? 0 : (reader.isEmpty ? converted : -converted)
        }
    }
}

/// A class is never a function and its perform is ignored.
final class Helper<T> {
    func perform(_ value: T) async throws -> T { value }
}
