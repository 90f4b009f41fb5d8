/**
 * Installed in every page before the console's own scripts (Playwright `addInitScript`), so its
 * clock is the page's: `performance.now()` counts from navigation start. It watches the topics
 * table and notes when the first row appears, and, after `arm(expected)`, when the table shows
 * exactly the expected page; each time also one frame later (requestAnimationFrame, then a task),
 * when that DOM has been painted. Keystrokes are stamped in the capture phase, before React sees
 * them. It is a string because the benchmark's TypeScript project has no DOM types.
 */
export const PAGE_PROBE_SCRIPT = `(() => {
  const state = {
    firstRowAt: undefined,
    firstRowPaintedAt: undefined,
    keyAt: undefined,
    expected: undefined,
    matchedAt: undefined,
    paintedAt: undefined,
  };
  const afterPaint = (set) => requestAnimationFrame(() => setTimeout(() => set(performance.now()), 0));
  const rowNames = () =>
    Array.from(
      document.querySelectorAll('table[aria-label="Topics"] tbody tr a[href^="/topics/"]'),
      (link) => link.textContent,
    );
  const check = () => {
    const names = rowNames();
    if (state.firstRowAt === undefined && names.length > 0) {
      state.firstRowAt = performance.now();
      afterPaint((at) => { state.firstRowPaintedAt = at; });
    }
    const expected = state.expected;
    if (
      expected !== undefined &&
      state.matchedAt === undefined &&
      names.length === expected.length &&
      names.every((name, index) => name === expected[index])
    ) {
      state.matchedAt = performance.now();
      afterPaint((at) => { state.paintedAt = at; });
    }
  };
  state.arm = (expected) => {
    state.expected = expected;
    state.keyAt = undefined;
    state.matchedAt = undefined;
    state.paintedAt = undefined;
    check();
  };
  window.__weirBench = state;
  new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
  document.addEventListener('keydown', () => { state.keyAt = performance.now(); }, true);
})();`;
