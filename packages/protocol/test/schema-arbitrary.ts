import fc from 'fast-check';
import type { Fields, StructType } from '../src/schema/struct';
import type { ArrayType, WireType } from '../src/schema/types';
import { inRange } from '../src/schema/version-range';

/**
 * Builds a fast-check arbitrary for any schema struct at one version: random values for the fields
 * present at that version (null where the field may be null), and the declared default for the
 * fields that are absent, so that encode → decode must give back exactly the generated value.
 */
export function arbitraryForStruct(
  type: StructType<Fields>,
  version: number,
  depth = 0,
): fc.Arbitrary<unknown> {
  const shape: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, definition] of Object.entries(type.fields)) {
    if (!inRange(definition.versions, version)) {
      shape[name] = fc.constant(definition.defaultValue());
      continue;
    }
    const valueArbitrary = arbitraryForType(definition.type, version, depth);
    shape[name] = inRange(definition.nullableVersions, version)
      ? fc.option(valueArbitrary, { nil: null, freq: 4 })
      : valueArbitrary;
  }
  return fc.record(shape);
}

function arbitraryForType(type: WireType<unknown>, version: number, depth: number): fc.Arbitrary<unknown> {
  switch (type.typeName) {
    case 'int8':
      return fc.integer({ min: -128, max: 127 });
    case 'int16':
      return fc.integer({ min: -32768, max: 32767 });
    case 'uint16':
      return fc.integer({ min: 0, max: 65535 });
    case 'int32':
      return fc.integer({ min: -2147483648, max: 2147483647 });
    case 'uint32':
      return fc.integer({ min: 0, max: 4294967295 });
    case 'int64':
      return fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
    case 'float64':
      return fc.double({ noNaN: true });
    case 'bool':
      return fc.boolean();
    case 'uuid':
      return fc.uuid();
    case 'string':
      return fc.string({ unit: 'grapheme', maxLength: 12 });
    case 'bytes':
    case 'records':
      return fc.uint8Array({ maxLength: 24 }).map((bytes) => Buffer.from(bytes));
    case 'struct':
      return arbitraryForStruct(type as StructType<Fields>, version, depth + 1);
    default:
      if (type.typeName.endsWith('[]')) {
        const { element } = type as ArrayType<unknown>;
        return fc.array(arbitraryForType(element, version, depth + 1), { maxLength: depth > 2 ? 1 : 3 });
      }
      throw new Error(`no arbitrary for wire type ${type.typeName}`);
  }
}
