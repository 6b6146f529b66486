import { useEffect, useRef } from 'react';
import type { HeatCell } from './stats-figures';

/**
 * Charts drawn on a canvas: the bar charts with Chart.js, the heatmap by hand. Each is an image with a text label;
 * the numbers are also in the table next to it, so nothing is only in the picture. Chart.js is imported when a bar
 * chart first comes on screen, so it is fetched by the statistics page only.
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
    // A chart is drawn when it comes on screen, each in a task of its own, so that opening the page is not one long
    // task drawing charts nobody sees yet.
    const observer =
      typeof IntersectionObserver === 'function'
        ? new IntersectionObserver(
            (entries) => {
              if (!entries.some((entry) => entry.isIntersecting)) return;
              observer?.disconnect();
              draw();
            },
            // Only once actually on screen: on a phone the bar charts start below the first screen, so opening the
            // page loads no chart code at all.
            { rootMargin: '0px' },
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

/**
 * The year's heatmap, 53 weeks of 7 squares drawn straight on the canvas: a few hundred rectangles need no charting
 * library, so the page's first screen does not wait for Chart.js to load and lay them out. Hovering a square names
 * its day (the canvas's title).
 */
export function Heatmap({ cells, label }: { cells: HeatCell[]; label: string }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const cellsRef = useRef(cells);
  cellsRef.current = cells;
  const key = JSON.stringify(cells);
  useEffect(() => {
    const canvas = canvasRef.current;
    const box = canvas?.parentElement;
    if (!canvas || !box || key === '') return;
    // Browsers without a 2D canvas (or test DOMs) keep the table only.
    if (typeof canvas.getContext !== 'function' || !isCanvasSupported(canvas)) return;
    const draw = () => drawHeatmap(canvas, box, cellsRef.current);
    draw();
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(draw) : null;
    observer?.observe(box);
    return () => observer?.disconnect();
  }, [key]);
  return (
    <div className="stats-chart stats-chart--heatmap">
      <canvas
        ref={canvasRef}
        role="img"
        aria-label={label}
        onMouseMove={(event) => {
          const cell = heatCellAt(event.currentTarget, cellsRef.current, event.clientX, event.clientY);
          event.currentTarget.title = cell ? `${cell.date}: ${cell.v} reviews` : '';
        }}
      />
    </div>
  );
}

const weeksOf = (cells: HeatCell[]) => Math.max(1, ...cells.map((cell) => cell.x + 1));

function drawHeatmap(canvas: HTMLCanvasElement, box: HTMLElement, cells: HeatCell[]): void {
  const context = canvas.getContext('2d');
  if (!context) return;
  const { width, height } = box.getBoundingClientRect();
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  canvas.style.width = `${width}px`;
  canvas.style.height = `${height}px`;
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  context.clearRect(0, 0, width, height);
  const max = Math.max(1, ...cells.map((cell) => cell.v));
  const cellWidth = width / weeksOf(cells);
  const cellHeight = height / 7;
  context.strokeStyle = '#9ca3af';
  context.lineWidth = 0.5;
  for (const cell of cells) {
    context.fillStyle =
      cell.v === 0 ? heatShades[0] : (heatShades[Math.min(4, 1 + Math.floor((3.999 * cell.v) / max))] ?? heatShades[4]);
    const x = cell.x * cellWidth + 0.5;
    const y = cell.y * cellHeight + 0.5;
    const w = Math.max(2, cellWidth - 1);
    const h = Math.max(2, cellHeight - 1);
    context.fillRect(x, y, w, h);
    context.strokeRect(x, y, w, h);
  }
}

/** The square under a point of the screen, if any. */
function heatCellAt(canvas: HTMLCanvasElement, cells: HeatCell[], clientX: number, clientY: number) {
  const rect = canvas.getBoundingClientRect();
  if (rect.width === 0 || rect.height === 0) return undefined;
  const x = Math.floor(((clientX - rect.left) / rect.width) * weeksOf(cells));
  const y = Math.floor(((clientY - rect.top) / rect.height) * 7);
  return cells.find((cell) => cell.x === x && cell.y === y);
}
