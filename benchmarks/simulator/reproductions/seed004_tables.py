"""Prints the markdown tables of docs/simulator.md from the CSVs the simulate runs wrote.
Usage: python3 seed004_tables.py seed004-table5   (or seed004-table5-bursty)"""
import csv
import sys

# seed 004 Table 5: W base/RR/LC, R base/RR/LC (ms), U base/RR/LC
PAPER = {250: (0.2, 10.5, 0.9, 3.8, 14.1, 4.5, "0.226±0.001", "0.226±0.002", "0.23±0.001"),
         500: (1.8, 33.0, 3.9, 5.4, 36.6, 7.5, "0.453±0.002", "0.453±0.003", "0.453±0.002"),
         750: (49.5, 127.5, 53.1, 53.2, 131.1, 56.7, "0.679±0.001", "0.679±0.004", "0.680±0.001"),
         1000: (849.5, 1112.3, 853.0, 853.1, 1115.9, 856.7, "0.906±0.00", "0.905±0.006", "0.905±0.001"),
         1250: (70084, 70118, 70085, 70087, 70121, 70088, "0.998±0.001", "0.991±0.006", "0.997±0.001")}


def fmt(x):
    x = float(x)
    return f"{x:.0f}" if x >= 1000 else f"{x:.1f}" if x >= 10 else f"{x:.2f}"


def main(run):
    rows = {}
    for r in csv.DictReader(open(f"{run}/results.csv")):
        rows.setdefault(int(float(r["rate"])), {})[r["policy"]] = r
    print("| λ req/s | W oracle: paper / ours | W RR | W LC | R oracle | R RR | R LC |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for lam, p in PAPER.items():
        o, rr, lc = (rows[lam][k] for k in ("oracle-lwl", "round-robin", "least-connections"))
        cells = [f"{p[i]} / {fmt(r[col])}" for i, r, col in
                 ((0, o, "wait_mean_ms"), (1, rr, "wait_mean_ms"), (2, lc, "wait_mean_ms"),
                  (3, o, "resp_mean_ms"), (4, rr, "resp_mean_ms"), (5, lc, "resp_mean_ms"))]
        print(f"| {lam} | " + " | ".join(cells) + " |")
    print()
    print("| λ req/s | W RR/oracle: paper / ours | W LC/oracle | R RR/oracle | R LC/oracle | U RR: paper / ours | U LC |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for lam, p in PAPER.items():
        rr, lc = rows[lam]["round-robin"], rows[lam]["least-connections"]
        u = lambda r: f"{float(r['util_mean']):.3f}±{float(r['util_sd']):.3f}"
        print(f"| {lam} | {p[1] / p[0]:.4g} / {float(rr['wait_ratio_oracle']):.4g} | {p[2] / p[0]:.4g} / "
              f"{float(lc['wait_ratio_oracle']):.4g} | {p[4] / p[3]:.4g} / {float(rr['resp_ratio_oracle']):.4g} | "
              f"{p[5] / p[3]:.4g} / {float(lc['resp_ratio_oracle']):.4g} | {p[7]} / {u(rr)} | {p[8]} / {u(lc)} |")


if __name__ == "__main__":
    main(sys.argv[1])
