import { WeirDescribeBroker } from '@weir/protocol';
import { defineHandler } from '../../handler';
import { NO_ERROR } from './top-level-error';

/** WeirDescribeBroker v0: the overview, read from memory; it has no failure of its own. */
export const weirDescribeBrokerHandler = defineHandler({
  api: WeirDescribeBroker,
  versions: { min: 0, max: 0 },
  async handle(_request, _context, commands) {
    const overview = commands.overview.describeBroker();
    return {
      ...NO_ERROR,
      ...overview,
      startedAtMs: BigInt(overview.startedAtMs),
      listeners: [...overview.listeners],
      checks: [...overview.checks],
      throughput: { ...overview.throughput },
    };
  },
});
