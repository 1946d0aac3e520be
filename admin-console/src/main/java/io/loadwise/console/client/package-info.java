/**
 * Commands that drive a running dispatcher through its admin REST API, with the admin token:
 * {@code loadwise drain} (one node, optionally waiting until it is drained) and {@code loadwise rollout} (a
 * rolling restart, node after node, without logging users out). They never touch the dispatcher's state other
 * than through the API.
 */
package io.loadwise.console.client;
