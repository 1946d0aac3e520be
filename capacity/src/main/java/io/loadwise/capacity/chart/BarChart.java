package io.loadwise.capacity.chart;

import java.awt.Color;
import java.awt.Graphics2D;
import java.util.ArrayList;
import java.util.List;

/** Grouped bars on a 0..1 scale: one group per policy, one bar per node (per-node utilisation). */
public final class BarChart extends AxesChart {

    private final List<String> groups = new ArrayList<>();
    private final List<double[]> values = new ArrayList<>();
    private final String barPrefix;

    public BarChart(String title, String xLabel, String yLabel, String barPrefix) {
        super(title, xLabel, yLabel);
        this.barPrefix = barPrefix;
    }

    public BarChart add(String group, double[] bars) {
        groups.add(group);
        values.add(bars.clone());
        return this;
    }

    @Override
    void drawPlot(Graphics2D g) {
        for (int i = 0; i <= 10; i++) {
            int py = TOP + plotHeight() - plotHeight() * i / 10;
            g.setColor(new Color(0xe0e0e0));
            g.drawLine(LEFT, py, LEFT + plotWidth(), py);
            g.setColor(Color.BLACK);
            String label = tickLabel(i / 10.0);
            g.drawString(label, LEFT - 8 - g.getFontMetrics().stringWidth(label), py + 4);
        }
        int maxBars = 1;
        for (double[] v : values) {
            maxBars = Math.max(maxBars, v.length);
        }
        int groupWidth = plotWidth() / Math.max(1, groups.size());
        int barWidth = Math.max(2, (groupWidth - 20) / maxBars);
        for (int gi = 0; gi < groups.size(); gi++) {
            int x0 = LEFT + gi * groupWidth + 10;
            double[] v = values.get(gi);
            for (int b = 0; b < v.length; b++) {
                int h = (int) Math.round(Math.max(0, Math.min(1, v[b])) * plotHeight());
                g.setColor(PALETTE[b % PALETTE.length]);
                g.fillRect(x0 + b * barWidth, TOP + plotHeight() - h, barWidth - 1, h);
            }
            g.setColor(Color.BLACK);
            String label = groups.get(gi);
            g.drawString(label, x0 + (groupWidth - 20 - g.getFontMetrics().stringWidth(label)) / 2, TOP + plotHeight() + 18);
        }
        for (int b = 0; b < Math.min(maxBars, 20); b++) {
            legend(g, b, PALETTE[b % PALETTE.length], barPrefix + (b + 1));
        }
    }
}
