/*
 * Names and record text come from clients, and a bidirectional control character in them reorders
 * what the eye reads: a group id `invoice\u202Egnp.exe` renders as "invoiceexe.png" (issue #15).
 * The console shows every such character as a visible marker instead, wherever it shows a name.
 */

/**
 * The bidi controls: LRE, RLE, PDF, LRO, RLO (U+202A–202E), LRI, RLI, FSI, PDI (U+2066–2069), the
 * LRM and RLM marks (U+200E, U+200F) and the Arabic letter mark (U+061C).
 */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/** The marker shown in place of one control character, e.g. `⟨U+202E⟩`. */
function marker(character: string): string {
  const code = character.codePointAt(0) ?? 0;
  return `⟨U+${code.toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

/** The text with each bidi control replaced by its visible marker; other text is unchanged. */
export function showBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, marker);
}

/** Whether the text holds any bidi control (the marker shows it, this lets a view say so). */
export function hasBidiControls(text: string): boolean {
  BIDI_CONTROLS.lastIndex = 0;
  const found = BIDI_CONTROLS.test(text);
  BIDI_CONTROLS.lastIndex = 0;
  return found;
}
