package io.loadwise.dispatcher.http;

import io.grpc.InsecureServerCredentials;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import io.grpc.ServerServiceDefinition;
import io.grpc.ServerTransportFilter;
import io.grpc.Attributes;
import io.grpc.TlsServerCredentials;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real grpc-java server (the shaded Netty transport) as a node, serving {@code test.Echo} through hand-written
 * method descriptors with a UTF-8 string marshaller: no code generation. Each answer starts with the node's name.
 */
final class GrpcNode implements AutoCloseable {

    static final MethodDescriptor.Marshaller<String> UTF8 = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(String value) {
            return new ByteArrayInputStream(value.getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public String parse(InputStream stream) {
            try {
                return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    };

    /** {@code name:request}. */
    static final MethodDescriptor<String, String> UNARY = method("Unary", MethodDescriptor.MethodType.UNARY);
    /** Request {@code n}: {@code name:0} to {@code name:n-1}; {@code hang}: three messages, then nothing. */
    static final MethodDescriptor<String, String> SERVER_STREAM =
            method("ServerStream", MethodDescriptor.MethodType.SERVER_STREAMING);
    /** Each message echoed as {@code name:message}, the call ended when the client ends its side. */
    static final MethodDescriptor<String, String> BIDI = method("Bidi", MethodDescriptor.MethodType.BIDI_STREAMING);
    /** Answers after five seconds. */
    static final MethodDescriptor<String, String> SLOW = method("Slow", MethodDescriptor.MethodType.UNARY);

    static MethodDescriptor<String, String> method(String name, MethodDescriptor.MethodType type) {
        return MethodDescriptor.<String, String>newBuilder().setType(type)
                .setFullMethodName("test.Echo/" + name).setRequestMarshaller(UTF8).setResponseMarshaller(UTF8)
                .build();
    }

    final String name;
    final AtomicInteger calls = new AtomicInteger();
    /** HTTP/2 connections the node accepted. */
    final AtomicInteger connections = new AtomicInteger();
    private final Server server;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();

    GrpcNode(String name) throws IOException {
        this(name, InsecureServerCredentials.create());
    }

    /** Over TLS with {@code certificate} and {@code key} (ALPN h2). */
    GrpcNode(String name, Path certificate, Path key) throws IOException {
        this(name, TlsServerCredentials.create(certificate.toFile(), key.toFile()));
    }

    private GrpcNode(String name, ServerCredentials credentials) throws IOException {
        this.name = name;
        ServerServiceDefinition service = ServerServiceDefinition.builder("test.Echo")
                .addMethod(UNARY, ServerCalls.asyncUnaryCall((String request, StreamObserver<String> out) -> {
                    calls.incrementAndGet();
                    out.onNext(name + ":" + request);
                    out.onCompleted();
                }))
                .addMethod(SERVER_STREAM, ServerCalls.asyncServerStreamingCall((String request,
                        StreamObserver<String> out) -> {
                    calls.incrementAndGet();
                    boolean hang = request.equals("hang");
                    int n = hang ? 3 : Integer.parseInt(request);
                    for (int i = 0; i < n; i++) {
                        out.onNext(name + ":" + i);
                    }
                    if (!hang) {
                        out.onCompleted();
                    }
                }))
                .addMethod(BIDI, ServerCalls.asyncBidiStreamingCall((StreamObserver<String> out) -> {
                    calls.incrementAndGet();
                    return new StreamObserver<String>() {
                        @Override
                        public void onNext(String value) {
                            out.onNext(name + ":" + value);
                        }

                        @Override
                        public void onError(Throwable t) {
                        }

                        @Override
                        public void onCompleted() {
                            out.onCompleted();
                        }
                    };
                }))
                .addMethod(SLOW, ServerCalls.asyncUnaryCall((String request, StreamObserver<String> out) -> {
                    calls.incrementAndGet();
                    timer.schedule(() -> {
                        try {
                            out.onNext(name + ":" + request);
                            out.onCompleted();
                        } catch (RuntimeException cancelled) {
                            // the call was cancelled meanwhile
                        }
                    }, 5, TimeUnit.SECONDS);
                }))
                .build();
        this.server = io.grpc.Grpc.newServerBuilderForPort(0, credentials).addService(service)
                .addTransportFilter(new ServerTransportFilter() {
                    @Override
                    public Attributes transportReady(Attributes attributes) {
                        connections.incrementAndGet();
                        return attributes;
                    }
                })
                .build().start();
    }

    String address() {
        return "127.0.0.1:" + server.getPort();
    }

    /** Stops at once: every connection and call ends (a node that dies). */
    void kill() {
        server.shutdownNow();
    }

    @Override
    public void close() throws InterruptedException {
        server.shutdownNow();
        server.awaitTermination(5, TimeUnit.SECONDS);
        timer.shutdownNow();
    }
}
