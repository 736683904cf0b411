/// The `codegen` workload for `rk-bench`: the whole pipeline over a generated corpus.
public enum CodegenBenchmark {
    /// Runs the pipeline once over a corpus of `fileCount` files, each with 1–3 annotated functions plus noise
    /// (comments, string literals of every kind, other types, extensions), and returns how long the pipeline took.
    /// Building the corpus is not timed.
    public static func run(fileCount: Int = 1000) -> Duration {
        let inputs = corpus(fileCount: fileCount)
        let clock = ContinuousClock()
        var output: CodegenPipeline.Output?
        let duration = clock.measure { output = CodegenPipeline.run(inputs) }
        precondition(output?.hasErrors == false, "the benchmark corpus must generate without errors")
        return duration
    }

    /// The deterministic benchmark corpus.
    public static func corpus(fileCount: Int) -> [CodegenPipeline.Input] {
        (0..<fileCount).map { file in
            CodegenPipeline.Input(path: "Corpus/File\(file).swift", contents: source(file: file))
        }
    }

    static func source(file: Int) -> String {
        var text = """
            import Foundation
            import ResolveKitCore

            /* File \(file): a block comment with braces { } and /* a nested comment */ inside. */
            let banner\(file) = "banner with // not a comment and } braces \\(file) \\(["x"].count)"
            let raw\(file) = #"raw "text" with \\(no) interpolation"#
            let poem\(file) = \"\"\"
                struct NotReal { func perform() async throws {} }
                \\(banner\(file).count) lines
                \"\"\"

            /// A helper type that is not a function.
            final class Helper\(file) {
                var cache: [String: Int] = [:]
                func perform(_ x: Int) -> Int { x * 2 }
            }

            /// A priority.
            enum Priority\(file): Int, Codable, Sendable { case low = 1, normal, high }

            /// A payload.
            struct Payload\(file): Codable, Sendable {
                /// The title.
                var title: String
                var tags: [String]?
                var priority: Priority\(file)
            }

            extension Helper\(file) {
                func describe() -> String { "helper \\(cache.count)" }
            }

            """
        for function in 0..<(1 + file % 3) {
            text += """

                /// Function \(function) of file \(file).
                /// - Parameters:
                ///   - name: A name.
                ///   - count: How many.
                ///     - Minimum: 0
                ///   - payload: The payload.
                // @ResolveKit(name: "fn_\(file)_\(function)", timeout: \(60 + function), requiresApproval: \(function == 0))
                struct Function\(file)x\(function): ResolveKitFunction {
                    func perform(
                        name: String, count: Int = 3, payload: Payload\(file)?, when: Date? = nil,
                        priority: Priority\(file) = .normal, weights: [String: Double] = [:]
                    ) async throws -> String {
                        "\\(name) \\(count) \\(payload?.title ?? "-")"
                    }
                }

                """
        }
        return text
    }
}
