package io.loadwise.dispatcher.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.ConfigValidator;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.testsupport.TestPki;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every JSON example in docs/routing.md is a whole configuration that validates without a warning. */
class RoutingDocTest {

    @TempDir
    Path certs;

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
        // the HTTPS example names certs/shop.pem and certs/shop.key: real files, as validate reads them
        TestPki.Issued shop = new TestPki(certs).issue("shop", "shop.example", "shop.example");
        for (String example : examples) {
            String json = example.replace("certs/shop.pem", shop.certificate().toString().replace("\\", "/"))
                    .replace("certs/shop.key", shop.key().toString().replace("\\", "/"));
            LoadwiseConfig config = ConfigLoader.parse(json);
            assertEquals(List.of(), validator.validate(config), json);
            assertEquals(List.of(), RouteWarnings.of(config), json);
            assertFalse(config.listenersOrEmpty().isEmpty());
        }
    }
}
