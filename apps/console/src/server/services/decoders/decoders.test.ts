import avro from 'avsc';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { readConfluentFrame, writeConfluentFrame } from './confluent-framing';
import { SchemaProblem } from './decoder';
import { decoderFor } from './schema-decoder';

const ORDER_AVRO = JSON.stringify({
  type: 'record',
  name: 'Order',
  namespace: 'shop',
  fields: [
    { name: 'id', type: 'long' },
    { name: 'customer', type: 'string' },
    { name: 'items', type: { type: 'array', items: 'string' } },
    { name: 'note', type: ['null', 'string'], default: null },
    { name: 'digest', type: 'bytes' },
  ],
});

const ORDER_PROTO = `
syntax = "proto3";
package shop.v1;
message Customer { string name = 1; }
message Order {
  int64 id = 1;
  Customer customer = 2;
  repeated string items = 3;
  Status status = 4;
  enum Status { NEW = 0; PAID = 1; }
  message Line { string sku = 1; }
}
`;

function avroBytes(value: unknown): Uint8Array {
  return avro.Type.forSchema(JSON.parse(ORDER_AVRO)).toBuffer(value);
}

function protoBytes(typeName: string, value: Record<string, unknown>): Uint8Array {
  const type = protobuf.parse(ORDER_PROTO, { keepCase: true }).root.lookupType(typeName);
  return type.encode(type.fromObject(value)).finish();
}

const order = {
  id: 42,
  customer: 'ada',
  items: ['x-1', 'y-2'],
  note: 'rush',
  digest: Buffer.from([1, 2, 3]),
};
const orderJson = { id: 42, customer: 'ada', items: ['x-1', 'y-2'], note: 'rush', digest: 'AQID' };

describe('Avro decoder', () => {
  it('decodes avsc-encoded records, bare and Confluent-framed', () => {
    const bare = decoderFor({ format: 'avro', schema: ORDER_AVRO, framing: 'none' });
    expect(bare.decode(avroBytes(order))).toEqual({ json: orderJson });
    const framed = decoderFor({ format: 'avro', schema: ORDER_AVRO, framing: 'confluent' });
    expect(framed.decode(writeConfluentFrame(7, avroBytes({ ...order, note: null })))).toEqual({
      json: { ...orderJson, note: null },
    });
  });

  it('answers an error, not a throw, for corrupt or unframed bytes', () => {
    const bare = decoderFor({ format: 'avro', schema: ORDER_AVRO, framing: 'none' });
    const corrupt = bare.decode(Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0x7f]));
    expect(corrupt).toHaveProperty('error');
    expect((corrupt as { error: string }).error).toMatch(/^not Avro of this schema/);
    const framed = decoderFor({ format: 'avro', schema: ORDER_AVRO, framing: 'confluent' });
    expect(framed.decode(avroBytes(order))).toEqual({
      error: 'magic byte is 84, not 0: not the Confluent wire format',
    });
    expect(framed.decode(Uint8Array.from([0, 0]))).toHaveProperty('error');
  });

  it('refuses a bad schema naming the field and avsc’s reason', () => {
    expect(() => decoderFor({ format: 'avro', schema: '{"type":"record"}', framing: 'none' })).toThrow(
      SchemaProblem,
    );
    try {
      decoderFor({ format: 'avro', schema: '{"type":"nope"}', framing: 'none' });
    } catch (error) {
      expect(error).toBeInstanceOf(SchemaProblem);
      expect((error as SchemaProblem).field).toBe('schema');
      expect((error as SchemaProblem).reason).toContain('nope');
    }
    expect(() => decoderFor({ format: 'avro', schema: 'not json', framing: 'none' })).toThrow(/not JSON/);
  });
});

describe('Protobuf decoder', () => {
  const value = { id: '9007199254740993', customer: { name: 'ada' }, items: ['x-1'], status: 'PAID' };

  it('decodes protobufjs-encoded records of the configured type, 64-bit ids as text', () => {
    const decoder = decoderFor({
      format: 'protobuf',
      schema: ORDER_PROTO,
      messageType: 'shop.v1.Order',
      framing: 'none',
    });
    expect(decoder.decode(protoBytes('shop.v1.Order', value))).toEqual({ json: value });
  });

  it('picks the type from the Confluent message indexes', () => {
    const decoder = decoderFor({
      format: 'protobuf',
      schema: ORDER_PROTO,
      messageType: 'shop.v1.Order',
      framing: 'confluent',
    });
    // [1] is Order (the second top-level message), [0] Customer, [1, 0] Order.Line.
    expect(decoder.decode(writeConfluentFrame(3, protoBytes('shop.v1.Order', value), [1]))).toEqual({
      json: value,
    });
    expect(
      decoder.decode(writeConfluentFrame(3, protoBytes('shop.v1.Customer', { name: 'bo' }), [0])),
    ).toEqual({
      json: { name: 'bo' },
    });
    expect(
      decoder.decode(writeConfluentFrame(3, protoBytes('shop.v1.Order.Line', { sku: 'z' }), [1, 0])),
    ).toEqual({
      json: { sku: 'z' },
    });
    expect(decoder.decode(writeConfluentFrame(3, Uint8Array.of(), [5]))).toEqual({
      error: 'message indexes [5] name no message of the schema',
    });
  });

  it('answers an error for a corrupt payload', () => {
    const decoder = decoderFor({
      format: 'protobuf',
      schema: ORDER_PROTO,
      messageType: 'shop.v1.Order',
      framing: 'none',
    });
    const outcome = decoder.decode(Uint8Array.from([0x0a, 0x7f, 0x01]));
    expect((outcome as { error: string }).error).toMatch(/^not protobuf shop\.v1\.Order: /);
  });

  it('refuses bad .proto text and an unknown message type, naming the field', () => {
    expect(() =>
      decoderFor({ format: 'protobuf', schema: 'message {', messageType: 'X', framing: 'none' }),
    ).toThrow(expect.objectContaining({ field: 'schema' }));
    expect(() =>
      decoderFor({ format: 'protobuf', schema: ORDER_PROTO, messageType: 'shop.v1.Nope', framing: 'none' }),
    ).toThrow(expect.objectContaining({ field: 'messageType' }));
    expect(() => decoderFor({ format: 'protobuf', schema: ORDER_PROTO, framing: 'none' })).toThrow(
      expect.objectContaining({ field: 'messageType' }),
    );
  });
});

describe('Confluent framing', () => {
  it('reads the schema id and zig-zag message indexes', () => {
    const framed = writeConfluentFrame(258, Uint8Array.of(9), [2, 1]);
    // Count 2 and indexes 2, 1 zig-zag to 4, 4, 2.
    expect([...framed]).toEqual([0, 0, 0, 1, 2, 4, 4, 2, 9]);
    const frame = readConfluentFrame(framed, true);
    expect(frame).toMatchObject({ schemaId: 258, messageIndexes: [2, 1] });
    expect([...(frame as { body: Uint8Array }).body]).toEqual([9]);
    expect(readConfluentFrame(Uint8Array.of(0, 0, 0, 0, 1, 0, 9), true)).toMatchObject({
      messageIndexes: [0],
    });
    expect(readConfluentFrame(Uint8Array.of(0, 0, 0, 0, 1, 0x80), true)).toHaveProperty('error');
  });
});
