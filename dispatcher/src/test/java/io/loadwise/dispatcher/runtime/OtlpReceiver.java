package io.loadwise.dispatcher.runtime;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;

/**
 * A real OTLP/HTTP receiver for tests: an HTTP server that takes {@code POST /v1/traces} with a protobuf
 * {@code ExportTraceServiceRequest}, decodes it and keeps every span, with the resource's service name.
 */
final class OtlpReceiver implements AutoCloseable {

    final List<Span> spans = new CopyOnWriteArrayList<>();
    final List<String> services = new CopyOnWriteArrayList<>();
    final List<String> contentTypes = new CopyOnWriteArrayList<>();
    /** Protobuf bytes received, every request body together: what the exporter encoded. */
    final LongAdder bytes = new LongAdder();
    private final HttpServer server;

    OtlpReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/traces", exchange -> {
            try (InputStream in = exchange.getRequestBody()) {
                contentTypes.add(exchange.getRequestHeaders().getFirst("Content-Type"));
                byte[] body = in.readAllBytes();
                bytes.add(body.length);
                ExportTraceServiceRequest request = ExportTraceServiceRequest.parseFrom(body);
                for (ResourceSpans rs : request.getResourceSpansList()) {
                    rs.getResource().getAttributesList().stream().filter(a -> a.getKey().equals("service.name"))
                            .forEach(a -> services.add(a.getValue().getStringValue()));
                    for (ScopeSpans ss : rs.getScopeSpansList()) {
                        spans.addAll(ss.getSpansList());
                    }
                }
                byte[] answer = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
                exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
                exchange.sendResponseHeaders(200, answer.length == 0 ? -1 : answer.length);
                if (answer.length > 0) {
                    exchange.getResponseBody().write(answer);
                }
            } finally {
                exchange.close();
            }
        });
        server.start();
    }

    String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    List<Span> ofKind(Span.SpanKind kind) {
        List<Span> out = new ArrayList<>();
        for (Span s : spans) {
            if (s.getKind() == kind) {
                out.add(s);
            }
        }
        return out;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
