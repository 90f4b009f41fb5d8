import { DecodeError } from '../codec/decode-error';
import type { Reader } from '../codec/reader';
import { Writer } from '../codec/writer';
import type { InputOf, ValueOf, WireType } from './types';
import { ALL_VERSIONS, inRange, NO_VERSIONS, parseVersionRange, type VersionRange } from './version-range';

/**
 * One field of a struct: its wire type, the versions it is present in, the versions in which it
 * may be null, its value where absent, and (for flexible versions) an optional tag that moves it
 * into the struct's tagged-field section.
 */
export interface Field<T, In = T> {
  readonly type: WireType<unknown, unknown>;
  readonly versions: VersionRange;
  readonly nullableVersions: VersionRange;
  readonly tag: number | undefined;
  readonly defaultValue: () => T;
  /** Phantom member that carries the field's TypeScript type; never set at run time. */
  readonly __value?: T;
  /** Phantom member that carries the type the field is encoded from; never set at run time. */
  readonly __input?: In;
}

interface FieldOptions<T> {
  /** Versions the field is present in, such as "3+" or "1-4". Default: every version. */
  versions?: string;
  /** Value used where the field is absent (on decode) and left out (on encode). */
  default?: T;
  /** Makes the field a tagged field in flexible versions, under this tag number. */
  tag?: number;
}

interface NullableFieldOptions<T> extends FieldOptions<T | null> {
  /** Versions in which the field may be null, such as "1+". */
  nullable: string;
}

/** Declares a field that may be null in some versions: its TypeScript type includes `null`. */
export function field<W extends WireType<unknown, unknown>>(
  type: W,
  options: NullableFieldOptions<ValueOf<W>>,
): Field<ValueOf<W> | null, InputOf<W> | null>;
/** Declares a field. */
export function field<W extends WireType<unknown, unknown>>(
  type: W,
  options?: FieldOptions<ValueOf<W>>,
): Field<ValueOf<W>, InputOf<W>>;
export function field(
  type: WireType<unknown, unknown>,
  options: Partial<NullableFieldOptions<unknown>> = {},
): Field<unknown> {
  const nullableVersions = options.nullable === undefined ? NO_VERSIONS : parseVersionRange(options.nullable);
  if (options.nullable !== undefined && (!type.writeNullable || !type.readNullable)) {
    throw new Error(`type ${type.typeName} cannot be nullable`);
  }
  const explicitDefault = 'default' in options;
  return {
    type,
    versions: options.versions === undefined ? ALL_VERSIONS : parseVersionRange(options.versions),
    nullableVersions,
    tag: options.tag,
    defaultValue: explicitDefault ? () => options.default : () => type.defaultValue(),
  };
}

export type Fields = Record<string, Field<unknown, unknown>>;

/** The TypeScript type of a struct with the given fields, as decoded. */
export type StructValue<F extends Fields> = {
  -readonly [K in keyof F]: F[K] extends Field<infer T, infer _In> ? T : never;
};

/** The TypeScript type a struct with the given fields is encoded from. */
export type StructInput<F extends Fields> = {
  -readonly [K in keyof F]: F[K] extends Field<infer _T, infer In> ? In : never;
};

/** A field as compiled for one version: everything needed to write and read it without lookups. */
interface CompiledField {
  readonly name: string;
  readonly field: Field<unknown>;
  readonly nullable: boolean;
}

interface CompiledLayout {
  /** Fields written in order, outside the tagged section. */
  readonly inline: readonly CompiledField[];
  /** Tagged fields in tag order (flexible versions only). */
  readonly tagged: readonly CompiledField[];
  /** Fields absent at this version, filled with their defaults on decode. */
  readonly absent: readonly CompiledField[];
}

function compileLayout(fields: Fields, version: number, flexible: boolean): CompiledLayout {
  const inline: CompiledField[] = [];
  const tagged: CompiledField[] = [];
  const absent: CompiledField[] = [];
  for (const [name, definition] of Object.entries(fields)) {
    const compiled = { name, field: definition, nullable: inRange(definition.nullableVersions, version) };
    if (!inRange(definition.versions, version)) absent.push(compiled);
    else if (definition.tag !== undefined && flexible) tagged.push(compiled);
    else if (definition.tag !== undefined) absent.push(compiled);
    else inline.push(compiled);
  }
  tagged.sort((left, right) => left.field.tag! - right.field.tag!);
  return { inline, tagged, absent };
}

function writeFieldValue(
  writer: Writer,
  compiled: CompiledField,
  value: unknown,
  flexible: boolean,
  version: number,
) {
  const { type } = compiled.field;
  if (compiled.nullable) {
    type.writeNullable!(writer, value, flexible, version);
    return;
  }
  if (value === null || value === undefined) {
    // A missing value for a non-nullable field is a bug in the code that built the message.
    throw new TypeError(`field "${compiled.name}" (${type.typeName}) may not be null at version ${version}`);
  }
  type.write(writer, value, flexible, version);
}

