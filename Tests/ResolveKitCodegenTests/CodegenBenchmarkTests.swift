import Testing

@testable import ResolveKitCodegen

/// The benchmark workload must measure real work: its corpus generates every function without diagnostics.
struct CodegenBenchmarkTests {
    @Test func theCorpusGeneratesEveryFunctionWithoutDiagnostics() {
        let output = CodegenPipeline.run(CodegenBenchmark.corpus(fileCount: 30))
        #expect(output.diagnostics == [])
        #expect(output.functionCount == 60)
        #expect(output.source?.contains("extension Function29x2: AnyResolveKitFunction {") == true)
        #expect(output.source?.contains("extension Priority7: ResolveKitArgument {") == true)
    }

    @Test func runReportsTheDurationOfASmallCorpus() {
        #expect(CodegenBenchmark.run(fileCount: 5) > .zero)
    }
}
