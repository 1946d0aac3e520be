package io.loadwise.dispatcher.testsupport;

import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.runtime.Dispatcher;
import io.loadwise.dispatcher.runtime.ModeListenerFactory;
import io.loadwise.policy.PolicyRegistry;
import java.net.InetSocketAddress;

/** A real dispatcher on one event loop, started as {@code loadwise run} starts it, closed with its transport. */
public final class DispatcherUnderTest implements AutoCloseable {

    public final Dispatcher dispatcher;
    private final Transport transport;

    private DispatcherUnderTest(Dispatcher dispatcher, Transport transport) {
        this.dispatcher = dispatcher;
        this.transport = transport;
    }

    public static DispatcherUnderTest start(LoadwiseConfig config) throws Exception {
        Transport transport = new Transport(1);
        try {
            Dispatcher dispatcher = new Dispatcher(config, null, PolicyRegistry.load(), transport,
                    new ModeListenerFactory());
            dispatcher.start("test-token", false);
            return new DispatcherUnderTest(dispatcher, transport);
        } catch (Exception e) {
            transport.close();
            throw e;
        }
    }

    public InetSocketAddress boundAddress(String cluster) {
        return dispatcher.boundAddress(cluster);
    }

    @Override
    public void close() {
        dispatcher.close();
        transport.close();
    }
}
