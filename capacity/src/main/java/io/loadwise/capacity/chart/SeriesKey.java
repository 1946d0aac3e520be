package io.loadwise.capacity.chart;

/**
 * A series' key in a JFreeChart dataset: its position, so that two series may share a legend name (a dataset
 * refuses two equal keys); the legend shows the name alone.
 */
public record SeriesKey(int index, String name) implements Comparable<SeriesKey> {

    @Override
    public int compareTo(SeriesKey o) {
        return Integer.compare(index, o.index);
    }

    @Override
    public String toString() {
        return name;
    }
}
