package io.loadwise.node;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;

/**
 * A child JVM for {@link GcPressureTest}: lowers its own priority as a pressured node does, starts one more thread,
 * and prints the nice value of every one of its threads, one per line, from {@code /proc/self/task/<tid>/stat}.
 */
public final class ReniceProbe {

    private ReniceProbe() {
    }

    public static void main(String[] args) throws Exception {
        GcPressure.lowerOwnPriority();
        CountDownLatch printed = new CountDownLatch(1);
        Thread later = new Thread(() -> {
            try {
                printed.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "started-after");
        later.start();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : tasks.toList()) {
                String stat = Files.readString(task.resolve("stat"));
                // fields after the command's closing parenthesis: state is field 3, nice is field 19
                List<String> fields = List.of(stat.substring(stat.lastIndexOf(')') + 2).trim().split(" "));
                System.out.println(fields.get(19 - 3));
            }
        }
        printed.countDown();
        later.join();
    }
}
