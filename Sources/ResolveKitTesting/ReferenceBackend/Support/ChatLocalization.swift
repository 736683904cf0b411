import Foundation

/// The built-in chat texts and the locale resolution of WireProtocol §4.5.
///
/// The real backend knows 49 locales; this one knows a dozen, resolved with the same rules: lower-case, `_` → `-`,
/// the `zh-hans`/`zh-hant` aliases, the exact code or else its language part, tried for `locale` and then each
/// preferred locale, else the fallback.
enum ChatLocalization {
    struct Texts: Sendable {
        var chatTitle: String
        var messagePlaceholder: String
        var initialMessage: String
    }

    static let texts: [String: Texts] = [
        "en": Texts(
            chatTitle: "Support Chat", messagePlaceholder: "Message", initialMessage: "Hello! How can I help you today?"
        ),
        "de": Texts(
            chatTitle: "Support-Chat", messagePlaceholder: "Nachricht",
            initialMessage: "Hallo! Wie kann ich Ihnen heute helfen?"),
        "fr": Texts(
            chatTitle: "Chat d'assistance", messagePlaceholder: "Message",
            initialMessage: "Bonjour ! Comment puis-je vous aider aujourd'hui ?"),
        "es": Texts(
            chatTitle: "Chat de soporte", messagePlaceholder: "Mensaje",
            initialMessage: "¡Hola! ¿En qué puedo ayudarte hoy?"),
        "it": Texts(
            chatTitle: "Chat di supporto", messagePlaceholder: "Messaggio",
            initialMessage: "Ciao! Come posso aiutarti oggi?"),
        "pt": Texts(
            chatTitle: "Chat de suporte", messagePlaceholder: "Mensagem", initialMessage: "Olá! Como posso ajudar hoje?"
        ),
        "pt-br": Texts(
            chatTitle: "Chat de suporte", messagePlaceholder: "Mensagem",
            initialMessage: "Olá! Como posso te ajudar hoje?"),
        "nl": Texts(
            chatTitle: "Supportchat", messagePlaceholder: "Bericht",
            initialMessage: "Hallo! Hoe kan ik je vandaag helpen?"),
        "pl": Texts(
            chatTitle: "Czat pomocy", messagePlaceholder: "Wiadomość", initialMessage: "Cześć! Jak mogę Ci dziś pomóc?"),
        "lt": Texts(
            chatTitle: "Pagalbos pokalbis", messagePlaceholder: "Žinutė",
            initialMessage: "Sveiki! Kuo galiu padėti šiandien?"),
        "ja": Texts(chatTitle: "サポートチャット", messagePlaceholder: "メッセージ", initialMessage: "こんにちは！今日はどのようなご用件でしょうか？"),
        "zh-cn": Texts(chatTitle: "客服聊天", messagePlaceholder: "消息", initialMessage: "你好！今天有什么可以帮你的吗？"),
        "zh-tw": Texts(chatTitle: "客服聊天", messagePlaceholder: "訊息", initialMessage: "你好！今天有什麼可以幫你的嗎？"),
    ]

    static let aliases = ["zh-hans": "zh-cn", "zh-hant": "zh-tw"]

    /// The supported code for the first candidate that resolves, else `fallback`.
    static func resolve(_ candidates: [String?], fallback: String = "en") -> String {
        for candidate in candidates.compactMap({ $0 }) {
            let normalized = candidate.trimmingCharacters(in: .whitespaces).lowercased().replacingOccurrences(
                of: "_", with: "-")
            guard !normalized.isEmpty else { continue }
            let code = aliases[normalized] ?? normalized
            if texts[code] != nil { return code }
            if let language = code.split(separator: "-").first.map(String.init), texts[language] != nil {
                return language
            }
        }
        return fallback
    }

    static func texts(for code: String) -> Texts { texts[code] ?? texts["en"]! }
}
