package io.loadwise.node.provision;

/** A node could not be created, configured, started or deployed; the message says which step and why. */
public class ProvisioningException extends Exception {

    public ProvisioningException(String message) {
        super(message);
    }

    public ProvisioningException(String message, Throwable cause) {
        super(message, cause);
    }
}
