package io.loadwise.dispatcher.net;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * An IP address or a CIDR block ({@code 10.0.0.0/8}, {@code ::1}, {@code fd00::/8}), parsed from
 * configuration without any name lookup. IPv4-mapped IPv6 addresses match their IPv4 block.
 */
public final class AddressBlock {

    private final byte[] network;
    private final int prefix;

    private AddressBlock(byte[] network, int prefix) {
        this.network = network;
        this.prefix = prefix;
    }

    /**
     * Parses {@code text}: a literal IPv4 or IPv6 address, optionally followed by {@code /prefix}.
     *
     * @throws IllegalArgumentException with a message fit for a configuration error
     */
    public static AddressBlock parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("blank address");
        }
        String trimmed = text.trim();
        int slash = trimmed.indexOf('/');
        String host = slash < 0 ? trimmed : trimmed.substring(0, slash);
        byte[] bytes = literal(host);
        if (bytes == null) {
            throw new IllegalArgumentException("'" + text + "' is not an IP address or CIDR block");
        }
        int bits = bytes.length * 8;
        int prefix = bits;
        if (slash >= 0) {
            String p = trimmed.substring(slash + 1);
            if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(c -> c >= '0' && c <= '9')) {
                throw new IllegalArgumentException("'" + text + "': prefix length must be a number");
            }
            prefix = Integer.parseInt(p);
            if (prefix > bits) {
                throw new IllegalArgumentException("'" + text + "': prefix length " + prefix + " is over " + bits);
            }
        }
        return new AddressBlock(bytes, prefix);
    }

    /** Parses every entry; the first bad one throws. */
    public static List<AddressBlock> parseAll(List<String> texts) {
        return texts.stream().map(AddressBlock::parse).toList();
    }

    /** Whether {@code address} lies in this block. */
    public boolean contains(InetAddress address) {
        byte[] bytes = address.getAddress();
        if (bytes.length != network.length) {
            bytes = mapped(bytes, network.length);
            if (bytes == null) {
                return false;
            }
        }
        int full = prefix / 8;
        for (int i = 0; i < full; i++) {
            if (bytes[i] != network[i]) {
                return false;
            }
        }
        int rest = prefix % 8;
        if (rest == 0) {
            return true;
        }
        int mask = (0xff << (8 - rest)) & 0xff;
        return (bytes[full] & mask) == (network[full] & mask);
    }

    /** Whether any of {@code blocks} contains {@code address}. */
    public static boolean anyContains(List<AddressBlock> blocks, InetAddress address) {
        for (int i = 0; i < blocks.size(); i++) {
            if (blocks.get(i).contains(address)) {
                return true;
            }
        }
        return false;
    }

    /** An IPv4-mapped IPv6 address as IPv4, or IPv4 as mapped IPv6; {@code null} when neither applies. */
    private static byte[] mapped(byte[] bytes, int wanted) {
        if (bytes.length == 16 && wanted == 4) {
            for (int i = 0; i < 10; i++) {
                if (bytes[i] != 0) {
                    return null;
                }
            }
            if (bytes[10] != (byte) 0xff || bytes[11] != (byte) 0xff) {
                return null;
            }
            return new byte[] {bytes[12], bytes[13], bytes[14], bytes[15]};
        }
        if (bytes.length == 4 && wanted == 16) {
            byte[] v6 = new byte[16];
            v6[10] = (byte) 0xff;
            v6[11] = (byte) 0xff;
            System.arraycopy(bytes, 0, v6, 12, 4);
            return v6;
        }
        return null;
    }

    /** The bytes of an IP literal, or {@code null} when {@code host} is not one (never a DNS lookup). */
    private static byte[] literal(String host) {
        boolean v4 = host.chars().allMatch(c -> (c >= '0' && c <= '9') || c == '.');
        boolean v6 = host.indexOf(':') >= 0
                && host.chars().allMatch(c -> Character.digit(c, 16) >= 0 || c == ':' || c == '.');
        if (v4) {
            String[] parts = host.split("\\.", -1);
            if (parts.length != 4) {
                return null;
            }
            byte[] bytes = new byte[4];
            for (int i = 0; i < 4; i++) {
                if (parts[i].isEmpty() || parts[i].length() > 3 || Integer.parseInt(parts[i]) > 255) {
                    return null;
                }
                bytes[i] = (byte) Integer.parseInt(parts[i]);
            }
            return bytes;
        }
        if (v6) {
            try {
                return InetAddress.getByName(host).getAddress(); // a literal: parsed, not looked up
            } catch (UnknownHostException e) {
                return null;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        try {
            return InetAddress.getByAddress(network).getHostAddress() + "/" + prefix;
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
