package io.loadwise.console.replicas;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/** A response body read into memory up to a limit; a longer one fails and the rest is not read. */
final class LimitedBody implements HttpResponse.BodySubscriber<byte[]> {

    /** The body passed the limit. */
    static final class TooLargeException extends IOException {
        private static final long serialVersionUID = 1L;

        TooLargeException(int limit) {
            super("body larger than " + limit + " bytes");
        }
    }

    private final int limit;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final CompletableFuture<byte[]> result = new CompletableFuture<>();
    private Flow.Subscription subscription;

    private LimitedBody(int limit) {
        this.limit = limit;
    }

    static LimitedBody of(int limit) {
        return new LimitedBody(limit);
    }

    @Override
    public CompletionStage<byte[]> getBody() {
        return result;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        s.request(1);
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
        for (ByteBuffer buffer : buffers) {
            if (bytes.size() + buffer.remaining() > limit) {
                subscription.cancel();
                result.completeExceptionally(new TooLargeException(limit));
                return;
            }
            byte[] chunk = new byte[buffer.remaining()];
            buffer.get(chunk);
            bytes.write(chunk, 0, chunk.length);
        }
        subscription.request(1);
    }

    @Override
    public void onError(Throwable e) {
        result.completeExceptionally(e);
    }

    @Override
    public void onComplete() {
        result.complete(bytes.toByteArray());
    }
}
