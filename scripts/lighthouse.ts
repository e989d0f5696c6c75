/**
 * `npm run lighthouse`: Lighthouse over the built product as `npm start` serves it (a fresh data folder, the demo
 * catalogue seeded), in Debian's Chromium with the e2e suite's flags. For each page and preset it runs
 * LIGHTHOUSE_RUNS times (default 3) and prints every run and the median: performance, LCP, CLS, TBT, the longest
 * main-thread task, accessibility, and the scripts the page loaded (requests and bytes transferred).
 *
 * Pages: LIGHTHOUSE_PAGES (default: the landing page, Explore, an artist's profile and a shared piece of the demo
 * catalogue, How It Works and a blog post); presets: LIGHTHOUSE_PRESETS (default `mobile`; `mobile,desktop` for both). Against a
 * server already running: LIGHTHOUSE_URL (then nothing is started). Not part of `npm test`: a run takes minutes
 * and its figures vary with the machine.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../server/db/embedded';
import { CHROMIUM, CHROMIUM_FLAGS } from './chromium';

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const DEMO_PAGES = '/,/explore,/nora_vale,/nora_vale-blue-jazz-night,/become,/blog/how-knack-works';
const PAGES = (process.env.LIGHTHOUSE_PAGES ?? DEMO_PAGES).split(',').map((page) => page.trim());
const PRESETS = (process.env.LIGHTHOUSE_PRESETS ?? 'mobile').split(',').map((preset) => preset.trim()) as ('mobile' | 'desktop')[];
const ROOT = path.resolve(__dirname, '..');

interface Run {
  performance: number;
  accessibility: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  /** The longest main-thread task (Lighthouse's long-tasks diagnostic, on its slowed CPU). */
  longestTaskMs: number;
  scripts: number;
  scriptKb: number;
  /** The accessibility audits that failed, by id (what to fix when the score is under 100). */
  failedAccessibility: string[];
  /** The three longest tasks, as "duration ms (script or other work)": where to look next. */
  longTasks: string[];
}

/** The built server on a fresh data folder, answering once the demo catalogue is in the feed. */
async function startProduct(): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'knack-lighthouse-'));
  const server = spawn(process.execPath, [path.join(ROOT, 'dist/server/index.js')], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    const feed = await fetch(`${url}/api/v2/content/get-featured`).then(
      (res) => (res.ok ? (res.json() as Promise<{ contents: unknown[] }>) : null),
      () => null,
    );
    if (feed?.contents.length) break;
    if (Date.now() > deadline) throw new Error('the demo catalogue was not served within 3 minutes');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return {
    url,
    stop: () => {
      server.kill();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

interface Audit {
  numericValue?: number;
  details?: { items?: { resourceType?: string; transferSize?: number; duration?: number; url?: string }[] };
}

async function measure(url: string, preset: 'mobile' | 'desktop'): Promise<Run> {
  const { default: lighthouse } = await import('lighthouse');
  const { launch } = await import('chrome-launcher');
  const desktop = (await import('lighthouse/core/config/desktop-config.js')).default;
  const chrome = await launch({ chromePath: CHROMIUM, chromeFlags: CHROMIUM_FLAGS });
  try {
    const result = await lighthouse(
      url,
      { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'] },
      preset === 'desktop' ? desktop : undefined,
    );
    const lhr = result!.lhr;
    // A run Lighthouse could not score (no paint seen, a protocol timeout) says why rather than scoring 0 in silence.
    if (lhr.runtimeError) console.log(`${''.padEnd(28)} Lighthouse error: ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    for (const warning of lhr.runWarnings) console.log(`${''.padEnd(28)} Lighthouse warning: ${warning}`);
    const audit = (id: string) => lhr.audits[id] as Audit;
    const scripts = (audit('network-requests').details?.items ?? []).filter((item) => item.resourceType === 'Script');
    return {
      performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
      lcpMs: Math.round(audit('largest-contentful-paint').numericValue ?? 0),
      cls: Number((audit('cumulative-layout-shift').numericValue ?? 0).toFixed(3)),
      tbtMs: Math.round(audit('total-blocking-time').numericValue ?? 0),
      longestTaskMs: Math.round(Math.max(0, ...(audit('long-tasks').details?.items ?? []).map((item) => item.duration ?? 0))),
      scripts: scripts.length,
      scriptKb: Math.round(scripts.reduce((sum, item) => sum + (item.transferSize ?? 0), 0) / 1024),
      failedAccessibility: (lhr.categories.accessibility?.auditRefs ?? []).map((ref) => ref.id).filter((id) => lhr.audits[id]?.score === 0),
      longTasks: (audit('long-tasks').details?.items ?? [])
        .slice()
        .sort((a, b) => (b.duration ?? 0) - (a.duration ?? 0))
        .slice(0, 3)
        .map((item) => `${Math.round(item.duration ?? 0)} ms (${item.url?.split('/').pop() || 'other work'})`),
    };
  } finally {
    chrome.kill();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const row = (label: string, run: Run) =>
  `${label.padEnd(28)} perf ${String(run.performance).padStart(3)}  a11y ${String(run.accessibility).padStart(3)}${run.failedAccessibility.length ? ` (failed: ${run.failedAccessibility.join(', ')})` : ''}  LCP ${String(run.lcpMs).padStart(5)} ms  CLS ${run.cls.toFixed(3)}  TBT ${String(run.tbtMs).padStart(5)} ms  longest task ${String(run.longestTaskMs).padStart(4)} ms  scripts ${run.scripts} (${run.scriptKb} KB)`;

async function main() {
  const product = process.env.LIGHTHOUSE_URL ? { url: process.env.LIGHTHOUSE_URL.replace(/\/$/, ''), stop: () => undefined } : await startProduct();
  try {
    for (const page of PAGES) {
      for (const preset of PRESETS) {
        const runs: Run[] = [];
        for (let i = 0; i < RUNS; i += 1) {
          const run = await measure(product.url + page, preset);
          runs.push(run);
          console.log(row(`${page} ${preset} run ${i + 1}`, run));
          if (run.longTasks.length) console.log(`${''.padEnd(28)} longest tasks: ${run.longTasks.join(', ')}`);
        }
        const figures = (Object.keys(runs[0]!) as (keyof Run)[]).filter((key) => typeof runs[0]![key] === 'number');
        const middle: Run = {
          ...runs[0]!,
          ...Object.fromEntries(figures.map((key) => [key, median(runs.map((run) => run[key] as number))])),
          failedAccessibility: [...new Set(runs.flatMap((run) => run.failedAccessibility))],
          longTasks: [],
        };
        console.log(row(`${page} ${preset} MEDIAN`, middle));
      }
    }
  } finally {
    product.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
