import { spawn } from 'node:child_process';
import type { Browser, Page } from '@playwright/test';
import { Admin, Client } from '@weir/protocol';
import { formatCount } from '../harness/table';
import type { Row } from './rows';
import { formatMs, quantile, sleep } from './stats';

/*
 * Live tail latency: kcat produces records whose value carries the time it was handed to kcat,
 * at a steady rate, while the console's message page tails the topic; the page reports the time
 * each row appears in its table. Both clocks are this machine's wall clock. The server caps the
 * rows it sends (it skips records to stay live), so latency is measured on the rows shown.
 */

export const TAIL_TOPIC = 'bench-tail';
const TAIL_PARTITIONS = 3;
const TAIL_RATE_PER_SECOND = 1000;
const TAIL_SECONDS = 15;
/** The first rows include the page settling after it connects; they are not measured. */
const WARMUP_SECONDS = 2;
export const TAIL_P99_TARGET_MS = 500;

/**
 * Installed before the page loads, so it observes the document (there is no body yet): each new
 * table row's sent time and the time it was added.
 */
const ROW_WATCH_SCRIPT = `
  window.__weirTail = [];
  new MutationObserver((mutations) => {
    const at = Date.now();
    for (const mutation of mutations) {
      for (const node of mutation.addedNodes) {
        if (node.nodeName !== 'TR') continue;
        const match = /sent=(\\d+)/.exec(node.textContent || '');
        if (match) window.__weirTail.push([Number(match[1]), at]);
      }
    }
  }).observe(document, { childList: true, subtree: true });
`;

const SETTLED_AFTER_MS = 300;
const SETTLE_DEADLINE_MS = 5_000;

async function rowsSettled(page: Page): Promise<void> {
  const deadlineMs = Date.now() + SETTLE_DEADLINE_MS;
  let count = -1;
  let unchangedSinceMs = Date.now();
  while (Date.now() < deadlineMs) {
    const now = (await page.evaluate('window.__weirTail.length')) as number;
    if (now !== count) {
      count = now;
      unchangedSinceMs = Date.now();
    } else if (Date.now() - unchangedSinceMs >= SETTLED_AFTER_MS) {
      return;
    }
    await sleep(50);
  }
}

/** Runs kcat -P with its stdin open; `write` hands it lines, `end` closes stdin and waits. */
function startKcatProducer(bootstrap: string, topic: string) {
  const child = spawn(
    'kcat',
    ['-P', '-b', bootstrap, '-t', topic, '-X', 'linger.ms=0', '-X', 'socket.nagle.disable=true'],
    { stdio: ['pipe', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-2000);
  });
  const exited = new Promise<void>((resolve, reject) => {
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`kcat exited with ${code}: ${stderr}`)),
    );
  });
  return {
    write: (lines: string) => child.stdin.write(lines),
    end: async () => {
      child.stdin.end();
      await exited;
    },
  };
}

export async function liveTailRows(browser: Browser, consoleUrl: string, bootstrap: string): Promise<Row[]> {
  const client = new Client({ bootstrapServers: [bootstrap] });
  try {
    await new Admin(client).createTopics([{ name: TAIL_TOPIC, partitions: TAIL_PARTITIONS }]);
  } finally {
    await client.close();
  }
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
  await context.addInitScript({ content: ROW_WATCH_SCRIPT });
  const page = await context.newPage();
  try {
    await page.goto(`${consoleUrl}/topics/${TAIL_TOPIC}/messages?start=end`);
    await page.getByRole('status', { name: 'Tail status' }).filter({ hasText: 'Live' }).waitFor();
    const producer = startKcatProducer(bootstrap, TAIL_TOPIC);
    const startedMs = Date.now();
    let sent = 0;
    // Every 10 ms, the records due by now: a steady rate however late a tick runs.
    while (Date.now() - startedMs < TAIL_SECONDS * 1000) {
      const due = Math.floor(((Date.now() - startedMs) / 1000) * TAIL_RATE_PER_SECOND);
      let lines = '';
      for (; sent < due; sent++) lines += `sent=${Date.now()} index=${sent}\n`;
      if (lines !== '') producer.write(lines);
      await sleep(10);
    }
    await producer.end();
    // Rows still on their way: poll until the page's row count stops growing (no new row for three
    // of the tail's 100 ms rounds), within a few seconds.
    await rowsSettled(page);
    const seen = (await page.evaluate('window.__weirTail')) as [sentMs: number, shownMs: number][];
    const measured = seen
      .filter(([sentMs]) => sentMs >= startedMs + WARMUP_SECONDS * 1000)
      .map(([sentMs, shownMs]) => shownMs - sentMs);
    const p50 = quantile(measured, 0.5);
    const p99 = quantile(measured, 0.99);
    const rate = `${formatCount(TAIL_RATE_PER_SECOND)} records/s by kcat for ${TAIL_SECONDS} s`;
    return [
      [
        `live tail: kcat produce → row in the browser, p50 (${rate})`,
        formatMs(p50),
        '(none named; for reference)',
        '',
      ],
      [
        `live tail: kcat produce → row in the browser, p99 (${formatCount(measured.length)} rows shown of ${formatCount(sent)} sent; the tail skips records above its row rate)`,
        formatMs(p99),
        `p99 < ${TAIL_P99_TARGET_MS} ms`,
        measured.length > 0 && p99 < TAIL_P99_TARGET_MS ? 'met' : 'MISSED',
      ],
    ];
  } finally {
    await context.close();
  }
}
