"""An OTLP/gRPC collector for the tests, on grpcio and opentelemetry-proto's generated services.

Serves TraceService/Export and MetricsService/Export in clear-text HTTP/2 on 127.0.0.1:PORT and appends one JSON
line per call to OUT: the service, the call's metadata, the request as protobuf's JSON mapping, when it came, and
the seconds left before the deadline the client sent (grpc-timeout; null without one).

  otlp_grpc_collector.py --port PORT --out FILE [--fail N --fail-code CODE [--retry-delay-ms MS]] [--reject N]

--fail answers the first N calls with CODE (with a google.rpc.RetryInfo of MS in grpc-status-details-bin when
given); --reject answers with a partial success that rejects N spans or data points.
"""

import argparse
import json
import os
import signal
import threading
import time
from concurrent import futures

import grpc
from google.protobuf import any_pb2, duration_pb2, json_format
from opentelemetry.proto.collector.metrics.v1 import metrics_service_pb2, metrics_service_pb2_grpc
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2, trace_service_pb2_grpc


def field(number, wire_type, payload):
    """One protobuf field: its key, and for length-delimited fields the length before the bytes."""
    def varint(value):
        out = bytearray()
        while True:
            byte = value & 0x7F
            value >>= 7
            out.append(byte | (0x80 if value else 0))
            if not value:
                return bytes(out)
    key = varint(number << 3 | wire_type)
    return key + (varint(payload) if wire_type == 0 else varint(len(payload)) + payload)


def status_details(code, message, delay_ms):
    """A google.rpc.Status whose details hold a google.rpc.RetryInfo asking for delay_ms."""
    delay = duration_pb2.Duration(seconds=delay_ms // 1000, nanos=(delay_ms % 1000) * 1_000_000)
    retry_info = field(1, 2, delay.SerializeToString())
    detail = any_pb2.Any(type_url="type.googleapis.com/google.rpc.RetryInfo", value=retry_info)
    return field(1, 0, code) + field(2, 2, message.encode()) + field(3, 2, detail.SerializeToString())


class Collector:
    def __init__(self, arguments):
        self.arguments = arguments
        self.lock = threading.Lock()
        self.calls = 0

    def handle(self, service, request, context, response):
        with self.lock:
            self.calls += 1
            call = self.calls
            line = {
                "service": service,
                "call": call,
                "at": time.monotonic(),
                "metadata": {key: value for key, value in context.invocation_metadata()},
                "deadline_seconds": context.time_remaining(),
                "request": json_format.MessageToDict(request),
            }
            with open(self.arguments.out, "a") as out:
                out.write(json.dumps(line) + "\n")
        if call <= self.arguments.fail:
            code = next(c for c in grpc.StatusCode if c.value[0] == self.arguments.fail_code)
            message = "collector says no (call %d)" % call
            if self.arguments.retry_delay_ms is not None:
                details = status_details(self.arguments.fail_code, message, self.arguments.retry_delay_ms)
                context.set_trailing_metadata((("grpc-status-details-bin", details),))
            context.abort(code, message)
        if self.arguments.reject:
            response.partial_success.error_message = "rejected %d" % self.arguments.reject
            if service == "traces":
                response.partial_success.rejected_spans = self.arguments.reject
            else:
                response.partial_success.rejected_data_points = self.arguments.reject
        return response


class Traces(trace_service_pb2_grpc.TraceServiceServicer):
    def __init__(self, collector):
        self.collector = collector

    def Export(self, request, context):
        response = trace_service_pb2.ExportTraceServiceResponse()
        return self.collector.handle("traces", request, context, response)


class Metrics(metrics_service_pb2_grpc.MetricsServiceServicer):
    def __init__(self, collector):
        self.collector = collector

    def Export(self, request, context):
        response = metrics_service_pb2.ExportMetricsServiceResponse()
        return self.collector.handle("metrics", request, context, response)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--fail", type=int, default=0)
    parser.add_argument("--fail-code", type=int, default=14)
    parser.add_argument("--retry-delay-ms", type=int)
    parser.add_argument("--reject", type=int, default=0)
    arguments = parser.parse_args()
    collector = Collector(arguments)
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    trace_service_pb2_grpc.add_TraceServiceServicer_to_server(Traces(collector), server)
    metrics_service_pb2_grpc.add_MetricsServiceServicer_to_server(Metrics(collector), server)
    if server.add_insecure_port("127.0.0.1:%d" % arguments.port) == 0:
        raise SystemExit("cannot listen on port %d" % arguments.port)
    server.start()
    # grpcio's threads keep the process alive through SIGTERM's default handling: end at once, as the tests ask.
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    server.wait_for_termination()


if __name__ == "__main__":
    main()
