// A reader of HTTP Structured Fields (RFC 9651), as far as RateLimit-Policy needs: a List whose members
// are Items with Parameters. A field that does not parse is malformed and its reader ignores it whole,
// as RFC 9651 says: parseList answers undefined rather than the members it could make sense of.

type BareItem =
  | { type: 'integer' | 'decimal' | 'date'; value: number }
  | { type: 'string' | 'token' | 'display'; value: string }
  /** A Byte Sequence, kept as its base64 text. */
  | { type: 'bytes'; value: string }
  | { type: 'boolean'; value: boolean };

export type Item = { value: BareItem; parameters: Map<string, BareItem> };

class Malformed extends Error {}

const malformed = (): never => {
  throw new Malformed();
};

const NUMBER = /-?(\d+)(?:\.(\d*))?/y;
const STRING = /"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"/y;
const TOKEN = /[A-Za-z*][!#$%&'*+\-.^_`|~\w:/]*/y;
const BYTES = /:([A-Za-z0-9+/=]*):/y;
const BOOLEAN = /\?([01])/y;
const DISPLAY = /%"((?:%[0-9a-f]{2}|[\x20\x21\x23\x24\x26-\x7e])*)"/y;
const KEY = /[a-z*][a-z0-9_\-.*]*/y;
const SPACES = / */y;
const OWS = /[ \t]*/y;

class Reader {
  #at = 0;
  readonly #text: string;

  constructor(text: string) {
    this.#text = text;
  }

  list(): Item[] {
    const items: Item[] = [];
    this.#match(SPACES);
    while (this.#at < this.#text.length) {
      items.push({ value: this.#bareItem(), parameters: this.#parameters() });
      this.#match(OWS);
      if (this.#at === this.#text.length) break;
      if (this.#text[this.#at] !== ',') malformed();
      this.#at += 1;
      this.#match(OWS);
      if (this.#at === this.#text.length) malformed(); // a trailing comma
    }
    return items;
  }

  /** The pattern's match at the cursor, which moves past it; undefined when it does not match there. */
  #match(pattern: RegExp): RegExpExecArray | undefined {
    pattern.lastIndex = this.#at;
    const match = pattern.exec(this.#text) ?? undefined;
    if (match) this.#at = pattern.lastIndex;
    return match;
  }

  #required(pattern: RegExp): RegExpExecArray {
    return this.#match(pattern) ?? malformed();
  }

  #parameters(): Map<string, BareItem> {
    const parameters = new Map<string, BareItem>();
    while (this.#text[this.#at] === ';') {
      this.#at += 1;
      this.#match(SPACES);
      const [key] = this.#required(KEY);
      const hasValue = this.#text[this.#at] === '=';
      if (hasValue) this.#at += 1;
      parameters.set(key, hasValue ? this.#bareItem() : { type: 'boolean', value: true });
    }
    return parameters;
  }

  #bareItem(): BareItem {
    const first = this.#text[this.#at] ?? '';
    if (first === '-' || (first >= '0' && first <= '9')) return this.#number();
    if (first === '"') {
      const [, text = ''] = this.#required(STRING);
      return { type: 'string', value: text.replace(/\\(["\\])/g, '$1') };
    }
    if (first === ':') return { type: 'bytes', value: this.#required(BYTES)[1] ?? '' };
    if (first === '?') return { type: 'boolean', value: this.#required(BOOLEAN)[1] === '1' };
    if (first === '@') {
      this.#at += 1;
      const date = this.#number();
      return date.type === 'integer' ? { type: 'date', value: date.value } : malformed();
    }
    if (first === '%') return { type: 'display', value: decodeDisplay(this.#required(DISPLAY)[1] ?? '') };
    return { type: 'token', value: this.#required(TOKEN)[0] };
  }

  /** An Integer (at most 15 digits) or a Decimal (at most 12 digits, a dot, then 1 to 3). */
  #number(): BareItem {
    const [number, whole = '', fraction] = this.#required(NUMBER);
    if (fraction === undefined) {
      return whole.length <= 15 ? { type: 'integer', value: Number(number) } : malformed();
    }
    const valid = whole.length <= 12 && fraction.length >= 1 && fraction.length <= 3;
    return valid ? { type: 'decimal', value: Number(number) } : malformed();
  }
}

/** The members of a List of Items; undefined when the field is no such List (an Inner List among them). */
export function parseList(field: string): Item[] | undefined {
  try {
    return new Reader(field).list();
  } catch (error) {
    if (error instanceof Malformed) return undefined;
    throw error;
  }
}

/** A Display String's text: its %xx escapes are UTF-8 bytes, which must decode. */
function decodeDisplay(escaped: string): string {
  const bytes = [...escaped.matchAll(/%([0-9a-f]{2})|(.)/g)].map(([, hex, char = '']) =>
    hex === undefined ? char.charCodeAt(0) : parseInt(hex, 16),
  );
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes));
  } catch {
    return malformed();
  }
}
