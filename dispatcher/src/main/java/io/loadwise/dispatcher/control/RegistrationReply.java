package io.loadwise.dispatcher.control;

/**
 * The answer to a registration or heartbeat.
 *
 * @param created the node was not registered before (or its address, route or contexts changed)
 * @param ttlMs the registration lapses unless the next heartbeat comes within this long
 */
public record RegistrationReply(String cluster, String node, boolean created, int ttlMs) {
}
