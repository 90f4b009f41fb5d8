import { performance } from 'node:perf_hooks';
import { type Browser, chromium, devices, type Page } from '@playwright/test';
import { PAGE_PROBE_SCRIPT } from './page-probe';
import { fetchTopicPage } from './topic-list-http';

/** Debian's Chromium with the flags of playwright.config.ts; Playwright's download is never used. */
const CHROMIUM_PATH = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const WAIT_MS = 15_000;

/**
 * Chromium in its own process group. Playwright kills that group when this process exits, however
 * it exits, so the watchdog's `process.exit` takes the browser down too.
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/**
 * A fresh context (no cache, no cookies) with the probe installed: a first visit. The console's
 * Content-Security-Policy forbids evaluating strings, which is how the probes' waits run in the
 * page, so the measuring contexts bypass it; the pages' own scripts are the same either way.
 */
async function freshPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ ...devices['Desktop Chrome'], bypassCSP: true });
  await context.addInitScript({ content: PAGE_PROBE_SCRIPT });
  return context.newPage();
}

export interface FirstRender {
  /** Navigation start → the first topic row painted, by the page's clock. */
  paintedMs: number;
  /** Navigation start → the first byte of the HTML. */
  responseStartMs: number;
  /** Navigation start → the page's `topics.list` request going out, and its response complete. */
  listRequestMs: number;
  listResponseMs: number;
  /** `page.goto` → the probe reporting the painted row, by this process's clock. */
  wallMs: number;
}

/** Opens /topics in a fresh context and times its first row. */
export async function timeFirstRender(browser: Browser, consoleUrl: string): Promise<FirstRender> {
  const page = await freshPage(browser);
  try {
    const startMs = performance.now();
    await page.goto(`${consoleUrl}/topics`, { waitUntil: 'commit' });
    await page.waitForFunction('window.__weirBench.firstRowPaintedAt !== undefined', undefined, {
      timeout: WAIT_MS,
      polling: 'raf',
    });
    const wallMs = performance.now() - startMs;
    // Resource timing splits the wait: booting the page's scripts, then the data request.
    const [paintedMs, responseStartMs, listRequestMs, listResponseMs] = (await page.evaluate(`(() => {
      const list = performance.getEntriesByType('resource').find((entry) => entry.name.includes('topics.list'));
      return [
        window.__weirBench.firstRowPaintedAt,
        performance.getEntriesByType('navigation')[0].responseStart,
        list ? list.startTime : Number.NaN,
        list ? list.responseEnd : Number.NaN,
      ];
    })()`)) as [number, number, number, number];
    return { paintedMs, responseStartMs, listRequestMs, listResponseMs, wallMs };
  } finally {
    await page.context().close();
  }
}

/**
 * Types each search string into the topic search box one character at a time and times every
 * keystroke until the table shows the page the gateway answers for that prefix (fetched first,
 * over HTTP, as the reference). A keystroke that would not change the table cannot be timed and
 * fails the run, so the search strings must be chosen to narrow the list at every character.
 */
export async function timeSearchKeystrokes(
  browser: Browser,
  consoleUrl: string,
  searches: readonly string[],
  pageSize: number,
): Promise<number[]> {
  const page = await freshPage(browser);
  const timesMs: number[] = [];
  try {
    await page.goto(`${consoleUrl}/topics`);
    await page.waitForFunction('window.__weirBench.firstRowPaintedAt !== undefined', undefined, {
      timeout: WAIT_MS,
    });
    const box = page.getByLabel('Search topics');
    const names = async (search: string | undefined): Promise<string[]> => {
      const answer = await fetchTopicPage(consoleUrl, {
        ...(search ? { search } : {}),
        offset: 0,
        limit: pageSize,
      });
      return answer.topics.map((topic) => topic.name);
    };
    for (const search of searches) {
      // Back to the unfiltered list; arm() checks at once, so an already empty box passes too.
      let previous = await names(undefined);
      await page.evaluate(`window.__weirBench.arm(${JSON.stringify(previous)})`);
      await box.fill('');
      await page.waitForFunction('window.__weirBench.matchedAt !== undefined', undefined, {
        timeout: WAIT_MS,
      });
      for (let length = 1; length <= search.length; length++) {
        const prefix = search.slice(0, length);
        const expected = await names(prefix);
        if (JSON.stringify(expected) === JSON.stringify(previous)) {
          throw new Error(`typing "${prefix}" would not change the topic table; pick other search strings`);
        }
        previous = expected;
        await page.evaluate(`window.__weirBench.arm(${JSON.stringify(expected)})`);
        await page.keyboard.type(search[length - 1]!);
        await page.waitForFunction('window.__weirBench.paintedAt !== undefined', undefined, {
          timeout: WAIT_MS,
        });
        timesMs.push(
          (await page.evaluate('window.__weirBench.paintedAt - window.__weirBench.keyAt')) as number,
        );
      }
    }
    return timesMs;
  } finally {
    await page.context().close();
  }
}
