package io.loadwise.node.provision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NodeSpecTest {

    @TempDir
    Path temp;

    @Test
    void acceptsAScenarioNode() throws Exception {
        Path war = Files.writeString(temp.resolve("trade.war"), "x");
        NodeSpec spec = spec("VCN1", 0, 512, war);
        assertEquals(List.of(), spec.extraLibs());
    }

    @Test
    void rejectsEachBadFieldWithItsName() throws Exception {
        Path war = Files.writeString(temp.resolve("trade.war"), "x");
        assertEquals("heapMb must be at least 64, got 32",
                assertThrows(IllegalArgumentException.class, () -> spec("VCN1", 0, 32, war)).getMessage());
        assertEquals("port must be between 0 and 65535, got 70000",
                assertThrows(IllegalArgumentException.class, () -> spec("VCN1", 70_000, 512, war)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> spec("../evil", 0, 512, war));
        Path missing = temp.resolve("missing.war");
        assertEquals("warPath " + missing + " is not a readable file",
                assertThrows(IllegalArgumentException.class, () -> spec("VCN1", 0, 512, missing)).getMessage());
    }

    private static NodeSpec spec(String name, int port, int heapMb, Path war) {
        return new NodeSpec(name, port, heapMb, 12, 12, 10, war, "/trade", List.of(),
                "jdbc:h2:tcp://127.0.0.1:9092/mem:trade", "sa", "");
    }
}
