// How many options the service's sets held on the test split.
import type { RunSummary } from "../summary.js";
import { COLORS, type ChartOption } from "./chart.js";

export function setSizeChart(s: RunSummary): ChartOption {
  const max = Math.max(0, ...s.test.setSizes.map((b) => b.size));
  // From 0 when a set came out empty (LAC can), else from 1 (an interval always holds a level).
  const min = Math.min(1, ...s.test.setSizes.map((b) => b.size));
  const sizes = Array.from({ length: max - min + 1 }, (_, i) => min + i);
  const count = new Map(s.test.setSizes.map((b) => [b.size, b.count]));
  return {
    grid: { left: 60, right: 24, top: 30, bottom: 50 },
    xAxis: { type: "category", name: s.queryType === "interval" ? "interval size (levels)" : "set size", nameLocation: "middle", nameGap: 30, data: sizes.map(String) },
    yAxis: { type: "value", name: "test items" },
    series: [
      {
        type: "bar", data: sizes.map((k) => count.get(k) ?? 0), color: COLORS.main,
        label: { show: true, position: "top" }, barMaxWidth: 60,
      },
    ],
  };
}
