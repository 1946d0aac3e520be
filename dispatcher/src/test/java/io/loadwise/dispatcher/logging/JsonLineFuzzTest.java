package io.loadwise.dispatcher.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Fuzz target of the JSON access log line. Its contract: whatever target, method and headers a client sends (any UTF-16, lone surrogates too), the
 * record is one line of printable ASCII that parses as one JSON object holding exactly those values.
 */
class JsonLineFuzzTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @FuzzTest(maxDuration = "15s")
    @DictionaryEntries({"\"", "\\", "}", "{", ",", "\\u0022", "\\n", "null", "%0d%0a"}) // printable: one entry a line
    void anyTextReadsBack(String raw) throws Exception {
        if (raw == null) {
            return; // the fuzzer's null; a field that is null is written as null, tested elsewhere
        }
        int cut = raw.length() / 3;
        AccessRecord r = new AccessRecord();
        r.startMillis = 1_795_000_000_123L;
        r.client = raw.substring(0, cut);
        r.method = raw.substring(cut, 2 * cut);
        r.target = raw;
        r.userAgent = raw.substring(2 * cut);
        r.referer = new StringBuilder(raw).reverse().toString(); // surrogate pairs come out swapped: lone halves
        r.requestId = raw.substring(cut);
        r.forwardedFor = raw.substring(0, 2 * cut);
        r.sni = raw; // the client's TLS handshake names it
        r.alpn = raw.substring(2 * cut);
        r.route = raw.substring(cut / 2); // configured, but a route's name is free text
        r.listener = raw.substring(0, cut / 2);
        r.status = 200;
        StringBuilder line = new StringBuilder();
        new JsonLine().append(r, line);

        String text = line.toString();
        assertTrue(text.chars().allMatch(c -> c >= 0x20 && c < 0x7f), "not one line of printable ASCII: " + text);
        JsonNode back = JSON.readTree(text);
        assertTrue(back.isObject(), text);
        assertEquals(r.client, back.get("client").asText());
        assertEquals(r.method, back.get("method").asText());
        assertEquals(r.target, back.get("target").asText());
        assertEquals(r.userAgent, back.get("user_agent").asText());
        assertEquals(r.referer, back.get("referer").asText());
        assertEquals(r.requestId, back.get("request_id").asText());
        assertEquals(r.forwardedFor, back.get("forwarded_for").asText());
        assertEquals(r.sni, back.get("sni").asText());
        assertEquals(r.alpn, back.get("alpn").asText());
        assertEquals(r.route, back.get("route").asText());
        assertEquals(r.listener, back.get("listener").asText());
        assertEquals(200, back.get("status").asInt());
    }
}
