package io.loadwise.console.web;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.commonmark.Extension;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Code;
import org.commonmark.node.Heading;
import org.commonmark.node.Image;
import org.commonmark.node.Link;
import org.commonmark.node.Node;
import org.commonmark.node.Text;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.AttributeProvider;
import org.commonmark.renderer.html.HtmlRenderer;

/**
 * The project's docs as HTML, parsed and rendered by commonmark-java (CommonMark plus GitHub's pipe
 * tables). What is ours is the safety around it: raw HTML in a document is shown as text, never rendered;
 * link targets are limited to http(s), mailto, anchors and other docs ({@code other.md} becomes
 * {@code /docs/other}), images to {@code images/x.png} (becomes {@code /docs/images/x.png}), and a link
 * to anywhere else is shown as its text. Headings carry GitHub-style ids, so {@code page.md#heading} lands.
 */
public final class Markdown {

    private static final Pattern DOC_LINK = Pattern.compile("^([A-Za-z0-9_-]+)\\.md(#[A-Za-z0-9_-]+)?$");
    private static final List<Extension> EXTENSIONS = List.of(TablesExtension.create());
    // Both are immutable and thread-safe: one of each for every request.
    private static final Parser PARSER = Parser.builder().extensions(EXTENSIONS).build();
    private static final HtmlRenderer RENDERER = HtmlRenderer.builder().extensions(EXTENSIONS)
            .escapeHtml(true) // <script> in a doc is text, not markup
            .attributeProviderFactory(context -> (AttributeProvider) Markdown::headingId)
            .build();

    private Markdown() {
    }

    public static String render(String markdown) {
        Node document = PARSER.parse(markdown);
        document.accept(new LinkTargets());
        return RENDERER.render(document);
    }

    private static void headingId(Node node, String tagName, Map<String, String> attributes) {
        if (node instanceof Heading) {
            attributes.put("id", anchor(textOf(node)));
        }
    }

    /** Rewrites every link and image target to where the console serves it, or unwraps it to its text. */
    private static final class LinkTargets extends AbstractVisitor {

        @Override
        public void visit(Link link) {
            visitChildren(link);
            retarget(link, safeTarget(link.getDestination(), false));
        }

        @Override
        public void visit(Image image) {
            visitChildren(image);
            retarget(image, safeTarget(image.getDestination(), true));
        }

        private static void retarget(Node node, String target) {
            if (target != null) {
                if (node instanceof Link link) {
                    link.setDestination(target);
                } else {
                    ((Image) node).setDestination(target);
                }
                return;
            }
            // not a place the console can follow: keep the words, drop the link
            Node child = node.getFirstChild();
            while (child != null) {
                Node next = child.getNext();
                node.insertBefore(child);
                child = next;
            }
            node.unlink();
        }
    }

    /** The URL to use, or {@code null} when the target is not allowed (scripts, other schemes, outside docs/). */
    static String safeTarget(String target, boolean image) {
        String lower = target.toLowerCase(Locale.ROOT);
        if (image) {
            return target.matches("images/[A-Za-z0-9._-]+\\.png") ? "/docs/" + target : null;
        }
        if (lower.startsWith("https://") || lower.startsWith("http://") || lower.startsWith("mailto:")) {
            return target.contains("\"") || target.contains(" ") ? null : target;
        }
        if (target.startsWith("#")) {
            return target.matches("#[A-Za-z0-9_-]+") ? target : null;
        }
        Matcher md = DOC_LINK.matcher(target);
        if (md.matches()) {
            return "/docs/" + md.group(1) + (md.group(2) == null ? "" : md.group(2));
        }
        return null;
    }

    /** GitHub-style heading anchors: lower case, spaces to dashes, punctuation dropped. */
    static String anchor(String heading) {
        return heading.toLowerCase(Locale.ROOT).replaceAll("[`*_\\[\\]()]", "").replaceAll("[^a-z0-9 -]", "")
                .trim().replace(' ', '-');
    }

    /** The words of a heading as a reader sees them: text and inline code, without the markup. */
    private static String textOf(Node node) {
        StringBuilder text = new StringBuilder();
        node.accept(new AbstractVisitor() {
            @Override
            public void visit(Text t) {
                text.append(t.getLiteral());
            }

            @Override
            public void visit(Code code) {
                text.append(code.getLiteral());
            }
        });
        return text.toString();
    }
}
