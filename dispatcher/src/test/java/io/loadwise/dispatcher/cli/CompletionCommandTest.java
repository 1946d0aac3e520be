package io.loadwise.dispatcher.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code loadwise completion}: the script it prints completes commands and options when bash runs it. */
class CompletionCommandTest {

    @TempDir
    Path dir;
    private Path script;

    @BeforeEach
    void writeTheScript() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new Main(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                Map.of()).execute(new String[] {"completion"});
        assertEquals(Main.OK, code, err.toString(StandardCharsets.UTF_8));
        script = dir.resolve("loadwise-completion.bash");
        Files.writeString(script, out.toString(StandardCharsets.UTF_8));
    }

    /** What bash offers after {@code words}, the last one being the word under the cursor. */
    private String complete(String... words) throws Exception {
        StringBuilder array = new StringBuilder();
        for (String word : words) {
            array.append(" '").append(word).append('\'');
        }
        String test = "source '" + script + "'\n"
                + "COMP_WORDS=(" + array + " ); COMP_CWORD=" + (words.length - 1) + "\n"
                + "COMP_LINE=\"${COMP_WORDS[*]}\"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()\n"
                + "_complete_loadwise 2>/dev/null\n" // compopt complains outside a real completion
                + "echo \"${COMPREPLY[*]}\"\n";
        Process bash = new ProcessBuilder("bash", "-c", test).redirectErrorStream(true).start();
        assumeTrue(bash.waitFor(30, TimeUnit.SECONDS), "bash did not answer");
        return new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    }

    private static boolean bashExists() {
        try {
            return new ProcessBuilder("bash", "-c", "true").start().waitFor(30, TimeUnit.SECONDS);
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    @Test
    void completesCommandsOptionsAndLogLevels() throws Exception {
        assumeTrue(bashExists(), "needs bash");
        assertEquals("run validate config demo bench simulate capacity passwd greet completion", complete("loadwise", ""));
        assertEquals("validate", complete("loadwise", "val"));
        assertEquals("--worker-threads", complete("loadwise", "run", "--wor"));
        assertEquals("trace debug info warn error off", complete("loadwise", "run", "--log-level", ""));
        assertEquals("auto io_uring epoll nio", complete("loadwise", "run", "--transport", ""));
    }
}
