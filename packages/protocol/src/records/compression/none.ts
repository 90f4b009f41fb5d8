import { asBuffer } from '../buffer-view';
import { type CompressionCodec, checkOutputSize } from './compression-codec';

/** The identity codec (id 0): the records section is stored as is. Returns views, never copies. */
export const noneCodec: CompressionCodec = {
  type: 'none',
  compress: (input) => asBuffer(input),
  decompress: (input, maxOutputBytes) => {
    checkOutputSize(input.length, maxOutputBytes);
    return asBuffer(input);
  },
};
