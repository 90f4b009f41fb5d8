import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { benchValue, type ClientRun, TimedPhase, Window } from './phase';

export interface RedisAddInput {
  port: number;
  stream: string;
  count: number;
  valueBytes: number;
  warmupCount: number;
  commandsPerPipeline: number;
  pipelinesInFlight: number;
  /** The timed phase stops adding after this long even if `count` is not reached. */
  maxSeconds: number;
}

export interface RedisReadInput {
  port: number;
  stream: string;
  count: number;
  recordsPerRead: number;
}

/** Pipelined `XADD stream * v <value>` with ioredis: pipelines of N commands, a few in flight. */
export async function redisAdd(input: RedisAddInput): Promise<ClientRun> {
  const redis = new Redis({ host: '127.0.0.1', port: input.port, lazyConnect: true });
  await redis.connect();
  try {
    const value = benchValue(input.valueBytes);
    const add = async (stream: string, count: number, deadlineMs: number): Promise<number> => {
      const window = new Window(input.pipelinesInFlight);
      let sent = 0;
      while (sent < count && performance.now() < deadlineMs) {
        const pipeline = redis.pipeline();
        const size = Math.min(input.commandsPerPipeline, count - sent);
        for (let index = 0; index < size; index++) pipeline.xadd(stream, '*', 'v', value);
        await window.add(pipeline.exec());
        sent += size;
      }
      await window.drain();
      return sent;
    };
    await add(`${input.stream}-warmup`, input.warmupCount, Number.POSITIVE_INFINITY);
    const phase = new TimedPhase();
    phase.start();
    const sent = await add(input.stream, input.count, performance.now() + input.maxSeconds * 1000);
    return phase.end(sent, sent * input.valueBytes);
  } finally {
    redis.disconnect();
  }
}

/** `XREAD COUNT n STREAMS stream <last id>` in a loop (values as Buffers) until `count` entries came. */
export async function redisRead(input: RedisReadInput): Promise<ClientRun> {
  const redis = new Redis({ host: '127.0.0.1', port: input.port, lazyConnect: true });
  await redis.connect();
  try {
    const phase = new TimedPhase();
    phase.start();
    let lastId: Buffer | string = '0-0';
    let received = 0;
    let payloadBytes = 0;
    while (received < input.count) {
      const answer: [Buffer, [Buffer, Buffer[]][]][] | null = await redis.xreadBuffer(
        'COUNT',
        input.recordsPerRead,
        'STREAMS',
        input.stream,
        lastId,
      );
      const entries: [Buffer, Buffer[]][] = answer?.[0]?.[1] ?? [];
      if (entries.length === 0) throw new Error(`the stream ended after ${received} of ${input.count}`);
      for (const [id, fields] of entries) {
        lastId = id;
        payloadBytes += fields[1]?.length ?? 0;
      }
      received += entries.length;
    }
    return phase.end(received, payloadBytes);
  } finally {
    redis.disconnect();
  }
}
