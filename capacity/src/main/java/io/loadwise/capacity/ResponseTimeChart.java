package io.loadwise.capacity;

import io.loadwise.capacity.chart.LineChart;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** The planner's chart: predicted mean response time against λ for each node count (M/M/n solid, (M/M/1)^n dashed). */
public final class ResponseTimeChart {

    private ResponseTimeChart() {
    }

    public static void write(double mu, List<Integer> servers, Path file) throws IOException {
        int maxN = servers.get(servers.size() - 1);
        double maxLambda = 0.98 * maxN * mu;
        int points = 200;
        double[] lambdas = new double[points];
        for (int i = 0; i < points; i++) {
            lambdas[i] = maxLambda * (i + 1) / points;
        }
        LineChart chart = new LineChart(String.format("Predicted mean response time, μ = %.2f req/s per node", mu),
                "arrival rate λ (req/s)", "mean response time (ms, log scale)", true);
        double clip = 50e3 / mu; // 50 mean service times: beyond it the curve is a wall anyway
        chart.clipY(clip);
        for (int n : servers) {
            double[] mmn = new double[points];
            double[] split = new double[points];
            for (int i = 0; i < points; i++) {
                mmn[i] = QueueModel.MMN.predict(lambdas[i], mu, n).meanResponseSeconds() * 1e3;
                split[i] = QueueModel.MM1_N.predict(lambdas[i], mu, n).meanResponseSeconds() * 1e3;
            }
            chart.add("M/M/" + n, lambdas, mmn);
            if (n > 1) {
                chart.addDashed("(M/M/1)^" + n, lambdas, split);
            }
        }
        chart.writePng(file);
    }
}
