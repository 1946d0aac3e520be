package io.loadwise.dispatcher.adversarial;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The node behaviour a corpus case scripts: {@code node-reply[.N]} (raw bytes, consecutive lines joined;
 * {@code none}: no answer), {@code node-after[.N]} and {@code node-continue: off}. Without {@code .N} a
 * line applies to every request; request N is the N-th the node parsed. Unscripted requests get
 * {@link NodeScript#echoLine}.
 */
final class TextNodeScript implements NodeScript {

    private static final int ALL = 0;

    private final Map<Integer, ByteArrayOutputStream> replies = new HashMap<>();
    private final Map<Integer, After> afters = new HashMap<>();
    private final Map<Integer, Boolean> silent = new HashMap<>();
    private boolean sendContinue = true;

    TextNodeScript(List<Directive> script) {
        for (Directive d : script) {
            switch (d.key()) {
                case "node-reply" -> {
                    if (d.value().equals("none")) {
                        silent.put(d.index(), true);
                    } else {
                        replies.computeIfAbsent(d.index(), i -> new ByteArrayOutputStream())
                                .writeBytes(Escapes.decode(d.value()));
                    }
                }
                case "node-after" -> afters.put(d.index(), After.valueOf(d.value().trim().toUpperCase(Locale.ROOT)));
                case "node-continue" -> sendContinue = !d.value().trim().equals("off");
                default -> throw new IllegalArgumentException("not a node script key: " + d);
            }
        }
    }

    @Override
    public void onHead(NodeRequest head, OutputStream out) throws IOException {
        if (sendContinue) {
            NodeScript.super.onHead(head, out);
        }
    }

    @Override
    public After answer(NodeRequest request, OutputStream out) throws IOException {
        int n = request.number();
        boolean quiet = silent.getOrDefault(n, !replies.containsKey(n) && silent.getOrDefault(ALL, false));
        if (!quiet) {
            ByteArrayOutputStream reply = replies.getOrDefault(n, replies.get(ALL));
            out.write(reply != null ? reply.toByteArray() : NodeScript.echoLine(request));
            out.flush();
        }
        return afters.getOrDefault(n, afters.getOrDefault(ALL, quiet ? After.STALL : After.KEEP));
    }
}
