package io.loadwise.dispatcher.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Fuzz target of the JSON access log line. Its contract: whatever target, method and headers a client sends, the
 * record is one line of printable ASCII that parses as one JSON object holding exactly those values.
 */
class JsonLineFuzzTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @FuzzTest(maxDuration = "15s")
    @DictionaryEntries({"\"", "\\", "\n", "\r", "\u0000", "\u2028", "\ud800", "\udc00", "}", "{", ",", "\\u0022"})
    void anyTextReadsBack(FuzzedDataProvider data) throws Exception {
        AccessRecord r = new AccessRecord();
        r.startMillis = data.consumeLong(0, 253_402_300_799_999L); // up to year 9999
        r.client = data.consumeString(64);
        r.method = data.consumeString(16);
        r.userAgent = data.consumeString(256);
        r.referer = data.consumeString(256);
        r.requestId = data.consumeString(128);
        r.target = data.consumeRemainingAsString();
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
        assertEquals(200, back.get("status").asInt());
    }
}