function readFieldValue(
  reader: Reader,
  compiled: CompiledField,
  flexible: boolean,
  version: number,
): unknown {
  const { type } = compiled.field;
  return compiled.nullable
    ? type.readNullable!(reader, flexible, version)
    : type.read(reader, flexible, version);
}

/** A tagged field is sent only when it differs from its default, as KIP-482 prescribes. */
function isDefault(value: unknown, defaultValue: unknown): boolean {
  if (value === defaultValue) return true;
  if (Array.isArray(value))
    return value.length === 0 && Array.isArray(defaultValue) && defaultValue.length === 0;
  if (Buffer.isBuffer(value)) return Buffer.isBuffer(defaultValue) && value.equals(defaultValue);
  return false;
}

/**
 * A struct wire type built from its fields. Field order on the wire is the declaration order. Each
 * (version, flexible) layout is compiled once and cached, so encoding and decoding walk a flat list.
 */
export interface StructType<F extends Fields> extends WireType<StructValue<F>, StructInput<F>> {
  readonly fields: F;
}

export function struct<F extends Fields>(fields: F): StructType<F> {
  const layouts = new Map<number, CompiledLayout>();
  const layoutFor = (version: number, flexible: boolean): CompiledLayout => {
    const key = version * 2 + (flexible ? 1 : 0);
    let layout = layouts.get(key);
    if (!layout) {
      layout = compileLayout(fields, version, flexible);
      layouts.set(key, layout);
    }
    return layout;
  };

  const type: StructType<F> = {
    typeName: 'struct',
    fields,
    write(writer, value, flexible, version) {
      const layout = layoutFor(version, flexible);
      const record = value as Record<string, unknown>;
      for (const compiled of layout.inline) {
        writeFieldValue(writer, compiled, record[compiled.name], flexible, version);
      }
      if (flexible) writeTaggedFields(writer, layout.tagged, record, version);
    },
    read(reader, flexible, version) {
      const layout = layoutFor(version, flexible);
      const record: Record<string, unknown> = {};
      for (const compiled of layout.inline) {
        record[compiled.name] = readFieldValue(reader, compiled, flexible, version);
      }
      for (const compiled of layout.absent) record[compiled.name] = compiled.field.defaultValue();
      if (flexible) readTaggedFields(reader, layout.tagged, record, version);
      return record as StructValue<F>;
    },
    // Nullable structs (flexible APIs only) carry an int8 presence marker: -1 null, 1 present.
    writeNullable(writer, value, flexible, version) {
      if (value === null) {
        writer.int8(-1);
        return;
      }
      writer.int8(1);
      type.write(writer, value, flexible, version);
    },
    readNullable(reader, flexible, version) {
      const at = reader.offset;
      const marker = reader.int8();
      if (marker === -1) return null;
      if (marker !== 1) throw new DecodeError('invalid-value', `struct presence marker ${marker}`, at);
      return type.read(reader, flexible, version);
    },
    defaultValue() {
      const record: Record<string, unknown> = {};
      for (const [name, definition] of Object.entries(fields)) record[name] = definition.defaultValue();
      return record as StructValue<F>;
    },
  };
  return type;
}

function writeTaggedFields(
  writer: Writer,
  tagged: readonly CompiledField[],
  record: Record<string, unknown>,
  version: number,
): void {
  const present = tagged.filter((compiled) => {
    const value = record[compiled.name];
    return value !== undefined && !isDefault(value, compiled.field.defaultValue());
  });
  writer.uvarint(present.length);
  for (const compiled of present) {
    // The size of a tagged field comes before its bytes, so each is encoded on its own first.
    const fieldWriter = new Writer(64);
    writeFieldValue(fieldWriter, compiled, record[compiled.name], true, version);
    const encoded = fieldWriter.finish();
    writer.uvarint(compiled.field.tag!).uvarint(encoded.length).raw(encoded);
  }
}

function readTaggedFields(
  reader: Reader,
  tagged: readonly CompiledField[],
  record: Record<string, unknown>,
  version: number,
): void {
  for (const compiled of tagged) record[compiled.name] = compiled.field.defaultValue();
  reader.taggedFields((tag, data) => {
    const compiled = tagged.find((candidate) => candidate.field.tag === tag);
    if (!compiled) return; // Unknown tags are skipped: that is what makes them compatible.
    record[compiled.name] = readFieldValue(data, compiled, true, version);
    data.expectEnd(`tagged field ${tag}`);
  });
}
