package io.loadwise.dispatcher.tracing;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleCounterBuilder;
import io.opentelemetry.api.metrics.DoubleGaugeBuilder;
import io.opentelemetry.api.metrics.DoubleHistogramBuilder;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.LongCounterBuilder;
import io.opentelemetry.api.metrics.LongUpDownCounterBuilder;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.metrics.MeterBuilder;
import io.opentelemetry.api.metrics.MeterProvider;
import io.opentelemetry.api.metrics.ObservableLongCounter;
import io.opentelemetry.api.metrics.ObservableLongMeasurement;
import io.opentelemetry.context.Context;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * The one figure of the SDK's own telemetry the dispatcher keeps: spans the {@code BatchSpanProcessor} dropped
 * because its queue was full (its {@code processedSpans} counter with {@code dropped=true}). Every other instrument
 * is the no-op one, so nothing else is recorded; the drop is counted on the thread that ended the span, one
 * {@link LongAdder} increment.
 */
final class DroppedSpans implements MeterProvider {

    private static final AttributeKey<Boolean> DROPPED = AttributeKey.booleanKey("dropped");
    private static final Meter NOOP = MeterProvider.noop().get("noop");

    private final LongAdder dropped;

    DroppedSpans(LongAdder dropped) {
        this.dropped = dropped;
    }

    @Override
    public MeterBuilder meterBuilder(String instrumentationScopeName) {
        return new MeterBuilder() {
            @Override
            public MeterBuilder setSchemaUrl(String schemaUrl) {
                return this;
            }

            @Override
            public MeterBuilder setInstrumentationVersion(String instrumentationScopeVersion) {
                return this;
            }

            @Override
            public Meter build() {
                return meter;
            }
        };
    }

    private final Meter meter = new Meter() {
        @Override
        public LongCounterBuilder counterBuilder(String name) {
            return "processedSpans".equals(name) ? new Counting() : NOOP.counterBuilder(name);
        }

        @Override
        public LongUpDownCounterBuilder upDownCounterBuilder(String name) {
            return NOOP.upDownCounterBuilder(name);
        }

        @Override
        public DoubleHistogramBuilder histogramBuilder(String name) {
            return NOOP.histogramBuilder(name);
        }

        @Override
        public DoubleGaugeBuilder gaugeBuilder(String name) {
            return NOOP.gaugeBuilder(name);
        }
    };

    private final class Counting implements LongCounterBuilder, LongCounter {

        @Override
        public LongCounterBuilder setDescription(String description) {
            return this;
        }

        @Override
        public LongCounterBuilder setUnit(String unit) {
            return this;
        }

        @Override
        public DoubleCounterBuilder ofDoubles() {
            return NOOP.counterBuilder("processedSpans").ofDoubles();
        }

        @Override
        public LongCounter build() {
            return this;
        }

        @Override
        public ObservableLongCounter buildWithCallback(Consumer<ObservableLongMeasurement> callback) {
            return NOOP.counterBuilder("processedSpans").buildWithCallback(callback);
        }

        @Override
        public void add(long value) {
        }

        @Override
        public void add(long value, Attributes attributes) {
            if (Boolean.TRUE.equals(attributes.get(DROPPED))) {
                dropped.add(value);
            }
        }

        @Override
        public void add(long value, Attributes attributes, Context context) {
            add(value, attributes);
        }
    }
}
