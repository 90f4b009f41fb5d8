// The public entry point of @weir/protocol. Every name is listed explicitly: no `export *`.

export type { DecodeErrorKind, DecodeResult } from './codec/decode-error';
export { DecodeError, tryDecode } from './codec/decode-error';
export { Reader } from './codec/reader';
export { Writer } from './codec/writer';
