package io.loadwise.node.glassfish;

import io.loadwise.node.provision.ProvisioningException;

/** An asadmin command failed or timed out; the message carries the command and everything asadmin printed. */
public final class AsadminException extends ProvisioningException {

    public AsadminException(String message) {
        super(message);
    }
}
