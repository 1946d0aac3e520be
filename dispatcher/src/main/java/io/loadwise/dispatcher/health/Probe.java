package io.loadwise.dispatcher.health;

import io.loadwise.dispatcher.config.StatusRanges;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.CompletionHandler;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One health check of one node, asynchronous so that no thread waits on a slow node: an HTTP
 * {@code GET} through the JDK client (whose threads are not the proxy's event loops), or, without a path,
 * a TCP connect. Either ends within {@code timeout}; the verdict never fails exceptionally.
 */
final class Probe {

    /** The body is never read: the status line decides, and cancelling closes the connection at once. */
    private static final HttpResponse.BodyHandler<Void> STATUS_ONLY = info -> new HttpResponse.BodySubscriber<>() {
        @Override
        public CompletableFuture<Void> getBody() {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            subscription.cancel();
        }

        @Override
        public void onNext(List<ByteBuffer> item) {
        }

        @Override
        public void onError(Throwable throwable) {
        }

        @Override
        public void onComplete() {
        }
    };

    /**
     * The verdict of one check.
     *
     * @param status the HTTP status, 0 when there was none
     * @param problem why it failed, {@code null} when it passed
     */
    record Verdict(int status, String problem) {
        boolean ok() {
            return problem == null;
        }
    }

    private Probe() {
    }

    static CompletableFuture<Verdict> http(HttpClient client, InetSocketAddress address, String path,
            StatusRanges expect, Duration timeout) {
        String host = address.getHostString();
        URI uri = URI.create("http://" + (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + address.getPort()
                + path);
        HttpRequest request = HttpRequest.newBuilder(uri).GET().timeout(timeout)
                .header("User-Agent", "loadwise-health-check").build();
        return client.sendAsync(request, STATUS_ONLY)
                .orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                .handle((response, error) -> {
                    if (error != null) {
                        return new Verdict(0, describe(error, timeout));
                    }
                    int status = response.statusCode();
                    return expect.contains(status) ? new Verdict(status, null)
                            : new Verdict(status, "status " + status + " not in " + expect);
                });
    }

    static CompletableFuture<Verdict> connect(InetSocketAddress address, Duration timeout) {
        CompletableFuture<Verdict> verdict = new CompletableFuture<>();
        AsynchronousSocketChannel channel;
        try {
            channel = AsynchronousSocketChannel.open();
        } catch (IOException e) {
            return CompletableFuture.completedFuture(new Verdict(0, describe(e, timeout)));
        }
        InetSocketAddress target = address.isUnresolved()
                ? new InetSocketAddress(address.getHostString(), address.getPort()) : address;
        channel.connect(target, null, new CompletionHandler<Void, Void>() {
            @Override
            public void completed(Void result, Void attachment) {
                verdict.complete(new Verdict(0, null));
            }

            @Override
            public void failed(Throwable error, Void attachment) {
                verdict.complete(new Verdict(0, describe(error, timeout)));
            }
        });
        return verdict.completeOnTimeout(new Verdict(0, "no connection within " + timeout.toMillis() + " ms"),
                timeout.toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((v, e) -> close(channel));
    }

    private static void close(AsynchronousSocketChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // nothing to do: the check is over
        }
    }

    /** A short reason for operators; never a stack trace. */
    static String describe(Throwable error, Duration timeout) {
        Throwable e = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (e instanceof TimeoutException || e instanceof HttpTimeoutException) {
            return "no answer within " + timeout.toMillis() + " ms";
        }
        if (e instanceof ConnectException) {
            return "connection refused";
        }
        String message = e.getMessage();
        String kind = e.getClass().getSimpleName();
        return message == null || message.isBlank() ? kind : kind + ": " + message;
    }
}
