package io.loadwise.console.testing;

import io.loadwise.policy.ClusterSnapshot;
import io.loadwise.policy.LoadBalancingPolicy;
import io.loadwise.policy.Picker;
import io.loadwise.policy.PolicyEnvironment;
import io.loadwise.policy.PolicyOptions;
import io.loadwise.testsupport.TestFirstUsablePolicy;
import java.util.List;

/**
 * Test policy with a bug: checking its options throws an unexpected exception whose message must never
 * reach a client. Choosing it makes the API and the console fail the way a real defect would.
 */
public final class FaultyPolicy implements LoadBalancingPolicy {

    public static final String ID = "test-faulty";
    /** Text that only the log may show. */
    public static final String SECRET = "faulty policy internals at /var/lib/loadwise/secret-key.pem";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String description() {
        return "Test policy: fails with an unexpected exception when its options are checked";
    }

    @Override
    public List<String> validate(PolicyOptions options) {
        throw new UnsupportedOperationException(SECRET);
    }

    @Override
    public Picker newPicker(ClusterSnapshot snapshot, Picker previous, PolicyEnvironment env) {
        return new TestFirstUsablePolicy().newPicker(snapshot, previous, env);
    }
}
