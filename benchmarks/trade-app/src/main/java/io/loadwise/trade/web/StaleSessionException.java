package io.loadwise.trade.web;

/** The session's account no longer exists, typically because the database was rebuilt since login. */
final class StaleSessionException extends RuntimeException {

    StaleSessionException(int accountId) {
        super("account " + accountId + " no longer exists (database rebuilt?): the session was logged out");
    }
}
