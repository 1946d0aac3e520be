package io.loadwise.dispatcher.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.metrics.CounterReading;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The admin side gets values from the dispatcher, never its runtime objects: every type reachable from
 * {@link ClusterControl}'s methods (through generics and record components) that belongs to the dispatcher
 * is a record or an enum, and none comes from the packages that hold live state.
 */
class ClusterControlValuesTest {

    private static final List<String> LIVE_PACKAGES = List.of("io.loadwise.dispatcher.cluster",
            "io.loadwise.dispatcher.monitor", "io.loadwise.dispatcher.http", "io.loadwise.dispatcher.net",
            "io.loadwise.dispatcher.tcp", "io.loadwise.dispatcher.runtime");

    @Test
    void clusterControlHandsOutValuesOnly() {
        Set<Class<?>> reached = new HashSet<>();
        for (Method method : ClusterControl.class.getMethods()) {
            visit(method.getGenericReturnType(), reached);
            for (Type parameter : method.getGenericParameterTypes()) {
                visit(parameter, reached);
            }
        }
        Set<String> offending = new TreeSet<>();
        for (Class<?> type : reached) {
            String name = type.getName();
            boolean dispatcher = name.startsWith("io.loadwise.dispatcher.");
            boolean live = LIVE_PACKAGES.stream().anyMatch(p -> name.startsWith(p + "."));
            if (live || dispatcher && !type.isRecord() && !type.isEnum()) {
                offending.add(name);
            }
        }
        assertEquals(Set.of(), offending, "ClusterControl exposes runtime objects");
        assertTrue(reached.contains(NodeStatus.class) && reached.contains(AgentPolling.class),
                "the walk reaches the views: " + reached);
    }

    @Test
    void aViewKeepsItsOwnCopyOfTheNodes() {
        List<NodeStatus> nodes = new ArrayList<>();
        ClusterStatus status = new ClusterStatus("web", null, null, null, null, CounterReading.ZERO, nodes);
        NodeStatus late = new NodeStatus("late", InetSocketAddress.createUnresolved("app", 80), null, 1, true, false,
                true, false, 0, 0, Double.NaN, CounterReading.ZERO,
                new AgentStatus(false, "unknown", "no sample yet", null, -1, null));
        nodes.add(late);
        assertEquals(List.of(), status.nodes(), "the list it was built from changed afterwards");
        assertThrows(UnsupportedOperationException.class, () -> status.nodes().add(late));
    }

    private static void visit(Type type, Set<Class<?>> reached) {
        if (type instanceof Class<?> c) {
            if (c.isArray()) {
                visit(c.getComponentType(), reached);
            } else if (!c.isPrimitive() && reached.add(c) && c.isRecord()) {
                for (RecordComponent component : c.getRecordComponents()) {
                    visit(component.getGenericType(), reached);
                }
            }
        } else if (type instanceof ParameterizedType p) {
            visit(p.getRawType(), reached);
            for (Type argument : p.getActualTypeArguments()) {
                visit(argument, reached);
            }
        } else if (type instanceof WildcardType w) {
            for (Type bound : w.getUpperBounds()) {
                visit(bound, reached);
            }
        } else if (type instanceof GenericArrayType a) {
            visit(a.getGenericComponentType(), reached);
        }
    }
}
