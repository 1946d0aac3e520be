package io.loadwise.agent.jmx;

/** A JMX mapping line the agent cannot use; the message names the file and key. */
public final class InvalidMappingException extends IllegalArgumentException {

    public InvalidMappingException(String message) {
        super(message);
    }

    public InvalidMappingException(String message, Throwable cause) {
        super(message, cause);
    }
}
