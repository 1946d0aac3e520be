package io.loadwise.dispatcher.registration;

import io.loadwise.dispatcher.config.ContextPath;
import io.loadwise.dispatcher.config.RegistrationConfig;
import io.loadwise.dispatcher.control.NodeRegistration;
import io.loadwise.dispatcher.net.AddressBlock;
import io.loadwise.dispatcher.net.NodeAddress;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/** Field-exact checks of a registration; the REST API answers 400 with the list, or 403 for the address. */
final class RegistrationCheck {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

    private RegistrationCheck() {
    }

    /** Every problem of the fields themselves, each naming its field; empty when they are well formed. */
    static List<String> fields(NodeRegistration r) {
        List<String> errors = new ArrayList<>();
        if (r.name() == null) {
            errors.add("name: missing");
        } else if (!NAME.matcher(r.name()).matches()) {
            errors.add("name: must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit");
        }
        if (r.address() == null) {
            errors.add("address: missing (ip:port)");
        } else {
            String problem = addressProblem(r.address());
            if (problem != null) {
                errors.add("address: " + problem);
            }
        }
        if (r.route() != null && !NAME.matcher(r.route()).matches()) {
            errors.add("route: may contain only letters, digits, '.', '_' and '-' (at most 64)");
        }
        List<String> contexts = r.contexts();
        if (contexts == null || contexts.isEmpty()) {
            errors.add("contexts: at least one context path is required, such as /app");
        } else if (contexts.size() > ContextPath.MAX_PER_NODE) {
            errors.add("contexts: " + contexts.size() + " contexts, at most " + ContextPath.MAX_PER_NODE);
        } else {
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < contexts.size(); i++) {
                String problem = ContextPath.problem(contexts.get(i));
                if (problem != null) {
                    errors.add("contexts[" + i + "]: " + problem);
                } else if (!seen.add(contexts.get(i))) {
                    errors.add("contexts[" + i + "]: duplicate '" + contexts.get(i) + "'");
                }
            }
        }
        return errors;
    }

    private static String addressProblem(String address) {
        InetSocketAddress parsed;
        try {
            parsed = NodeAddress.parse(address);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        try {
            AddressBlock.parse(parsed.getHostString());
        } catch (IllegalArgumentException e) {
            return "'" + parsed.getHostString() + "' is not an IP address (registered nodes give an IP literal; "
                    + "no name is looked up)";
        }
        return null;
    }

    /** The address's IP (a literal the field check accepted: no lookup). */
    static InetAddress ip(String address) {
        try {
            return InetAddress.getByName(NodeAddress.parse(address).getHostString());
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IP literal: " + address, e);
        }
    }

    /** Whether the node's address lies in the cluster's allowed networks. */
    static boolean allowed(RegistrationConfig config, String address) {
        return AddressBlock.anyContains(AddressBlock.parseAll(config.allowedNetworksOrEmpty()), ip(address));
    }
}
