package io.loadwise.dispatcher.config;

import static io.loadwise.dispatcher.config.ConfigValidatorTest.j;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {

    private static List<String> errorsOf(String json) {
        return assertThrows(ConfigValidationException.class, () -> ConfigLoader.parse(json)).errors();
    }

    @Test
    void unknownFieldIsNamedByItsPath() {
        String json = j("{'clusters':[{'name':'a','nodes':[{'name':'n1'},{'name':'n2','wieght':3}]}]}");
        assertEquals(List.of("clusters[0].nodes[1].wieght: unknown field"), errorsOf(json));
    }

    @Test
    void syntaxErrorGivesLineAndColumn() {
        List<String> errors = errorsOf("{\n  \"clusters\": [\n    {\"name\": \"a\",,}\n  ]\n}");
        assertEquals(1, errors.size());
        assertEquals(true, errors.get(0).startsWith("line 3, column 18: invalid JSON: "), errors.get(0));
    }

    @Test
    void wrongTypeIsNamed() {
        assertEquals(List.of("clusters[0].nodes[0].weight: 'heavy' is not a valid integer"),
                errorsOf(j("{'clusters':[{'nodes':[{'weight':'heavy'}]}]}")));
        assertEquals(List.of("clusters[0].connectTimeoutMs: '1.5' is not a valid integer"),
                errorsOf(j("{'clusters':[{'connectTimeoutMs':1.5}]}")));
    }

    @Test
    void unknownEnumValueIsExplained() {
        assertEquals(List.of("clusters[0].mode: unknown mode 'udp', expected tcp or http"),
                errorsOf(j("{'clusters':[{'mode':'udp'}]}")));
    }

    @Test
    void theTopLevelMustBeAnObject() {
        assertEquals(List.of("(top level): expected a JSON object"), errorsOf("[1, 2]"));
        assertEquals(List.of("clusters: expected array"), errorsOf(j("{'clusters':{'name':'a'}}")));
    }

    @Test
    void emptyInputIsAnError() {
        assertEquals(List.of("the configuration is empty"), errorsOf("  \n"));
    }

    @Test
    void missingFileIsNamed(@TempDir Path dir) {
        Path missing = dir.resolve("nope.json");
        ConfigValidationException e = assertThrows(ConfigValidationException.class, () -> ConfigLoader.load(missing));
        assertEquals(List.of(missing + ": no such file"), e.errors());
    }

    @Test
    void writtenJsonReadsBackEqual(@TempDir Path dir) throws Exception {
        String json = j("{'admin':{'listen':'127.0.0.1:8111','token':'test-token-0123456789'},'logging':{'level':'debug'},"
                + "'clusters':[{'name':'a','mode':'http','listen':'0.0.0.0:80','policy':'test-agent',"
                + "'policyOptions':{'threshold':80.0},'balance':'per-connection','affinity':'cookie',"
                + "'nodes':[{'name':'n1','address':'app1:8080','weight':2,'enabled':false,'route':'jvm1'}]}]}");
        LoadwiseConfig config = ConfigLoader.parse(json);
        Path file = dir.resolve("c.json");
        Files.writeString(file, ConfigLoader.toJson(config));
        assertEquals(config, ConfigLoader.load(file));
        assertEquals(Mode.HTTP, config.clusters().get(0).mode());
        assertEquals(Balance.PER_CONNECTION, config.clusters().get(0).balance());
    }
}
