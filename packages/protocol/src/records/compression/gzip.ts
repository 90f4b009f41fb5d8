import { gzipSync, unzipSync } from 'node:zlib';
import { type CompressionCodec, checkOutputSize } from './compression-codec';

/**
 * GZIP (id 1) through Node's zlib. Kafka clients write a standard gzip stream. Decoding uses
 * `unzip`, which also accepts a bare zlib stream, as librdkafka's inflate (auto-detecting) does.
 */
export const gzipCodec: CompressionCodec = {
  type: 'gzip',
  compress: (input) => gzipSync(input),
  decompress: (input, maxOutputBytes) => {
    // zlib stops with an error as soon as the output would pass maxOutputLength.
    const output = unzipSync(input, { maxOutputLength: Math.max(1, maxOutputBytes) });
    checkOutputSize(output.length, maxOutputBytes);
    return output;
  },
};
