import ResolveKitCore
import Testing

/// Expects `body` to throw a ``ResolveKitFunctionError`` with `code` whose message contains every one of `phrases`.
func expectFunctionError<Result>(
    _ code: ResolveKitFunctionError.Code, mentioning phrases: String...,
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Result
) async {
    do {
        let result = try await body()
        Issue.record("Expected a \(code) error, got \(result)", sourceLocation: sourceLocation)
    } catch let error as ResolveKitFunctionError {
        #expect(error.code == code, "\(error.message)", sourceLocation: sourceLocation)
        for phrase in phrases {
            #expect(error.message.contains(phrase), "\(error.message) lacks \(phrase)", sourceLocation: sourceLocation)
        }
    } catch {
        Issue.record("Expected a ResolveKitFunctionError, got \(error)", sourceLocation: sourceLocation)
    }
}
