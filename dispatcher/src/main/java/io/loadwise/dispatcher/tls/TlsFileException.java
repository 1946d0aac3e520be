package io.loadwise.dispatcher.tls;

/** A certificate or key file that cannot be used; the message names the file and what is wrong. */
public final class TlsFileException extends Exception {

    private static final long serialVersionUID = 1L;

    public TlsFileException(String message) {
        super(message, null, false, false);
    }
}
