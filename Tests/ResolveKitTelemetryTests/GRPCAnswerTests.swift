import Foundation
import Testing

@testable import ResolveKitTelemetry

/// What a gRPC call sends and how its answer is read, without a server (the collector tests run a real one).
struct GRPCAnswerTests {
    @Test func aMessageGoesInALengthPrefixedFrameToTheMethodsPath() {
        let message: [UInt8] = Array(repeating: 7, count: 300)
        let plain = OTLPCall.body(message, .grpc, .none)
        #expect(Array(plain.prefix(5)) == [0, 0, 0, 0x01, 0x2C])
        #expect(Array(plain.dropFirst(5)) == message)
        let gzipped = OTLPCall.body(message, .grpc, .gzip)
        #expect(gzipped[0] == 1, "the flag says the message is compressed")
        #expect(Int(gzipped[3]) << 8 | Int(gzipped[4]) == gzipped.count - 5)
        #expect(OTLPCall.body(message, .protobuf, .none) == message, "OTLP/HTTP sends the message as it is")
        #expect(
            OTLPCall.url("http://c:4317/", .grpc, .traces)
                == "http://c:4317/opentelemetry.proto.collector.trace.v1.TraceService/Export")
        #expect(OTLPCall.url("http://c:4318/v1/traces", .protobuf, .traces) == "http://c:4318/v1/traces")
        #expect(OTLPCall.unframed([0, 0, 0, 0, 2, 9, 9, 5]) == [9, 9])
    }

    @Test func aGRPCCallCarriesTrailersAndGRPCEncodingAndNoContentEncoding() {
        let headers = OTLPCall.headers([("te", "x"), ("api-key", "k")], encoding: .grpc, compression: .gzip)
        let names = headers.map { $0.name.lowercased() }
        #expect(names == ["content-type", "user-agent", "te", "grpc-timeout", "grpc-encoding", "api-key"])
        #expect(headers.first { $0.name == "TE" }?.value == "trailers")
        #expect(headers.first?.value == "application/grpc")
        #expect(headers.first { $0.name == "grpc-timeout" }?.value == "10000m", "the default 10 s export timeout")
        let http = OTLPCall.headers([("grpc-timeout", "1S")], encoding: .protobuf, compression: .none)
        #expect(!http.contains { $0.name.lowercased() == "grpc-timeout" }, "OTLP/HTTP sends no gRPC deadline")
    }

    @Test func aDeadlineIsWrittenAsGRPCAsksInAtMostEightDigits() {
        #expect(OTLPCall.grpcTimeout(.milliseconds(2500)) == "2500m")
        #expect(OTLPCall.grpcTimeout(.microseconds(1500)) == "1m")
        #expect(OTLPCall.grpcTimeout(.microseconds(10)) == "1m", "zero would be a deadline already passed")
        #expect(OTLPCall.grpcTimeout(.seconds(99_999)) == "99999000m")
        #expect(OTLPCall.grpcTimeout(.seconds(100_000)) == "100000S")
        #expect(OTLPCall.grpcTimeout(.seconds(1_000_000_000)) == "99999999S")
    }

    @Test func theGRPCStatusDecidesAndTheHTTPStatusOnlyAroundIt() {
        func verdict(_ status: Int, _ grpc: GRPCStatus?) -> OTLPAnswer.Verdict {
            OTLPAnswer.verdict(
                OTLPResponse(status: status, body: [0, 0, 0, 0, 0], grpcStatus: grpc), isGRPC: true, nowUnixSeconds: 0)
        }
        #expect(verdict(200, GRPCStatus(code: 0)) == .accepted(body: []))
        #expect(verdict(200, GRPCStatus(code: 14)) == .retry(after: nil, status: "UNAVAILABLE (14)"))
        #expect(verdict(200, GRPCStatus(code: 4)) == .retry(after: nil, status: "DEADLINE_EXCEEDED (4)"))
        #expect(verdict(200, GRPCStatus(code: 8)) == .refused(status: "RESOURCE_EXHAUSTED (8)", message: ""))
        #expect(
            verdict(200, GRPCStatus(code: 8, retryDelay: .seconds(2)))
                == .retry(after: .seconds(2), status: "RESOURCE_EXHAUSTED (8)"))
        #expect(
            verdict(200, GRPCStatus(code: 16, message: "no key"))
                == .refused(status: "UNAUTHENTICATED (16)", message: "no key"))
        // A proxy in front of the collector answers in HTTP.
        #expect(verdict(503, nil) == .retry(after: nil, status: "503"))
        if case .refused(let status, _) = verdict(200, nil) { #expect(status == "200") } else { Issue.record() }
    }

    @Test func theTrailersAreReadWithTheirMessageDecodedAndARetryInfosDelay() throws {
        // google.rpc.Status { code: 8, message: "slow down", details: [Any { RetryInfo { retry_delay: 1.25 s } }] }
        let delay: [UInt8] = [0x08, 0x01, 0x10] + [0x80, 0xE5, 0x9A, 0x77]  // seconds 1, nanos 250,000,000
        let retryInfo: [UInt8] = [0x0A, UInt8(delay.count)] + delay
        let typeURL = Array("type.googleapis.com/google.rpc.RetryInfo".utf8)
        let any: [UInt8] = [0x0A, UInt8(typeURL.count)] + typeURL + [0x12, UInt8(retryInfo.count)] + retryInfo
        let status: [UInt8] = [0x08, 0x08, 0x12, 0x09] + Array("slow down".utf8) + [0x1A, UInt8(any.count)] + any
        let unpadded = Data(status).base64EncodedString().replacingOccurrences(of: "=", with: "")
        let parsed = try #require(GRPCStatus(status: "8", message: "slow%20down", details: unpadded))
        #expect(parsed.code == 8)
        #expect(parsed.message == "slow down")
        #expect(parsed.retryDelay == .milliseconds(1250))
        #expect(parsed.isRetryable)
        #expect(GRPCStatus(status: nil, message: "x", details: nil) == nil)
        #expect(GRPCStatus(status: "x", message: nil, details: nil) == nil)
        #expect(GRPCStatus(status: "99", message: nil, details: "%%%")?.name == "99")
    }

    @Test func thePlainTransportRefusesAGRPCCall() async throws {
        let request = OTLPRequest(
            url: "http://127.0.0.1:4317/x", headers: [], body: [], timeout: .seconds(1), isGRPC: true)
        let error = await #expect(throws: TelemetryError.self) { try await PlainHTTPTransport().send(request) }
        #expect(error?.code == .unsupportedEndpoint)
        #expect(error?.message.contains("http/protobuf") == true)
    }
}
