package io.loadwise.console.web;

import io.loadwise.dispatcher.control.ClusterControl;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/** {@code /logs}: list, tail and download the files of the log directory (figure 35). */
final class LogsPage {

    static final int DEFAULT_LINES = 200;
    static final int MAX_LINES = 10_000;
    private final ClusterControl control;

    LogsPage(ClusterControl control) {
        this.control = control;
    }

    /** Read per request: the log file can change with the configuration. */
    private LogDirectory directory() {
        var logging = control.config().logging();
        return LogDirectory.ofLogFile(logging == null ? null : logging.file());
    }

    void list(HttpServletRequest request, HttpServletResponse response) throws IOException {
        LogDirectory logs = directory();
        StringBuilder b = new StringBuilder("<h1>Logs</h1>");
        if (logs.dir() == null) {
            b.append("<p class=\"notice\">The dispatcher logs to its console only. Set <code>logging.file</code> in the ")
                    .append("configuration file (e.g. <code>logs/loadwise.log</code>) to keep logs on disk and see them here.</p>");
            Layout.ok(request, response, "Logs", "/logs", b.toString());
            return;
        }
        List<LogDirectory.LogFile> files = logs.list();
        b.append("<p>Files in <code>").append(Html.text(logs.dir())).append("</code>, newest first.</p>");
        if (files.isEmpty()) {
            b.append("<p class=\"hint\">No files yet.</p>");
        } else {
            b.append("<table id=\"log-files\"><thead><tr><th>File</th><th>Size</th><th>Modified (UTC)</th><th></th></tr></thead><tbody>");
            for (LogDirectory.LogFile f : files) {
                String q = "?file=" + Html.url(f.name());
                b.append("<tr><td>").append(Html.text(f.name())).append("</td><td>").append(size(f.size()))
                        .append("</td><td>").append(Instant.ofEpochMilli(f.lastModifiedMillis()).toString().replace('T', ' '))
                        .append("</td><td><a href=\"/logs/view").append(q).append("\">view last lines</a> · <a href=\"/logs/download")
                        .append(q).append("\">download</a></td></tr>");
            }
            b.append("</tbody></table>");
        }
        Layout.ok(request, response, "Logs", "/logs", b.toString());
    }

    void view(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String name = request.getParameter("file");
        Path file = resolveOr404(request, response, name);
        if (file == null) {
            return;
        }
        int lines = lines(request.getParameter("lines"));
        List<String> tail = LogDirectory.tail(file, lines);
        StringBuilder b = new StringBuilder("<h1>").append(Html.text(name)).append("</h1>")
                .append("<form method=\"get\" action=\"/logs/view\" class=\"inline\"><input type=\"hidden\" name=\"file\" value=\"")
                .append(Html.text(name)).append("\"><label>Last <input name=\"lines\" size=\"6\" value=\"").append(lines)
                .append("\"> lines</label> <button type=\"submit\">Show</button></form> · <a href=\"/logs/download?file=")
                .append(Html.url(name)).append("\">download the whole file</a> · <a href=\"/logs\">all logs</a>")
                .append("<pre class=\"log\" id=\"log-tail\">");
        tail.forEach(line -> b.append(Html.text(line)).append('\n'));
        b.append("</pre>");
        Layout.ok(request, response, name, "/logs", b.toString());
    }

    void download(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String name = request.getParameter("file");
        Path file = resolveOr404(request, response, name);
        if (file == null) {
            return;
        }
        response.setContentType("text/plain;charset=UTF-8");
        response.setHeader("Content-Disposition", "attachment; filename=\"" + name.replaceAll("[^A-Za-z0-9._-]", "_") + "\"");
        response.setHeader("Cache-Control", "no-store");
        response.setContentLengthLong(Files.size(file));
        try (OutputStream out = response.getOutputStream()) {
            Files.copy(file, out);
        }
    }

    private Path resolveOr404(HttpServletRequest request, HttpServletResponse response, String name) throws IOException {
        try {
            return directory().resolve(name);
        } catch (IllegalArgumentException e) {
            Layout.write(request, response, 404, "No such log file", "/logs", "<h1>No such log file</h1><p class=\"error\">"
                    + Html.text(e.getMessage()) + "</p><p><a href=\"/logs\">All log files</a></p>");
            return null;
        }
    }

    static int lines(String text) {
        try {
            int n = text == null ? DEFAULT_LINES : Integer.parseInt(text.trim());
            return Math.max(1, Math.min(MAX_LINES, n));
        } catch (NumberFormatException e) {
            return DEFAULT_LINES;
        }
    }

    private static String size(long bytes) {
        return bytes < 10_240 ? bytes + " B" : bytes < 10_485_760 ? bytes / 1024 + " KB" : bytes / 1_048_576 + " MB";
    }
}
