package io.loadwise.console.web;

import io.loadwise.capacity.CapacityPlanner;
import io.loadwise.capacity.QueueModel;
import io.loadwise.capacity.ResponseTimeChart;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code /capacity}: the capacity planner of {@code loadwise capacity} as a page. From a node's service
 * rate μ and an arrival rate λ it shows, for 1..n nodes, the M/M/n, (M/M/1)^n and M/M/1 predictions,
 * the rate at which each node count reaches the 80 % operating point, and a chart of response time
 * against λ. Read-only: the form is a GET and changes nothing.
 */
final class CapacityPage {

    private static final int MAX_SERVERS = 32;

    void get(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Map<String, String> errors = new LinkedHashMap<>();
        double mu = number(request, "mu", 104.13, errors, "service rate μ must be a positive number of req/s");
        double lambda = number(request, "lambda", 100, errors, "arrival rate λ must be zero or a positive number of req/s");
        int servers = (int) number(request, "servers", 4, errors, "nodes must be a whole number from 1 to " + MAX_SERVERS);
        if (!errors.containsKey("mu") && !(mu > 0)) {
            errors.put("mu", "service rate μ must be a positive number of req/s");
        }
        if (!errors.containsKey("lambda") && !(lambda >= 0)) {
            errors.put("lambda", "arrival rate λ must be zero or a positive number of req/s");
        }
        if (!errors.containsKey("servers") && (servers < 1 || servers > MAX_SERVERS)) {
            errors.put("servers", "nodes must be a whole number from 1 to " + MAX_SERVERS);
        }
        StringBuilder b = new StringBuilder("<h1>Capacity planner</h1><p>Queueing-model predictions (seed 000 ")
                .append("chapter 2, seed 003) for nodes of service rate μ receiving λ requests per second in all. ")
                .append("The seeds' operating rule keeps utilisation at or below 80 %; above about 90 % the models ")
                .append("stop being reliable. <code>./loadwise capacity --measure URL</code> measures μ of a node.</p>")
                .append("<form method=\"get\" action=\"/capacity\" class=\"planner\">")
                .append(field("mu", "Service rate μ per node (req/s)", request, "104.13", errors))
                .append(field("lambda", "Arrival rate λ (req/s)", request, "100", errors))
                .append(field("servers", "Nodes, 1 to n", request, "4", errors))
                .append("<button type=\"submit\">Predict</button></form>");
        if (!errors.isEmpty()) {
            Layout.write(request, response, 400, "Capacity planner", "/capacity", b.toString());
            return;
        }
        CapacityPlanner planner = new CapacityPlanner(mu);
        b.append(String.format(Locale.ROOT, "<p>At λ = %.2f req/s the 80 %% rule needs <strong id=\"nodes-needed\">%d</strong> "
                + "node(s).</p>", lambda, planner.nodesNeeded(lambda, CapacityPlanner.OPERATING_UTILISATION)))
                .append("<table id=\"plan\"><thead><tr><th>Nodes</th><th>Utilisation</th><th>M/M/n response</th>")
                .append("<th>(M/M/1)^n response</th><th>M/M/1 response (one node takes all)</th>")
                .append("<th>λ at 80 %</th><th>λ at 90 %</th></tr></thead><tbody>");
        for (int n = 1; n <= servers; n++) {
            b.append("<tr><td>").append(n).append("</td><td>")
                    .append(String.format(Locale.ROOT, "%.1f %%", 100 * lambda / (n * mu))).append("</td><td>")
                    .append(millis(QueueModel.MMN.predict(lambda, mu, n))).append("</td><td>")
                    .append(millis(QueueModel.MM1_N.predict(lambda, mu, n))).append("</td><td>")
                    .append(millis(QueueModel.MM1.predict(lambda, mu, 1))).append("</td><td>")
                    .append(String.format(Locale.ROOT, "%.1f", planner.rateAt(n, CapacityPlanner.OPERATING_UTILISATION)))
                    .append("</td><td>")
                    .append(String.format(Locale.ROOT, "%.1f", planner.rateAt(n, CapacityPlanner.VALIDITY_LIMIT)))
                    .append("</td></tr>");
        }
        b.append("</tbody></table><p><img id=\"capacity-chart\" alt=\"Predicted response time against arrival rate\" src=\"")
                .append(Html.text(String.format(Locale.ROOT, "/capacity/chart.png?mu=%s&servers=%d", mu, servers)))
                .append("\"></p>");
        Layout.ok(request, response, "Capacity planner", "/capacity", b.toString());
    }

    /** {@code /capacity/chart.png}: response time against λ for 1..n nodes, drawn by the planner's chart. */
    void chart(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Map<String, String> errors = new LinkedHashMap<>();
        double mu = number(request, "mu", 104.13, errors, "bad mu");
        int servers = (int) number(request, "servers", 4, errors, "bad servers");
        if (!errors.isEmpty() || !(mu > 0) || servers < 1 || servers > MAX_SERVERS) {
            response.sendError(400, "mu must be positive and servers 1.." + MAX_SERVERS);
            return;
        }
        List<Integer> counts = new ArrayList<>();
        for (int n = 1; n <= servers; n++) {
            counts.add(n);
        }
        Path file = Files.createTempFile("loadwise-capacity", ".png");
        try {
            ResponseTimeChart.write(mu, counts, file);
            byte[] png = Files.readAllBytes(file);
            response.setContentType("image/png");
            response.setContentLength(png.length);
            response.getOutputStream().write(png);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static String millis(QueueModel.Prediction p) {
        return p.stable() ? String.format(Locale.ROOT, "%.2f ms", p.meanResponseSeconds() * 1e3) : "unstable (ρ ≥ 1)";
    }

    private static double number(HttpServletRequest request, String name, double fallback, Map<String, String> errors,
            String message) {
        String raw = request.getParameter(name);
        if (raw == null || raw.isBlank()) {
            return fallback;
        }
        try {
            double value = Double.parseDouble(raw.trim());
            if (!Double.isFinite(value) || (name.equals("servers") && value != Math.rint(value))) {
                errors.put(name, message);
            }
            return value;
        } catch (NumberFormatException e) {
            errors.put(name, message);
            return fallback;
        }
    }

    private static String field(String name, String label, HttpServletRequest request, String fallback,
            Map<String, String> errors) {
        String value = request.getParameter(name) == null ? fallback : request.getParameter(name);
        String error = errors.get(name);
        return "<label>" + Html.text(label) + " <input name=\"" + name + "\" value=\"" + Html.text(value) + "\"></label>"
                + (error == null ? "" : "<span class=\"field-error\" id=\"" + name + "-error\">" + Html.text(error) + "</span>");
    }
}
