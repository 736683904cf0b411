"""Decodes an OTLP/HTTP JSON trace export with the opentelemetry-proto package and checks one turn's spans.

Usage: decode_otlp_trace.py BODY.json HOST_TRACE_ID HOST_SPAN_ID

OTLP's JSON encoding is the protobuf JSON mapping except that trace and span ids are hex, not base64: they are
mapped back before json_format.Parse, which then checks every field name, type and enum. Exits 1 with a message
when the body does not decode or the turn is not as expected; prints a summary otherwise.
"""

import base64
import json
import sys

from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.trace.v1.trace_pb2 import Span, Status


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def hex_to_base64(value, size):
    raw = bytes.fromhex(value)
    if len(raw) != size:
        fail("id %r is not %d bytes" % (value, size))
    return base64.b64encode(raw).decode()


def map_ids(document):
    for resource_spans in document.get("resourceSpans", []):
        for scope_spans in resource_spans.get("scopeSpans", []):
            for span in scope_spans.get("spans", []):
                span["traceId"] = hex_to_base64(span["traceId"], 16)
                span["spanId"] = hex_to_base64(span["spanId"], 8)
                if "parentSpanId" in span:
                    span["parentSpanId"] = hex_to_base64(span["parentSpanId"], 8)
                for link in span.get("links", []):
                    link["traceId"] = hex_to_base64(link["traceId"], 16)
                    link["spanId"] = hex_to_base64(link["spanId"], 8)


def attributes(span):
    result = {}
    for attribute in span.attributes:
        value = attribute.value
        result[attribute.key] = getattr(value, value.WhichOneof("value"))
    return result


def main():
    path, host_trace, host_span = sys.argv[1], sys.argv[2], sys.argv[3]
    with open(path, "rb") as body:
        document = json.load(body)
    map_ids(document)
    request = ExportTraceServiceRequest()
    try:
        json_format.Parse(json.dumps(document), request)
    except json_format.ParseError as error:
        fail("not an ExportTraceServiceRequest: %s" % error)

    spans = [span for rs in request.resource_spans for ss in rs.scope_spans for span in ss.spans]
    resource = {a.key: a.value.string_value for rs in request.resource_spans for a in rs.resource.attributes}
    if resource.get("service.name") != "otlp-decode-test":
        fail("service.name is %r" % resource.get("service.name"))

    traces = {span.trace_id.hex() for span in spans}
    if traces != {host_trace}:
        fail("expected one trace %s, found %s" % (host_trace, sorted(traces)))
    by_id = {}
    for span in spans:
        if len(span.span_id) != 8 or span.span_id == bytes(8):
            fail("span %s has an invalid id" % span.name)
        if span.start_time_unix_nano == 0 or span.start_time_unix_nano > span.end_time_unix_nano:
            fail("span %s ends before it starts" % span.name)
        by_id[span.span_id] = span
    if len(by_id) != len(spans):
        fail("span ids repeat")

    def only(name):
        found = [span for span in spans if span.name == name]
        if len(found) != 1:
            fail("expected one span %r, found %d among %s" % (name, len(found), [s.name for s in spans]))
        return found[0]

    def check_child(child, parent):
        if child.parent_span_id != parent.span_id:
            fail("%s is not a child of %s" % (child.name, parent.name))
        if child.start_time_unix_nano < parent.start_time_unix_nano or child.end_time_unix_nano > parent.end_time_unix_nano:
            fail("%s is not within %s" % (child.name, parent.name))

    turn = only("invoke_agent")
    if turn.parent_span_id.hex() != host_span:
        fail("the turn's parent is %s, not the host's span %s" % (turn.parent_span_id.hex(), host_span))
    if turn.kind != Span.SPAN_KIND_CLIENT or not (turn.flags & 0x300 == 0x300):
        fail("the turn is not a client span under a remote parent (kind %d, flags %x)" % (turn.kind, turn.flags))
    turn_attributes = attributes(turn)
    expected_turn = {"gen_ai.operation.name": "invoke_agent", "gen_ai.provider.name": "resolvekit",
                     "gen_ai.conversation.id": "session-1", "gen_ai.usage.input_tokens": 616,
                     "gen_ai.usage.output_tokens": 15}
    for key, value in expected_turn.items():
        if turn_attributes.get(key) != value:
            fail("the turn's %s is %r, not %r" % (key, turn_attributes.get(key), value))

    approved = only("execute_tool get_weather")
    declined = only("execute_tool delete_file")
    for call, name, call_id in [(approved, "get_weather", "call-1"), (declined, "delete_file", "call-2")]:
        check_child(call, turn)
        values = attributes(call)
        expected = {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name,
                    "gen_ai.tool.call.id": call_id, "gen_ai.tool.type": "function"}
        for key, value in expected.items():
            if values.get(key) != value:
                fail("%s's %s is %r, not %r" % (call.name, key, values.get(key), value))
    if "error.type" in attributes(approved) or approved.status.code == Status.STATUS_CODE_ERROR:
        fail("the approved call is marked failed")
    if attributes(declined).get("error.type") != "declined" or declined.status.code != Status.STATUS_CODE_ERROR:
        fail("the declined call has no error.type declined and error status")

    approval = only("approval get_weather")
    run = only("run get_weather")
    check_child(approval, approved)
    check_child(run, approved)
    if approval.end_time_unix_nano > run.start_time_unix_nano:
        fail("the function ran before its approval ended")
    if attributes(approval).get("resolvekit.approval.decided_by") != "person":
        fail("the approval does not name who decided")
    refusal = only("approval delete_file")
    check_child(refusal, declined)
    if attributes(refusal).get("resolvekit.approval.approved") is not False:
        fail("the declined call's approval does not say it was not approved")
    if any(span.name == "run delete_file" for span in spans):
        fail("the declined function ran")
    post = only("POST")
    check_child(post, approved)
    post_attributes = attributes(post)
    if post.kind != Span.SPAN_KIND_CLIENT or post_attributes.get("http.response.status_code") != 200:
        fail("the result POST is not a client span with its status")

    print("decoded %d spans in trace %s" % (len(spans), host_trace))


main()
