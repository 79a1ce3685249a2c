// One plot = one echarts option rendered server-side to an SVG string (no DOM, no animation), so the
// report embeds finished pictures and opens offline with no script at all.
import * as echarts from "echarts";

export type ChartOption = echarts.EChartsOption;

export interface Figure {
  id: string;
  title: string;
  caption: string;
  svg: string;
}

export const CHART_WIDTH = 640;
export const CHART_HEIGHT = 360;

export function renderChart(option: ChartOption, width = CHART_WIDTH, height = CHART_HEIGHT): string {
  const chart = echarts.init(null, null, { renderer: "svg", ssr: true, width, height });
  try {
    chart.setOption({ animation: false, backgroundColor: "#ffffff", textStyle: { fontFamily: "sans-serif" }, ...option });
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

export const COLORS = { main: "#2563eb", target: "#6b7280", band: "rgba(37,99,235,0.15)", bad: "#dc2626", good: "#16a34a" };

/** Rounds for display in tooltips and labels. */
export const fmt = (x: number, digits = 3) => Number(x.toFixed(digits));
