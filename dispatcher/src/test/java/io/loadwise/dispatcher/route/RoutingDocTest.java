package io.loadwise.dispatcher.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.ConfigValidator;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.policy.PolicyRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Every JSON example in docs/routing.md is a whole configuration that validates without a warning. */
class RoutingDocTest {

    static List<String> examples() throws Exception {
        String doc = Files.readString(Path.of("..", "docs", "routing.md"));
        Matcher m = Pattern.compile("```json\\n(.*?)```", Pattern.DOTALL).matcher(doc);
        List<String> blocks = new ArrayList<>();
        while (m.find()) {
            blocks.add(m.group(1));
        }
        return blocks;
    }

    @Test
    void everyExampleValidatesWithoutWarnings() throws Exception {
        List<String> examples = examples();
        assertEquals(3, examples.size(), "HTTP to HTTPS, two applications, a canary");
        ConfigValidator validator = new ConfigValidator(PolicyRegistry.load());
        for (String json : examples) {
            LoadwiseConfig config = ConfigLoader.parse(json);
            assertEquals(List.of(), validator.validate(config), json);
            assertEquals(List.of(), RouteWarnings.of(config), json);
            assertFalse(config.listenersOrEmpty().isEmpty());
        }
    }
}
