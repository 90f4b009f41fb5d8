import { type FloorMeasurement, measureFloor } from '../log/floor';
import { KIB } from '../log/units';
import { benchValue } from './phase';

export interface FloorInput {
  path: string;
  warmupMs: number;
  durationMs: number;
  maxBytes: number;
}

/**
 * The floor, in a process of its own: the log benchmark's measurement (64 KiB `writev`s while an
 * fdatasync runs every 100 ms, and a last one closing the timed phase), here with one 64 KiB
 * buffer per write.
 */
export function floorTask(input: FloorInput): Promise<FloorMeasurement> {
  return measureFloor(input.path, benchValue(64 * KIB), {
    warmupMs: input.warmupMs,
    durationMs: input.durationMs,
    maxBytes: input.maxBytes,
  });
}
