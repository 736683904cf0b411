import ResolveKitCore

/// A list of places by key.
package typealias PlaceBook = [String: Place]

/// A request with renamed keys.
package struct Booking: Codable, Sendable {
    package var guest: String
    package var nights: UInt8
    package var note: String? = nil
    /// Derived, not decoded.
    var summary: String { "\(guest) x\(nights)" }

    enum CodingKeys: String, CodingKey {
        case guest = "guest_name"
        case nights
        case note
    }
}

/// Books rooms; its perform lives in an extension in the same file.
/// - Parameters:
///   - booking: Who and how long.
///   - places: Where, by key.
///   - priorities: Distinct priorities.
///   - modes: Preferred light modes, if any.
///   - budget: Upper bound of the price.
// @ResolveKit(name: "book_rooms", requiresApproval: false)
package struct BookRooms: ResolveKitFunction {
    package init() {}
}

extension BookRooms {
    package func perform(
        booking: Booking, places: PlaceBook = [:], priorities: Set<Priority> = [], modes: [SetLights.Mode]? = nil,
        budget: Float = 99.5, limit: UInt64 = 10
    ) async throws -> [String: Int] {
        [
            booking.guest: Int(booking.nights), "places": places.count, "priorities": priorities.count,
            "modes": modes?.count ?? -1, "budget": Int(budget), "limit": Int(limit), "note": booking.note?.count ?? 0,
        ]
    }
}

/// Finds a place; returns nothing when it is unknown.
// @ResolveKit(name: "find_place")
struct FindPlace: ResolveKitFunction {
    var known: [String: Place] { ["home": Place(name: "Home", floor: 1)] }

    func perform(key: String) async throws -> Place? { known[key] }
}

/// Does nothing, explicitly.
// @ResolveKit(name: "noop", requiresApproval: false)
struct Noop: ResolveKitFunction {
    var counter = 0
    @available(*, deprecated)
    var legacy = 1

    func perform() async throws -> Void {}
}
