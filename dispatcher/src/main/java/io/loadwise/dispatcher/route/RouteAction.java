package io.loadwise.dispatcher.route;

import io.loadwise.dispatcher.config.RouteConfig;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** What a matched route does with the request: one of four actions. */
public sealed interface RouteAction {

    /** Send it to one cluster. */
    record Forward(String cluster) implements RouteAction {
    }

    /**
     * Send it to one of several clusters by weight.
     *
     * @param clusters the targets, in configuration order
     * @param cumulative running sums of the weights, the last one the total
     */
    record Split(List<String> clusters, int[] cumulative) implements RouteAction {

        static Split of(List<RouteConfig.SplitTarget> targets) {
            int[] cumulative = new int[targets.size()];
            int sum = 0;
            for (int i = 0; i < targets.size(); i++) {
                sum += targets.get(i).weight();
                cumulative[i] = sum;
            }
            return new Split(targets.stream().map(RouteConfig.SplitTarget::cluster).toList(), cumulative);
        }

        public int totalWeight() {
            return cumulative[cumulative.length - 1];
        }

        /** The cluster that owns {@code ticket}, a number in {@code [0, totalWeight)}. */
        public String pick(int ticket) {
            for (int i = 0; i < cumulative.length; i++) {
                if (ticket < cumulative[i]) {
                    return clusters.get(i);
                }
            }
            return clusters.get(clusters.size() - 1);
        }
    }

    /** Answer with a redirect. */
    record Redirect(RedirectLocation location, int status) implements RouteAction {
    }

    /** Answer with a fixed response. */
    record Respond(int status, byte[] body, String contentType) implements RouteAction {

        static Respond of(RouteConfig.RespondConfig config) {
            return new Respond(config.status(), config.bodyOrEmpty().getBytes(StandardCharsets.UTF_8),
                    config.contentTypeOrDefault());
        }
    }

    static RouteAction of(RouteConfig route) {
        if (route.cluster() != null) {
            return new Forward(route.cluster());
        }
        if (route.split() != null) {
            return Split.of(route.split());
        }
        if (route.redirect() != null) {
            return new Redirect(new RedirectLocation(route.redirect()), route.redirect().statusOrDefault());
        }
        return Respond.of(route.respond());
    }
}
