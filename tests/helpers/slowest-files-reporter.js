// @ts-check
/**
 * A jest reporter that ends the run with the ten slowest test files and the run's wall time, so a file that
 * has become slow is seen the day it does (the default reporter only names files over a few seconds, one
 * by one, as they finish).
 */

/** @typedef {{ path: string, project: string, seconds: number, tests: number }} FileTiming */

class SlowestFilesReporter {
  /** @param {unknown} _globalConfig @param {{ count?: number }} [options] */
  constructor(_globalConfig, options = {}) {
    this.count = options.count ?? 10;
    /** @type {FileTiming[]} */
    this.files = [];
    this.startedAt = Date.now();
  }

  onRunStart() {
    this.startedAt = Date.now();
  }

  /**
   * @param {{ context: { config: { displayName?: { name: string } | string, rootDir: string } } }} test
   * @param {{ testFilePath: string, perfStats: { start: number, end: number }, numPassingTests: number, numFailingTests: number, numPendingTests: number }} result
   */
  onTestResult(test, result) {
    const name = test.context.config.displayName;
    this.files.push({
      path: result.testFilePath.slice(test.context.config.rootDir.length + 1),
      project: typeof name === 'string' ? name : (name?.name ?? ''),
      seconds: (result.perfStats.end - result.perfStats.start) / 1000,
      tests: result.numPassingTests + result.numFailingTests + result.numPendingTests,
    });
  }

  onRunComplete() {
    const slowest = [...this.files].sort((a, b) => b.seconds - a.seconds).slice(0, this.count);
    const width = Math.max(...slowest.map((f) => f.path.length), 10);
    const lines = slowest.map(
      (f) => `  ${f.seconds.toFixed(1).padStart(6)} s  ${f.path.padEnd(width)}  ${f.project.padEnd(6)} ${String(f.tests).padStart(3)} tests`,
    );
    const total = this.files.reduce((sum, f) => sum + f.seconds, 0);
    /** @type {Map<string, number>} */
    const byProject = new Map();
    for (const f of this.files) byProject.set(f.project, (byProject.get(f.project) ?? 0) + f.seconds);
    const projects = [...byProject].map(([project, seconds]) => `${project} ${seconds.toFixed(0)} s`).join(', ');
    // Every file's time, for comparing two runs file by file (`TEST_TIMINGS=timings.json npm run test:jest`).
    if (process.env.TEST_TIMINGS) require('node:fs').writeFileSync(process.env.TEST_TIMINGS, JSON.stringify(this.files, null, 1));
    const wall = (Date.now() - this.startedAt) / 1000;
    process.stderr.write(
      `\nSlowest ${slowest.length} of ${this.files.length} test files:\n${lines.join('\n')}\n` +
        `  files ran for ${total.toFixed(0)} s in all (${projects}); the run took ${wall.toFixed(0)} s of wall time\n`,
    );
  }
}

module.exports = SlowestFilesReporter;
