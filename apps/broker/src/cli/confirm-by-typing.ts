import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';

/**
 * Asks the user to type `expected` and resolves with whether they did. Typing a name, rather than
 * answering y/n, makes a reflexive "y" to the wrong prompt impossible. End of input counts as no.
 */
export function confirmByTyping(
  prompt: string,
  expected: string,
  io: { input: Readable & { isTTY?: boolean }; output: Writable },
): Promise<boolean> {
  return new Promise((resolve) => {
    const lines = createInterface({ input: io.input, output: io.output, terminal: io.input.isTTY === true });
    let answer: string | undefined;
    lines.once('close', () => {
      // Ctrl-D leaves the cursor after the prompt; end that line before anything else is printed.
      if (answer === undefined) io.output.write('\n');
      resolve(answer?.trim() === expected);
    });
    // On a terminal readline reads Ctrl-C as a key, not a signal; without this it would only pause.
    lines.once('SIGINT', () => lines.close());
    lines.question(prompt, (text) => {
      answer = text;
      lines.close();
    });
  });
}
