import { openPartition, writePartition } from './big-partition';
import { createPartitions, openPartitions } from './many-partitions';

/**
 * What a benchmark child process can be asked to run. Inputs and outputs cross the IPC channel as
 * JSON, so they hold only plain data.
 */
export const workerTasks = {
  'write-partition': writePartition,
  'open-partition': openPartition,
  'create-partitions': createPartitions,
  'open-partitions': openPartitions,
};

export type WorkerTasks = typeof workerTasks;
export type WorkerTaskName = keyof WorkerTasks;
