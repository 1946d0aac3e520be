package io.loadwise.agent.os;

/** SIGAR cannot be used on this machine; the message says why (no native library, load failure...). */
public final class SigarUnavailableException extends Exception {

    public SigarUnavailableException(String message) {
        super(message);
    }

    public SigarUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
