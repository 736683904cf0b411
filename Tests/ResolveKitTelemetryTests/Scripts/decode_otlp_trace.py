"""Decodes OTLP/HTTP trace exports with the opentelemetry-proto package and checks one turn's spans.

Usage: decode_otlp_trace.py --trace HOST_TRACE_ID --parent HOST_SPAN_ID --service NAME --conversation ID
           --input-tokens N --output-tokens N --approved NAME[:CALL_ID]:DECIDER --declined NAME[:CALL_ID]:DECIDER
           [--runtime] BODY [BODY ...]

A body is protobuf (http/protobuf), or JSON (http/json) when it begins with "{". OTLP's JSON encoding is the
protobuf JSON mapping except that trace and span ids are hex, not base64: they are mapped back before
json_format.Parse, which then checks every field name, type and enum. The turn, its calls and
everything under them must be one trace under the host's span; with --runtime (spans the runtime made, not a test's
hand-made ones) every call's result is delivered by a POST under its call, the turn's message by a POST under the
turn, and spans of other traces (the session's setup requests) hold no turn or call. Exits 1 with a message when a
body does not decode or the turn is not as expected; prints a summary otherwise.
"""

import argparse
import base64
import json
import sys

from google.protobuf import json_format
from google.protobuf.message import DecodeError
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


def decode(paths, service):
    spans = []
    for path in paths:
        with open(path, "rb") as file:
            body = file.read()
        request = ExportTraceServiceRequest()
        try:
            if body.startswith(b"{"):
                document = json.loads(body)
                map_ids(document)
                json_format.Parse(json.dumps(document), request)
            else:
                request.ParseFromString(body)
        except (json_format.ParseError, DecodeError) as error:
            fail("%s is not an ExportTraceServiceRequest: %s" % (path, error))
        for resource_spans in request.resource_spans:
            names = {a.key: a.value.string_value for a in resource_spans.resource.attributes}
            if names.get("service.name") != service:
                fail("service.name is %r" % names.get("service.name"))
            spans += [span for scope in resource_spans.scope_spans for span in scope.spans]
    return spans


