import { InitProducerId } from '@weir/protocol';
import { failureOf } from '../../commands/command-result';
import { defineHandler } from '../handler';

/**
 * InitProducerId v0–1 for idempotent producers. v0 must be in the range: librdkafka 2.0 probes for
 * exactly version 0 before it enables idempotence (kafka-compat §1.2).
 */
export const initProducerIdHandler = defineHandler({
  api: InitProducerId,
  versions: { min: 0, max: 1 },
  async handle(request, _context, commands) {
    try {
      const { producerId, producerEpoch } = await commands.producers.initProducerId(request);
      return { throttleTimeMs: 0, errorCode: 0, producerId, producerEpoch };
    } catch (error) {
      return { throttleTimeMs: 0, errorCode: failureOf(error).errorCode, producerId: -1n, producerEpoch: -1 };
    }
  },
});
