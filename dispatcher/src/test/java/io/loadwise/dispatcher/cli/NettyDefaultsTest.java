package io.loadwise.dispatcher.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class NettyDefaultsTest {

    private String allocator;
    private String leakDetection;

    @BeforeEach
    void remember() {
        allocator = System.getProperty(NettyDefaults.ALLOCATOR);
        leakDetection = System.getProperty(NettyDefaults.LEAK_DETECTION);
    }

    @AfterEach
    void restore() {
        restore(NettyDefaults.ALLOCATOR, allocator);
        restore(NettyDefaults.LEAK_DETECTION, leakDetection);
    }

    @Test
    void unsetPropertiesGetTheProxysDefaults() {
        System.clearProperty(NettyDefaults.ALLOCATOR);
        System.clearProperty(NettyDefaults.LEAK_DETECTION);
        NettyDefaults.apply();
        assertEquals("pooled", System.getProperty(NettyDefaults.ALLOCATOR));
        assertEquals("disabled", System.getProperty(NettyDefaults.LEAK_DETECTION));
    }

    @Test
    void anOperatorsChoiceIsKept() {
        System.setProperty(NettyDefaults.ALLOCATOR, "adaptive");
        System.setProperty(NettyDefaults.LEAK_DETECTION, "simple");
        NettyDefaults.apply();
        assertEquals("adaptive", System.getProperty(NettyDefaults.ALLOCATOR));
        assertEquals("simple", System.getProperty(NettyDefaults.LEAK_DETECTION));
    }

    private static void restore(String name, String value) {
        if (value == null) {
            System.clearProperty(name);
        } else {
            System.setProperty(name, value);
        }
    }
}
