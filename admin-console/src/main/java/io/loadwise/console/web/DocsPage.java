package io.loadwise.console.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code /docs}: the project's {@code docs/*.md}, packaged into the jar at build time and rendered with
 * {@link Markdown}, so the console and the repository show the same text.
 */
final class DocsPage {

    private static final String ROOT = "/io/loadwise/console/docs/";
    /** The pages in reading order, with what each is for. */
    static final Map<String, String> PAGES = new LinkedHashMap<>();

    static {
        PAGES.put("about", "About Loadwise: what it is and how the parts fit");
        PAGES.put("console", "Using this console");
        PAGES.put("configuration", "Virtual clusters and nodes: every configuration setting");
        PAGES.put("agent", "Installing the node agent on Tomcat and GlassFish");
        PAGES.put("policies", "The task assignment policies and their formulas");
        PAGES.put("operations", "Running, logging, upgrading");
        PAGES.put("scale-out", "Scale-out: several replicas sharing one configuration through etcd");
        PAGES.put("metrics", "Metric stores, graphs, CSV and Prometheus");
        PAGES.put("rest-api", "The REST API");
        PAGES.put("architecture", "Architecture");
        PAGES.put("simulator", "The trace-driven policy simulator");
        PAGES.put("capacity-planning", "Capacity planning");
        PAGES.put("trade-app", "The benchmark trade application and node launcher");
        PAGES.put("third-party", "Third-party libraries and their licences");
    }

    void get(HttpServletRequest request, HttpServletResponse response, String rest) throws IOException {
        if (rest.isEmpty() || rest.equals("/")) {
            index(request, response);
            return;
        }
        String name = rest.substring(1);
        if (name.matches("images/[A-Za-z0-9._-]+\\.png")) {
            image(response, name);
            return;
        }
        byte[] markdown = name.matches("[a-z0-9-]+") ? read(name + ".md") : null;
        if (markdown == null) {
            Layout.write(request, response, 404, "No such page", "/docs", "<h1>No such documentation page</h1>"
                    + "<p><a href=\"/docs\">All documentation</a></p>");
            return;
        }
        String html = Markdown.render(new String(markdown, StandardCharsets.UTF_8));
        String title = PAGES.getOrDefault(name, name);
        Layout.ok(request, response, title, "/docs", "<p class=\"crumbs\"><a href=\"/docs\">Documentation</a> / "
                + Html.text(name) + "</p><article class=\"doc\">" + html + "</article>");
    }

    private void index(HttpServletRequest request, HttpServletResponse response) throws IOException {
        StringBuilder b = new StringBuilder("<h1>Documentation</h1><p>The same pages live in the <code>docs/</code> ")
                .append("directory of the source tree.</p><ul class=\"doc-index\">");
        PAGES.forEach((name, what) -> b.append("<li><a href=\"/docs/").append(name).append("\">").append(Html.text(what))
                .append("</a></li>"));
        b.append("</ul>");
        Layout.ok(request, response, "Documentation", "/docs", b.toString());
    }

    private static void image(HttpServletResponse response, String name) throws IOException {
        byte[] png = read(name);
        if (png == null) {
            response.sendError(404);
            return;
        }
        response.setContentType("image/png");
        response.setHeader("Cache-Control", "max-age=300");
        response.setContentLength(png.length);
        response.getOutputStream().write(png);
    }

    private static byte[] read(String name) throws IOException {
        try (InputStream in = DocsPage.class.getResourceAsStream(ROOT + name)) {
            return in == null ? null : in.readAllBytes();
        }
    }
}
