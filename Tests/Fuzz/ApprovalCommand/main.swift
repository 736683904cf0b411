// libFuzzer target: the requests rk-service reads on stdin and its approval socket (Samples/rk-service:
// LineBuffer, ServiceRequest.parse, ApprovalCommand.parse), as rk-approve and other clients send them, and the
// `"if"` object of `remember`, read as the service reads it (PolicyApprover.conditions in ResolveKitTools).
//
// Not part of the SwiftPM build: Tests/Fuzz/run-fuzzers.sh compiles Sources/ResolveKitCore, Sources/ResolveKitTools
// and just the four files of the rk-service executable they need (as the module rk_service, with -enable-testing
// for their internal types) with coverage and ASan, and links this harness against them. The input is a client's
// byte stream. Properties:
// - nothing crashes, whatever the bytes;
// - the stream gives the same lines fed whole, split at an input-derived point, and byte by byte (with the
//   service's limit and with a small one, which makes lines too long);
// - a request that parses, written again the way a client writes it (only the members it uses) and as its own
//   JSON re-serialised, parses to the same request; no member it reads had a wrong value (nothing is dropped
//   silently);
// - a request that does not parse gives the same reason twice, carries the request's id when it had a usable one,
//   and its reason names a member that is missing or wrong (unless the line is not a JSON object);
// - a usable request with one member replaced by a value that makes it unusable is refused naming that member;
// - a `remember` command's conditions read like a policy rule's and survive being written back as an `"if"`.
// Each of the first four request objects of an input is also checked with every member of the grammar dropped or
// replaced by a value of each JSON type.

import Foundation
import ResolveKitTools

@testable import rk_service

/// libFuzzer's entry point: runs one input; a violated property stops the process with `fatalError`.
///
/// - Parameters:
///   - start: The input bytes.
///   - count: How many.
/// - Returns: Always 0 (libFuzzer reserves other values).
@_cdecl("LLVMFuzzerTestOneInput")
public func approvalCommandFuzzTarget(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    checkSplitting(bytes, maxBytes: 64)
    var objects = 0
    for line in checkSplitting(bytes, maxBytes: ServiceRequest.maxLineBytes) {
        guard case .line(let text) = line else { continue }
        let refused = checkRequest(text)
        // Coverage cannot tell a member of the wrong type from the right one (both go through the same
        // accessors), so each of the first objects is also tried with every member replaced or dropped.
        guard objects < 4, let object = (try? JSONValue(parsing: text))?.objectValue else { continue }
        objects += 1
        for (name, replacement, variant) in variants(of: object) {
            let blamed = checkRequest(JSONValue.object(variant).serializedBytes())
            // One member of a usable request made wrong: the refusal names that one.
            guard refused == nil, let blamed, replacement != nil else { continue }
            check(blamed.contains(name), "a wrong \(name) made \(variant) unusable, but the reason names \(blamed)")
        }
    }
    return 0
}

/// `object` with each member of the grammar dropped (`nil`), or replaced by a value of each JSON type.
func variants(of object: JSONObject) -> [(name: String, replacement: JSONValue?, variant: JSONObject)] {
    let replacements: [JSONValue?] = [nil, .null, true, 5, 0.5, "", "x", [], ["x"], [:], ["hours": 1]]
    return Members.names.filter { object[$0] != nil }.flatMap { name in
        replacements.map { replacement in
            var variant = object
            variant[name] = replacement
            return (name, replacement, variant)
        }
    }
}

/// The lines of `bytes` are the same however the stream is cut into reads.
@discardableResult
func checkSplitting(_ bytes: [UInt8], maxBytes: Int) -> [LineBuffer.Line] {
    var whole = LineBuffer(maxBytes: maxBytes)
    let lines = whole.append(bytes) + whole.finish()
    let cut = bytes.isEmpty ? 0 : Int(bytes[0]) * bytes.count / 256
    var split = LineBuffer(maxBytes: maxBytes)
    check(split.append(bytes[..<cut]) + split.append(bytes[cut...]) + split.finish() == lines, "split at \(cut)")
    var single = LineBuffer(maxBytes: maxBytes)
    check(bytes.flatMap { single.append(CollectionOfOne($0)) } + single.finish() == lines, "fed byte by byte")
    for case .line(let line) in lines {
        check(line.count <= maxBytes && !line.contains(UInt8(ascii: "\n")), "a line over the limit or with a newline")
    }
    return lines
}

/// Checks one line; returns `nil` when it parsed, else the members its refusal names.
@discardableResult
func checkRequest(_ line: [UInt8]) -> [String]? {
    let object = (try? JSONValue(parsing: line))?.objectValue
    let request: ServiceRequest
    do {
        request = try ServiceRequest.parse(line)
    } catch {
        return checkRefusal(error, line: line, object: object)
    }
    guard let object else { fatalError("ApprovalCommand fuzz property violated: a line that is no object parsed") }
    let reading = Members(object)
    if let wrong = reading.wrongMember(for: request) {
        check(false, "\(wrong) has a value the grammar does not allow, yet the line parsed: \(request)")
    }
    let written = ClientEncoding.encode(request, scope: object["scope"])
    let rewritten = JSONValue.object(object).serializedBytes(options: .prettyPrinted)
    for text in [written.serializedBytes(options: .sortedKeys), rewritten] {
        let shown = String(decoding: text, as: UTF8.self)
        do {
            let again = try ServiceRequest.parse(text)
            check(Equivalence.same(again, request), "\(shown) parsed to \(again), not \(request)")
        } catch {
            fatalError("ApprovalCommand fuzz property violated: \(shown) was refused: \(error.reason)")
        }
    }
    if case .approval(.remember(let function, _, let conditions?, _)) = request.kind {
        checkConditions(conditions, function)
    }
    return nil
}

/// A refusal says the same twice, keeps a usable id, and names what is wrong; returns the members it names.
func checkRefusal(_ error: ServiceRequest.Malformed, line: [UInt8], object: JSONObject?) -> [String] {
    do {
        _ = try ServiceRequest.parse(line)
        fatalError("ApprovalCommand fuzz property violated: a refused line parsed the second time")
    } catch let again {
        check(again == error, "the same line was refused for another reason: \(again.reason)")
    }
    guard let object else { return [] }
    let id = object["id"]
    if let id, id.stringValue != nil || id.doubleValue != nil {
        check(error.id == id, "the refusal lost the request's id \(id.serialized())")
    }
    let reading = Members(object)
    let blamed = reading.blamed(in: error.reason)
    check(
        blamed.contains { reading.isAtFault($0) },
        "no member named is missing or wrong: \(error.reason), for \(JSONValue.object(object).serialized())")
    return blamed
}

/// What the service does with a `remember` command's `"if"`: read it as a rule's conditions; what it stores
/// (conditions written back as an `"if"`) reads back the same.
func checkConditions(_ ifObject: JSONValue, _ function: String) {
    guard let conditions = try? PolicyApprover.conditions(ifObject, for: function) else { return }
    let written = PolicyApprover.ArgumentRule.conditionsJSON(conditions)
    do {
        check(Set(try PolicyApprover.conditions(written, for: function)) == Set(conditions), "conditions changed")
    } catch {
        fatalError("ApprovalCommand fuzz property violated: stored conditions do not read back: \(error.message)")
    }
}

func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("ApprovalCommand fuzz property violated: \(message())") }
}
