package io.loadwise.dispatcher.net;

import java.util.List;

/**
 * A listener's {@code proxyProtocol}: which versions it accepts, from which sources the header is required
 * (from every other source a header is refused), how long a trusted source may take to send it, and the cap
 * on a v2 header's TLV bytes.
 */
public record ProxyProtocolSettings(Accept accept, List<AddressBlock> trustedSources, long headerTimeoutMs,
        int maxTlvBytes) {

    /** Default deadline for the header from a trusted source. */
    public static final long DEFAULT_HEADER_TIMEOUT_MS = 3_000;
    /** Default cap on a v2 header's TLV section (the whole header is at most 16 + 216 + this). */
    public static final int DEFAULT_MAX_TLV_BYTES = 1_024;

    /** The versions a listener takes. */
    public enum Accept {
        V1, V2, ANY;

        /** Parses {@code v1}, {@code v2} or {@code any}; null when it is none of them. */
        public static Accept parse(String text) {
            if (text == null) {
                return null;
            }
            return switch (text) {
                case "v1" -> V1;
                case "v2" -> V2;
                case "any" -> ANY;
                default -> null;
            };
        }

        boolean allows(boolean v2) {
            return this == ANY || (v2 ? this == V2 : this == V1);
        }
    }

    public ProxyProtocolSettings {
        trustedSources = List.copyOf(trustedSources);
        if (headerTimeoutMs <= 0) {
            throw new IllegalArgumentException("headerTimeoutMs must be positive");
        }
        if (maxTlvBytes < 0 || maxTlvBytes > 65_535 - 216) {
            throw new IllegalArgumentException("maxTlvBytes out of range");
        }
    }
}
