import { parseArgs } from 'node:util';
import { numberFromEnvironment } from '../broker/bench-config';
import { FAULT_KINDS, type FaultKind } from './fault-kinds';

/**
 * The cluster soak's settings (read here and nowhere else in the soak): flags first, then the
 * environment, then the defaults of issue 17's "longer run" (100 rounds over about 30 minutes).
 *
 *   --rounds N    / SOAK_ROUNDS     rounds of one fault each (default 100)
 *   --minutes M   / SOAK_MINUTES    the rounds are spread over this long: a round that heals
 *                                   early waits under the workload until its slot ends (default 30;
 *                                   rounds that take longer than their slot just run late)
 *   --faults LIST / SOAK_FAULTS     comma list of fault kinds to mix (default: all of them)
 */
export interface SoakConfig {
  rounds: number;
  minutes: number;
  faults: readonly FaultKind[];
}

/** The settings as the environment a child run reads them from (run-soak.ts passes the flags on so). */
export function soakEnvironment(config: SoakConfig): Record<string, string> {
  return {
    SOAK_ROUNDS: String(config.rounds),
    SOAK_MINUTES: String(config.minutes),
    SOAK_FAULTS: config.faults.join(','),
  };
}

export function soakConfig(argv: readonly string[]): SoakConfig {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      rounds: { type: 'string' },
      minutes: { type: 'string' },
      faults: { type: 'string' },
    },
    strict: true,
  });
  const rounds = Math.round(positive('--rounds', values.rounds) ?? numberFromEnvironment('SOAK_ROUNDS', 100));
  const minutes = positive('--minutes', values.minutes) ?? numberFromEnvironment('SOAK_MINUTES', 30);
  return { rounds, minutes, faults: faultKinds(values.faults ?? process.env.SOAK_FAULTS) };
}

function positive(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!(value > 0)) throw new Error(`${flag} must be a positive number, got ${text}`);
  return value;
}

function faultKinds(text: string | undefined): readonly FaultKind[] {
  if (text === undefined || text === '') return FAULT_KINDS;
  const wanted = text.split(',').map((part) => part.trim());
  for (const kind of wanted) {
    if (!(FAULT_KINDS as readonly string[]).includes(kind))
      throw new Error(`unknown fault kind "${kind}" (known: ${FAULT_KINDS.join(', ')})`);
  }
  return wanted as FaultKind[];
}
