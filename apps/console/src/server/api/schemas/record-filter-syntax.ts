import type { RecordFilter, RecordFilterField, RecordFilterOperator } from '@weir/protocol';

/*
 * The text form of a message-search filter, as it travels in URLs and REST query parameters:
 * `<field>:<operator>:<operand>`, e.g. `value:contains:timeout`, `headerKey:equals:trace-id`. A
 * field written as `value.<path>` or `key.<path>` (`value.user.id`, `value.items[0].sku`,
 * `value["a.b"]`) is a condition on the JSON at that path, evaluated by the broker. The operand may
 * itself contain colons; a path may too, inside a bracketed `["…"]` name. Pure functions, shared
 * by the server and the browser so both read a URL the same way.
 */

/** What the schema checks before parsing: a known field (or a JSON path on key or value) and operator. */
export const FILTER_TEXT_PATTERN =
  /^(?:key|value|headerKey|headerValue|(?:key|value)(?:\.|\[).+?):(?:contains|notContains|equals):/s;

export const FILTER_TEXT_HINT =
  'a filter is "<key|value|headerKey|headerValue>:<contains|notContains|equals>:<text>", or ' +
  '"value.<json path>:<operator>:<text>" such as "value.user.id:equals:42"';

/** The index of the colon that ends the field: the first one outside a quoted `["…"]` name. */
function fieldEnd(text: string): number {
  let quoted = false;
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    if (quoted && char === '\\') at++;
    else if (char === '"') quoted = !quoted;
    else if (char === ':' && !quoted) return at;
  }
  return -1;
}

/** Parses the text form; a shape the pattern would refuse throws a RangeError saying so. */
export function parseFilterText(text: string): RecordFilter {
  const first = fieldEnd(text);
  const second = first < 0 ? -1 : text.indexOf(':', first + 1);
  if (first < 0 || second < 0) throw new RangeError(`filter "${text}" is not <field>:<operator>:<value>`);
  const fieldText = text.slice(0, first);
  const operator = text.slice(first + 1, second) as RecordFilterOperator;
  const value = text.slice(second + 1);
  const json = /^(key|value)(\.|\[)/.exec(fieldText);
  if (json === null) return { field: fieldText as RecordFilterField, operator, value };
  // `value.user.id` → path `user.id`; `value[0].id` and `value["a.b"]` keep their bracket.
  const path = fieldText.slice(json[1]!.length + (json[2] === '.' ? 1 : 0));
  return { field: json[1] === 'key' ? 'keyJson' : 'valueJson', operator, value, path };
}

export function formatFilterText(filter: RecordFilter): string {
  const fieldText =
    filter.field === 'keyJson' || filter.field === 'valueJson'
      ? `${filter.field === 'keyJson' ? 'key' : 'value'}${filter.path?.startsWith('[') ? '' : '.'}${filter.path ?? ''}`
      : filter.field;
  return `${fieldText}:${filter.operator}:${filter.value}`;
}
