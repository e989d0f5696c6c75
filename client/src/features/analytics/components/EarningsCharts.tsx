/**
 * The earnings charts, drawn by Chart.js (a maintained library, registered piece by piece so that only the doughnut
 * and line charts ship: about 62 KB gzipped, in the lazy chunks of the analytics modal and page only). Each chart is
 * a canvas named for screen readers by a one-line summary, with the same figures as a table under "Table view".
 */
import { useEffect, useRef } from 'react';
import {
  ArcElement,
  CategoryScale,
  Chart,
  DoughnutController,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartConfiguration,
  type ChartType,
} from 'chart.js';
import type { GetEarningsAnalyticsResult } from '../../../api/generated/operations';
import { formatUsd } from '../../../components/format';

Chart.register(DoughnutController, ArcElement, LineController, LineElement, PointElement, LinearScale, CategoryScale, Tooltip, Legend);

/** The four chart colours: the brand's and the three content types' (each at least 3:1 against white). */
export const CHART_COLORS = ['#5b3cf5', '#d42f32', '#17834a', '#c05000'] as const;

type Figures = GetEarningsAnalyticsResult;

/** A day as the charts label it: `Nov 21`. */
export const dayLabel = (day: string) => new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** Whether the visitor asked their system for less motion: the charts then draw at once, without animating. */
const reducedMotion = () => typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/** A Chart.js chart on a canvas, made once and given new data as `config` changes. */
function useChart<Type extends ChartType>(config: ChartConfiguration<Type>) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<Chart<Type> | null>(null);
  useEffect(() => {
    const context = canvas.current?.getContext('2d');
    // No 2D context (a browser without canvas, a test's document): the table view carries the figures.
    if (!context) return undefined;
    if (reducedMotion()) Chart.defaults.animation = false;
    chart.current = new Chart(context, config);
    return () => {
      chart.current?.destroy();
      chart.current = null;
    };
    // Made once per kind of chart; the effect below gives it new figures.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [config.type]);
  useEffect(() => {
    if (!chart.current) return;
    chart.current.data = config.data;
    if (config.options) chart.current.options = config.options;
    chart.current.update();
  }, [config]);
  return canvas;
}

function TableView({ caption, children }: { caption: string; children: React.ReactNode }) {
  return (
    <details className="kn-chart__table">
      <summary>Table view</summary>
      <table>
        <caption>{caption}</caption>
        {children}
      </table>
    </details>
  );
}

/** The member's earnings by tag: the three that earned most and the rest as Other. */
export function EarningsDonut({ figures, categoryLabel }: { figures: Figures; categoryLabel: string }) {
  const slices = figures.byTag;
  const canvas = useChart<'doughnut'>({
    type: 'doughnut',
    data: {
      labels: slices.map((slice) => slice.label),
      datasets: [{ data: slices.map((slice) => slice.earned), backgroundColor: slices.map((_, i) => CHART_COLORS[i % CHART_COLORS.length]!), borderWidth: 1 }],
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      cutout: '62%',
      plugins: {
        legend: { position: 'bottom' },
        tooltip: { callbacks: { label: (item) => `${item.label}: ${formatUsd(Number(item.raw))}` } },
      },
    },
  });
  const summary = slices.length
    ? `${categoryLabel} earnings by tag: ${slices.map((slice) => `${slice.label} ${formatUsd(slice.earned)} (${slice.share}%)`).join(', ')}.`
    : `No ${categoryLabel} earnings in this period.`;
  return (
    <figure className="kn-chart kn-chart--donut">
      <figcaption className="kn-chart__title">Earnings by tag</figcaption>
      {slices.length ? (
        <div className="kn-chart__canvas">
          <canvas ref={canvas} role="img" aria-label={summary} />
        </div>
      ) : (
        <p className="kn-chart__empty">{summary}</p>
      )}
      <TableView caption={`${categoryLabel} earnings by tag`}>
        <thead>
          <tr>
            <th scope="col">Tag</th>
            <th scope="col">Earned</th>
            <th scope="col">Knacks</th>
            <th scope="col">Share</th>
          </tr>
        </thead>
        <tbody>
          {slices.map((slice) => (
            <tr key={slice.tagId ?? 'other'}>
              <th scope="row">{slice.label}</th>
              <td>{formatUsd(slice.earned)}</td>
              <td>{slice.knacks}</td>
              <td>{slice.share}%</td>
            </tr>
          ))}
        </tbody>
      </TableView>
    </figure>
  );
}

/** The member's earnings each day, and the chosen tag's price at each day's end. */
export function EarningsLine({ figures, categoryLabel }: { figures: Figures; categoryLabel: string }) {
  const tagLabel = figures.tag?.label ?? 'Tag';
  const canvas = useChart<'line'>({
    type: 'line',
    data: {
      labels: figures.days.map((day) => dayLabel(day.day)),
      datasets: [
        {
          label: `Your ${categoryLabel} earnings`,
          data: figures.days.map((day) => day.earned),
          borderColor: CHART_COLORS[0],
          backgroundColor: CHART_COLORS[0],
          yAxisID: 'earned',
          tension: 0.25,
        },
        {
          label: `${tagLabel} price`,
          data: figures.days.map((day) => day.tagPrice),
          borderColor: CHART_COLORS[3],
          backgroundColor: CHART_COLORS[3],
          yAxisID: 'price',
          borderDash: [6, 4],
          tension: 0.25,
        },
      ],
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      interaction: { mode: 'index', intersect: false },
      scales: {
        earned: { type: 'linear', position: 'left', beginAtZero: true, ticks: { callback: (value) => formatUsd(Number(value)) } },
        price: { type: 'linear', position: 'right', grid: { drawOnChartArea: false }, ticks: { callback: (value) => formatUsd(Number(value), 4) } },
      },
      plugins: {
        legend: { position: 'bottom' },
        tooltip: { callbacks: { label: (item) => `${item.dataset.label}: ${formatUsd(Number(item.raw), item.dataset.yAxisID === 'price' ? 4 : 2)}` } },
      },
    },
  });
  const first = figures.days[0];
  const last = figures.days[figures.days.length - 1];
  const summary = `${categoryLabel} earnings from ${first ? dayLabel(first.day) : ''} to ${last ? dayLabel(last.day) : ''}: ${formatUsd(figures.earned)} in all; ${tagLabel} price ${first?.tagPrice != null ? formatUsd(first.tagPrice, 4) : '—'} then ${last?.tagPrice != null ? formatUsd(last.tagPrice, 4) : '—'}.`;
  return (
    <figure className="kn-chart kn-chart--line">
      <figcaption className="kn-chart__title">Earnings and {tagLabel} price by day</figcaption>
      <div className="kn-chart__canvas">
        <canvas ref={canvas} role="img" aria-label={summary} />
      </div>
      <TableView caption={`${categoryLabel} earnings and ${tagLabel} price by day`}>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Earned</th>
            <th scope="col">Knacks</th>
            <th scope="col">{tagLabel} price</th>
          </tr>
        </thead>
        <tbody>
          {figures.days.map((day) => (
            <tr key={day.day}>
              <th scope="row">{dayLabel(day.day)}</th>
              <td>{formatUsd(day.earned)}</td>
              <td>{day.knacks}</td>
              <td>{day.tagPrice == null ? '—' : formatUsd(day.tagPrice, 4)}</td>
            </tr>
          ))}
        </tbody>
      </TableView>
    </figure>
  );
}
