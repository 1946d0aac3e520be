package io.loadwise.bench.stats;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Ranks entries by failure rate (lower first), then throughput (higher first), where a difference that
 * Welch's test at 5 % cannot tell from the noise counts as a tie. First the entries are grouped by failure
 * rate: sorted by its mean, an entry joins the group of the group's first (best) entry unless it fails
 * significantly more. Within a failure group the entries are sorted by mean throughput and grouped the
 * same way (an entry joins unless its throughput is significantly lower than the group's best). Each
 * throughput group is one rank, shared by its entries; the next rank is the next position (1, 1, 3:
 * standard competition ranking). Comparing with the group's best, not with the previous neighbour, keeps
 * a chain of small steps from tying the best with the worst.
 *
 * @param <T> what is ranked (a policy row)
 */
public final class TiedRanking<T> {

    /** One ranked entry: its rank (shared by ties), and whether it is tied with another entry. */
    public record Place<T>(T item, int rank, boolean tied, Interval failedPercent, Interval throughput) {
    }

    /** What to rank: an item with its failure rate and throughput over the repeated runs. */
    public record Entry<T>(T item, Interval failedPercent, Interval throughput) {
    }

    private TiedRanking() {
    }

    public static <T> List<Place<T>> rank(List<Entry<T>> entries) {
        List<Entry<T>> byFailures = new ArrayList<>(entries);
        byFailures.sort(Comparator.comparingDouble((Entry<T> e) -> e.failedPercent().mean()));
        List<Place<T>> places = new ArrayList<>();
        for (List<Entry<T>> failureGroup : groups(byFailures, Entry::failedPercent)) {
            List<Entry<T>> byThroughput = new ArrayList<>(failureGroup);
            byThroughput.sort(Comparator.comparingDouble((Entry<T> e) -> e.throughput().mean()).reversed());
            for (List<Entry<T>> tie : groups(byThroughput, Entry::throughput)) {
                int rank = places.size() + 1;
                for (Entry<T> e : tie) {
                    places.add(new Place<>(e.item(), rank, tie.size() > 1, e.failedPercent(), e.throughput()));
                }
            }
        }
        return List.copyOf(places);
    }

    /** Consecutive groups of {@code sorted} whose figure does not differ from the group's first entry's. */
    private static <T> List<List<Entry<T>>> groups(List<Entry<T>> sorted,
            java.util.function.Function<Entry<T>, Interval> figure) {
        List<List<Entry<T>>> groups = new ArrayList<>();
        for (Entry<T> e : sorted) {
            List<Entry<T>> current = groups.isEmpty() ? null : groups.get(groups.size() - 1);
            if (current != null && !Welch.differ(figure.apply(current.get(0)), figure.apply(e))) {
                current.add(e);
            } else {
                groups.add(new ArrayList<>(List.of(e)));
            }
        }
        return groups;
    }
}