def call_argument(text):
    parts = text.split(":")
    if len(parts) == 2:
        return parts[0], None, parts[1]
    if len(parts) == 3:
        return parts[0], parts[1], parts[2]
    raise argparse.ArgumentTypeError("expected NAME[:CALL_ID]:DECIDER")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--trace", required=True)
    parser.add_argument("--parent", required=True)
    parser.add_argument("--service", required=True)
    parser.add_argument("--conversation", required=True)
    parser.add_argument("--input-tokens", type=int, required=True)
    parser.add_argument("--output-tokens", type=int, required=True)
    parser.add_argument("--approved", type=call_argument, required=True)
    parser.add_argument("--declined", type=call_argument, required=True)
    parser.add_argument("--runtime", action="store_true")
    parser.add_argument("bodies", nargs="+")
    options = parser.parse_args()

    every = decode(options.bodies, options.service)
    by_id = {}
    for span in every:
        if len(span.span_id) != 8 or span.span_id == bytes(8) or len(span.trace_id) != 16:
            fail("span %s has an invalid id" % span.name)
        if span.start_time_unix_nano == 0 or span.start_time_unix_nano > span.end_time_unix_nano:
            fail("span %s ends before it starts" % span.name)
        if span.span_id in by_id:
            fail("span id %s repeats" % span.span_id.hex())
        by_id[span.span_id] = span
    spans = [span for span in every if span.trace_id.hex() == options.trace]
    others = [span for span in every if span.trace_id.hex() != options.trace]
    if not options.runtime and others:
        fail("expected one trace %s, found %s" % (options.trace, sorted({s.trace_id.hex() for s in every})))
    for span in others:
        if span.name.startswith("invoke_agent") or span.name.startswith("execute_tool"):
            fail("%s is outside the host's trace" % span.name)

    def only(name, parent=None):
        found = [s for s in spans if s.name == name and (parent is None or s.parent_span_id == parent.span_id)]
        if len(found) != 1:
            fail("expected one span %r, found %d among %s" % (name, len(found), sorted(s.name for s in spans)))
        return found[0]

    def check_child(child, parent, within=True):
        if child.parent_span_id != parent.span_id:
            fail("%s is not a child of %s" % (child.name, parent.name))
        if child.start_time_unix_nano < parent.start_time_unix_nano:
            fail("%s starts before its parent %s" % (child.name, parent.name))
        if within and child.end_time_unix_nano > parent.end_time_unix_nano:
            fail("%s is not within %s" % (child.name, parent.name))

    turn = only("invoke_agent")
    if turn.parent_span_id.hex() != options.parent:
        fail("the turn's parent is %s, not the host's span %s" % (turn.parent_span_id.hex(), options.parent))
    if turn.kind != Span.SPAN_KIND_CLIENT or not (turn.flags & 0x300 == 0x300):
        fail("the turn is not a client span under a remote parent (kind %d, flags %x)" % (turn.kind, turn.flags))
    turn_attributes = attributes(turn)
    expected_turn = {"gen_ai.operation.name": "invoke_agent", "gen_ai.provider.name": "resolvekit",
                     "gen_ai.conversation.id": options.conversation,
                     "gen_ai.usage.input_tokens": options.input_tokens,
                     "gen_ai.usage.output_tokens": options.output_tokens}
    for key, value in expected_turn.items():
        if turn_attributes.get(key) != value:
            fail("the turn's %s is %r, not %r" % (key, turn_attributes.get(key), value))
    if "error.type" in turn_attributes:
        fail("the answered turn is marked failed")

    def check_call(name, call_id, decider, approved):
        call = only("execute_tool " + name)
        check_child(call, turn)
        values = attributes(call)
        expected = {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name, "gen_ai.tool.type": "function"}
        if call_id is not None:
            expected["gen_ai.tool.call.id"] = call_id
        for key, value in expected.items():
            if values.get(key) != value:
                fail("%s's %s is %r, not %r" % (call.name, key, values.get(key), value))
        if not values.get("gen_ai.tool.call.id"):
            fail("%s has no gen_ai.tool.call.id" % call.name)
        approval = only("approval " + name, call)
        check_child(approval, call)
        approval_values = attributes(approval)
        if approval_values.get("resolvekit.approval.decided_by") != decider:
            fail("%s's approval was decided by %r, not %r"
                 % (name, approval_values.get("resolvekit.approval.decided_by"), decider))
        if approval_values.get("resolvekit.approval.approved") is not approved:
            fail("%s's approval does not say approved=%s" % (name, approved))
        runs = [s for s in spans if s.name == "run " + name]
        if approved:
            if len(runs) != 1:
                fail("the approved %s ran %d times" % (name, len(runs)))
            check_child(runs[0], call)
            if approval.end_time_unix_nano > runs[0].start_time_unix_nano:
                fail("%s ran before its approval ended" % name)
            if "error.type" in values or call.status.code == Status.STATUS_CODE_ERROR:
                fail("the approved call is marked failed")
        else:
            if runs:
                fail("the declined %s ran" % name)
            if values.get("error.type") != "declined" or call.status.code != Status.STATUS_CODE_ERROR:
                fail("the declined call has no error.type declined and error status")
        posts = [s for s in spans if s.name == "POST" and s.parent_span_id == call.span_id]
        if options.runtime or approved:
            if len(posts) != 1:
                fail("%s's result was posted %d times under its call" % (name, len(posts)))
            post = posts[0]
            check_child(post, call, within=not options.runtime)
            post_values = attributes(post)
            if post.kind != Span.SPAN_KIND_CLIENT or post_values.get("http.response.status_code") != 200:
                fail("%s's result POST is not a client span with status 200" % name)
            if options.runtime and not post_values.get("url.full", "").endswith("/tool-results"):
                fail("%s's result POST went to %r" % (name, post_values.get("url.full")))
            if options.runtime and post.start_time_unix_nano < call.end_time_unix_nano:
                fail("%s's result was posted before the call ended" % name)

    check_call(options.approved[0], options.approved[1], options.approved[2], True)
    check_call(options.declined[0], options.declined[1], options.declined[2], False)
    if options.runtime:
        message = [s for s in spans if s.name == "POST" and s.parent_span_id == turn.span_id]
        if len(message) != 1 or not attributes(message[0]).get("url.full", "").endswith("/messages"):
            fail("the turn's message was not posted once under the turn")
        # The backend may start the turn before its 202 reaches the client: the POST may end after the turn.
        check_child(message[0], turn, within=False)
        if attributes(message[0]).get("http.response.status_code") != 202:
            fail("the message POST was not answered 202")

    print("decoded %d spans in trace %s (%d in other traces)" % (len(spans), options.trace, len(others)))


main()
