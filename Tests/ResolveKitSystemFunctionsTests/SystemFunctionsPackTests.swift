import ResolveKitCore
import ResolveKitSystemFunctions
import Testing

struct SystemFunctionsPackTests {
    @Test func thePackRegistersEveryFunctionAndOnlyFileReadersNeedApproval() throws {
        let registry = try ResolveKitRegistry(functionPacks: [SystemFunctionsPack.self])
        let flags = Dictionary(uniqueKeysWithValues: registry.entries.map { ($0.name, $0.function.resolveKitRequiresApproval) })
        #expect(flags == [
            "get_disk_usage": false, "get_host_status": false, "get_local_time": false, "get_service_status": false,
            "list_directory": true, "list_top_processes": false, "read_log_tail": true,
        ])
        let payload = registry.bulkRegistration().json
        #expect(payload["functions"]?[0]?["availability"] == ["platforms": ["linux"]])
        #expect(payload["functions"]?[0]?["pack_name"] == "linux_system")
    }

    /// A model sees the counts a function accepts, not JSON's whole integer range.
    @Test func countsOfferTheirRealBoundsToTheModel() throws {
        let registry = try ResolveKitRegistry(functionPacks: [SystemFunctionsPack.self])
        let schemas = Dictionary(uniqueKeysWithValues: registry.entries.map { ($0.name, $0.function.resolveKitParametersSchema) })
        let lines = schemas["read_log_tail"]?["properties"]?.objectValue?["lines"]
        #expect(lines?["minimum"] == 1 && lines?["maximum"] == 1000)
        let limit = schemas["list_top_processes"]?["properties"]?.objectValue?["limit"]
        #expect(limit?["minimum"] == 1 && limit?["maximum"] == 50)
    }

    @Test func theGeneratedDispatchValidatesArgumentsBeforeRunning() async throws {
        let readLog = try #require(SystemFunctionsPack.functions.first { $0.resolveKitName == "read_log_tail" })
        let context = ResolveKitFunctionContext(sessionID: "s", requestID: "r")
        await #expect(throws: ResolveKitFunctionError.self) {
            try await readLog.invoke(arguments: ["lines": 5], context: context)
        }
        let time = try #require(SystemFunctionsPack.functions.first { $0.resolveKitName == "get_local_time" })
        let result = try await time.invoke(arguments: [:], context: context)
        #expect(result["timeZone"]?.stringValue?.isEmpty == false)
    }
}
