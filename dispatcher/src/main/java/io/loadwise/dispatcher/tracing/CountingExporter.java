package io.loadwise.dispatcher.tracing;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.Collection;
import java.util.concurrent.atomic.LongAdder;

/** Counts the spans of each batch as exported or failed; runs on the batch processor's thread. */
final class CountingExporter implements SpanExporter {

    private final SpanExporter delegate;
    private final LongAdder exported;
    private final LongAdder failed;

    CountingExporter(SpanExporter delegate, LongAdder exported, LongAdder failed) {
        this.delegate = delegate;
        this.exported = exported;
        this.failed = failed;
    }

    @Override
    public CompletableResultCode export(Collection<SpanData> spans) {
        int n = spans.size();
        CompletableResultCode result;
        try {
            result = delegate.export(spans);
        } catch (RuntimeException e) {
            failed.add(n);
            return CompletableResultCode.ofFailure();
        }
        result.whenComplete(() -> (result.isSuccess() ? exported : failed).add(n));
        return result;
    }

    @Override
    public CompletableResultCode flush() {
        return delegate.flush();
    }

    @Override
    public CompletableResultCode shutdown() {
        return delegate.shutdown();
    }
}
