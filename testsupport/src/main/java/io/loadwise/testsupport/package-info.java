/**
 * Test doubles shared by the modules' tests (the artifact {@code loadwise-testsupport}, used only in
 * {@code test} scope): a TCP echo server, policies simple enough that a test can predict each pick, and
 * {@link io.loadwise.testsupport.TestPki}, a throw-away CA made with the {@code openssl} command line.
 *
 * <p>The jar registers no policy itself: a module lists the ones its tests use in its own
 * {@code src/test/resources/META-INF/services/io.loadwise.policy.LoadBalancingPolicy}, so each module's
 * registry holds exactly the policies its tests expect (some tests list them all).
 */
package io.loadwise.testsupport;
