import type { Page, TestInfo } from '@playwright/test';

/**
 * Saves the page in light and dark mode as test artifacts (files in the test's output directory,
 * also attached to the report), so contrast problems in either theme can be reviewed by eye.
 * The theme is switched through the class the console's toggle uses, without reloading.
 */
export async function screenshotBothThemes(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), theme === 'dark');
    const path = testInfo.outputPath(`${name}-${theme}.png`);
    await page.screenshot({ path, fullPage: true });
    await testInfo.attach(`${name}-${theme}`, { path, contentType: 'image/png' });
  }
}
