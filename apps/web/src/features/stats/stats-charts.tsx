import { useEffect, useRef } from 'react';
import type { HeatCell } from './stats-figures';

/**
 * Charts drawn with Chart.js on a canvas. Each is an image with a text label; the numbers are also in the table
 * next to it, so nothing is only in the picture. Chart.js is imported when a chart first mounts, so it is fetched by
 * the statistics page only.
 */

type ChartInstance = { destroy(): void };

/** Colours with at least 3:1 contrast against the white card (WCAG 1.4.11 for graphics). */
export const chartColours = {
  passed: '#4338ca',
  failed: '#b91c1c',
  due: '#4338ca',
  grid: '#d1d5db',
  text: '#374151',
} as const;

/** Heatmap shades from no reviews to many (the lightest marks an empty day; its border keeps it visible). */
export const heatShades = ['#f3f4f6', '#c7d2fe', '#818cf8', '#4f46e5', '#312e81'] as const;

/** Draws the chart `build` makes, again whenever `key` (the data, serialized) changes. */
function useChart(build: (canvas: HTMLCanvasElement) => Promise<ChartInstance | null>, key: string) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const buildRef = useRef(build);
  buildRef.current = build;
  useEffect(() => {
    const canvas = canvasRef.current;
    if (key === '') return;
    if (!canvas) return;
    let chart: ChartInstance | null = null;
    let cancelled = false;
    // Browsers without a 2D canvas (or test DOMs) keep the table only.
    if (typeof canvas.getContext !== 'function' || !isCanvasSupported(canvas)) return;
    const draw = () =>
      void buildRef.current(canvas).then(
        (made) => {
          if (cancelled) made?.destroy();
          else chart = made;
        },
        () => {},
      );
    // A chart is drawn when it comes near the screen, each in a task of its own, so that opening the page is not
    // one long task drawing charts nobody sees yet.
    const observer =
      typeof IntersectionObserver === 'function'
        ? new IntersectionObserver(
            (entries) => {
              if (!entries.some((entry) => entry.isIntersecting)) return;
              observer?.disconnect();
              draw();
            },
            { rootMargin: '200px 0px' },
          )
        : null;
    if (observer) observer.observe(canvas);
    else draw();
    return () => {
      cancelled = true;
      observer?.disconnect();
      chart?.destroy();
    };
  }, [key]);
  return canvasRef;
}

function isCanvasSupported(canvas: HTMLCanvasElement): boolean {
  try {
    return canvas.getContext('2d') !== null;
  } catch {
    return false;
  }
}

export interface BarSeries {
  label: string;
  values: number[];
  colour: string;
}

export function BarChart({
  labels,
  series,
  label,
  stacked = false,
}: {
  labels: string[];
  series: BarSeries[];
  label: string;
  stacked?: boolean;
}) {
  const key = JSON.stringify([labels, series]);
  const canvasRef = useChart(async (canvas) => {
    const { Chart } = await import('./chart-setup');
    return new Chart(canvas, {
      type: 'bar',
      data: {
        labels,
        datasets: series.map((item) => ({ label: item.label, data: item.values, backgroundColor: item.colour })),
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        scales: {
          x: {
            stacked,
            ticks: { color: chartColours.text, maxRotation: 0, autoSkip: true },
            grid: { display: false },
          },
          y: {
            stacked,
            beginAtZero: true,
            ticks: { color: chartColours.text, precision: 0 },
            grid: { color: chartColours.grid },
          },
        },
        plugins: { tooltip: { enabled: true } },
      },
    });
  }, `${key}${stacked}`);
  return (
    <div className="stats-chart">
      <canvas ref={canvasRef} role="img" aria-label={label} />
    </div>
  );
}

export function Heatmap({ cells, label }: { cells: HeatCell[]; label: string }) {
  const max = Math.max(1, ...cells.map((cell) => cell.v));
  const weeks = Math.max(1, ...cells.map((cell) => cell.x + 1));
  const key = JSON.stringify(cells);
  const canvasRef = useChart(async (canvas) => {
    const { Chart } = await import('./chart-setup');
    const shade = (value: number) =>
      value === 0 ? heatShades[0] : heatShades[Math.min(4, 1 + Math.floor((3.999 * value) / max))];
    return new Chart(canvas, {
      type: 'matrix',
      data: {
        datasets: [
          {
            label: 'Reviews',
            data: cells,
            backgroundColor: (context) => shade((context.raw as HeatCell | undefined)?.v ?? 0),
            borderColor: '#9ca3af',
            borderWidth: 0.5,
            width: ({ chart }) => Math.max(2, (chart.chartArea?.width ?? 0) / weeks - 1),
            height: ({ chart }) => Math.max(2, (chart.chartArea?.height ?? 0) / 7 - 1),
          },
        ],
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        plugins: {
          tooltip: {
            callbacks: {
              title: () => '',
              label: (context) => {
                const cell = context.raw as HeatCell;
                return `${cell.date}: ${cell.v} reviews`;
              },
            },
          },
        },
        scales: {
          x: { type: 'linear', display: false, min: -0.5, max: weeks - 0.5, offset: false },
          y: { type: 'linear', display: false, min: -0.5, max: 6.5, reverse: true, offset: false },
        },
      },
    });
  }, key);
  return (
    <div className="stats-chart stats-chart--heatmap">
      <canvas ref={canvasRef} role="img" aria-label={label} />
    </div>
  );
}
