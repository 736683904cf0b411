/// The samples of a text exposition, keyed `name{label="value",…}` with labels in the order written, for asserting
/// values; comment lines are collected apart.
struct ExpositionSamples {
    var values: [String: Double] = [:]
    var comments: [String] = []
    var names: [String] = []

    init(_ bytes: [UInt8]) {
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            if line.hasPrefix("#") {
                comments.append(String(line))
                continue
            }
            guard let space = line.lastIndex(of: " ") else { continue }
            let key = String(line[..<space])
            values[key] = Double(line[line.index(after: space)...]) ?? .nan
            names.append(key)
        }
    }

    subscript(_ key: String) -> Double? { values[key] }
}
