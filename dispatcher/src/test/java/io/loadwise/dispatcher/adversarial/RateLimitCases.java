package io.loadwise.dispatcher.adversarial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.route.ClientRateLimit;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A client that floods a rate limit with new keys (issue 30, "Bad input"): the key table stays within
 * {@code maxKeys}, and every flooded request is still served or limited as it should be.
 */
final class RateLimitCases {

    private static final String GROUP = "rate-limit";

    private RateLimitCases() {
    }

    static List<JavaCase> all() {
        return List.of(new JavaCase(GROUP, "a-flood-of-keys-cannot-grow-the-table-past-max-keys", "issue 30",
                RateLimitCases::keyFlood));
    }

    private static void keyFlood(CaseContext ctx) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        ProxyUnderTest proxy = ctx.proxy(new ClusterOverrides()
                .routes("[{\"cluster\":\"adversarial\",\"rateLimit\":\"keyed\"}]")
                .rateLimits("{\"keyed\":{\"key\":\"header:x-key\",\"requestsPerSecond\":1,\"burst\":1,"
                        + "\"maxKeys\":16}}"), node);
        RawClient client = ctx.client(proxy);
        int requests = 2_000;
        int ok = 0;
        for (int i = 0; i < requests; i++) { // one at a time: a request, its answer
            client.write(("GET /k" + i + " HTTP/1.1\r\nHost: x\r\nX-Key: flood-" + i + "-" + "k".repeat(300)
                    + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            if (client.read(false).status() == 200) {
                ok++;
            }
        }
        ClientRateLimit limit = proxy.limits().get("keyed");
        assertEquals(requests, ok, "every key is new, so every request has a full bucket");
        assertTrue(limit.keys() <= 16, limit.keys() + " keys held");
        assertTrue(limit.tableBytes() <= 16L * (160 + 256), limit.tableBytes() + " bytes held");
        assertEquals(requests, node.requests().size());
    }
}
