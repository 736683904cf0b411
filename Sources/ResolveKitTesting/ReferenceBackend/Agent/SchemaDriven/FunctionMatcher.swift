import Foundation

/// Finds the registered functions a message names: by name (`set_thermostat`, "set thermostat"), by the nouns of
/// the name ("thermostat"), or, failing those, by words of the description. What the reference backend's default
/// agent uses to call any registered function, the host's own included.
struct FunctionMatcher: Sendable {
    /// Verbs and filler that say nothing about which function is meant.
    static let ignoredWords: Set<String> = [
        "get", "set", "list", "read", "show", "run", "make", "find", "the", "and", "for", "with", "from", "this",
        "that", "what", "which", "when", "your", "about", "into", "file", "files", "returns", "return", "current",
    ]

    let tools: [AgentContext.Tool]

    /// The tools the text names, in the order they appear in it.
    func match(_ text: String) -> [AgentContext.Tool] {
        let lowered = text.lowercased()
        let words = Set(Self.words(lowered))
        var named: [(position: String.Index, tool: AgentContext.Tool)] = []
        for tool in tools {
            let spaced = tool.name.replacingOccurrences(of: "_", with: " ").lowercased()
            let nouns = Self.words(spaced).filter { !Self.ignoredWords.contains($0) && $0.count >= 3 }
            let position =
                lowered.range(of: tool.name.lowercased())?.lowerBound ?? lowered.range(of: spaced)?.lowerBound
                ?? nouns.compactMap { words.contains($0) ? lowered.range(of: $0)?.lowerBound : nil }.min()
            if let position { named.append((position, tool)) }
        }
        if !named.isEmpty { return named.sorted { $0.position < $1.position }.map(\.tool) }
        // No name: the tool whose description shares the most significant words with the text, if at least two.
        let scored = tools.map { tool in
            (tool, Set(Self.words(tool.description.lowercased())).filter { $0.count >= 5 && !Self.ignoredWords.contains($0) }
                .intersection(words).count)
        }
        guard let best = scored.max(by: { $0.1 < $1.1 }), best.1 >= 2 else { return [] }
        return [best.0]
    }

    /// The tools whose exact name (`list_directory`) the text contains as a word of its own, in the order they
    /// appear: a name typed as it is means that function, whatever else the message mentions.
    func exactlyNamed(_ text: String) -> [AgentContext.Tool] {
        let identifiers = Self.identifiers(text.lowercased())
        return tools.compactMap { tool in identifiers.firstIndex(of: tool.name.lowercased()).map { ($0, tool) } }
            .sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// The runs of letters, digits and `_` of a lower-cased text.
    static func identifiers(_ text: String) -> [String] {
        text.split { !$0.isLetter && !$0.isNumber && $0 != "_" }.map(String.init)
    }

    /// The words of a lower-cased text: runs of letters and digits.
    static func words(_ text: String) -> [String] {
        text.split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }
}
