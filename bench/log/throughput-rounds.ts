import { join } from 'node:path';
import { type AppendMeasurement, type AppendScenario, measureAppends } from './append';
import type { Budget } from './budget';
import { type FloorMeasurement, measureFloor } from './floor';
import { medianBy } from './median';

export interface AppendScenarioRuns {
  label: string;
  scenario: AppendScenario;
  runs: AppendMeasurement[];
  /** The run with the median MB/s; its latencies are the ones reported. */
  median: AppendMeasurement;
}

export interface ThroughputResults {
  floorRuns: FloorMeasurement[];
  floor: FloorMeasurement;
  appends: AppendScenarioRuns[];
}

function scenarioLabel({ durable, partitionCount }: AppendScenario): string {
  const partitions = `${partitionCount} partition${partitionCount > 1 ? 's' : ''}`;
  return durable ? `append durable (group commit), ${partitions}` : `append flush.ms=100, ${partitions}`;
}

/**
 * Runs the floor and every append scenario `roundCount` times, interleaved (floor, then each
 * scenario, then again), so a slow spell of a shared disk or CPU hits all of them alike, and
 * reports each one's median run.
 */
export async function measureThroughputRounds(
  root: string,
  batch: Buffer,
  scenarios: readonly AppendScenario[],
  budget: Budget,
  roundCount: number,
  progress: (message: string) => void,
): Promise<ThroughputResults> {
  const floorRuns: FloorMeasurement[] = [];
  const appendRuns = scenarios.map(() => [] as AppendMeasurement[]);
  for (let round = 1; round <= roundCount; round++) {
    progress(`throughput round ${round}/${roundCount}: floor`);
    floorRuns.push(await measureFloor(join(root, 'floor.bin'), batch, budget));
    for (const [index, scenario] of scenarios.entries()) {
      progress(`throughput round ${round}/${roundCount}: ${scenarioLabel(scenario)}`);
      appendRuns[index]!.push(await measureAppends(join(root, `append-${index}`), batch, scenario, budget));
    }
  }
  const bytesPerSecond = (run: { bytesPerSecond: number }) => run.bytesPerSecond;
  return {
    floorRuns,
    floor: medianBy(floorRuns, bytesPerSecond)!,
    appends: scenarios.map((scenario, index) => ({
      label: scenarioLabel(scenario),
      scenario,
      runs: appendRuns[index]!,
      median: medianBy(appendRuns[index]!, bytesPerSecond)!,
    })),
  };
}
