/** The console benchmark's workload and the targets, shared by its measurements. */

export const TOPIC_COUNT = 5000;
export const MESSAGE_TOPIC = 'bench-messages';
export const MESSAGE_PARTITIONS = 6;
export const RECORD_COUNT = 1_000_000;
export const VALUE_BYTES = 100;
export const PAGE_SIZE = 50;
export const HTTP_CALLS = 30;
export const RENDER_RUNS = 6;
/** Each character narrows the list (topic names have digits only in their index). */
export const SEARCHES = ['4217', '3981', '1065'];
export const FIRST_ROWS_RUNS = 5;
export const SCAN_RUNS = 3;
/** When, after the first progress event, each cancel run aborts: spread over a 100 ms step. */
export const CANCEL_DELAYS_MS = [10, 55, 100, 145, 190];
/** The record a key filter looks for: among the last written, so near the end of its partition. */
export const NEEDLE_INDEX = RECORD_COUNT - 10;

export const FIRST_RENDER_TARGET_MS = 1000;
export const KEYSTROKE_TARGET_MS = 300;
export const SCAN_TARGET_PER_SECOND = 500_000;
export const CANCEL_TARGET_MS = 200;
