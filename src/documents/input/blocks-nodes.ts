// The rich-text (`blocks`) node rules Strapi 5.54 checks on every write, drafts included, with its
// messages: block nodes (paragraph, heading, quote, code, list, image), inline nodes (text, link),
// list items, and links whose URL must parse and use http:, https:, ftp:, mailto: or tel: (a path
// starting with / too). Values are read as yup reads them (numbers and booleans from text, lists from JSON text).
//
// Errors come in the order Strapi's yup 0.32 lists them. yup validates asynchronously: each stage of a
// schema's checks (its type and allowed values, then its own tests) resolves one microtask later, an
// object's fields and an array's items start once the object or array itself passed, and each
// gathers the errors below it as they resolve. An array lists its items' errors in the order the
// items finish (a shallow item before a deep one), then its own; an object sorts its fields' errors
// by the first of its keys each error's path contains (a plain substring test, as yup does it).
// Each rule therefore answers how many microtasks its check takes beside the errors it found.
import type { FieldError } from '../../errors.js';
import { fieldError, notTypeMessage, pathText } from './messages.js';

type Path = readonly string[];
type Obj = Record<string, unknown>;

interface Checked {
  /** the microtasks until yup's check of this value called back */
  readonly time: number;
  /** in yup's order */
  readonly errors: FieldError[];
}

type Rule = (value: unknown, path: Path) => Checked;

/** Results that started together, in the order they finish (ties in the order they started). */
function byCompletion<T extends Checked>(results: readonly T[]): T[] {
  return results
    .map((r, i) => ({ r, i }))
    .sort((a, b) => a.r.time - b.r.time || a.i - b.i)
    .map((x) => x.r);
}

const isPlainObject = (v: unknown): v is Obj => Object.prototype.toString.call(v) === '[object Object]';

/** yup's casts, each returning the value its type check then sees */
const cast = {
  string(v: unknown): unknown {
    if (typeof v === 'string' || Array.isArray(v) || v === null || v === undefined) return v;
    const s = String(v);
    return s === '[object Object]' ? v : s;
  },
  number(v: unknown): unknown {
    let parsed = v;
    if (typeof parsed === 'string') {
      parsed = parsed.replace(/\s/g, '');
      if (parsed === '') return NaN;
      parsed = Number(parsed);
    }
    return typeof parsed === 'number' && !Number.isNaN(parsed) ? parsed : parseFloat(parsed as string);
  },
  boolean(v: unknown): unknown {
    if (typeof v === 'boolean') return v;
    if (/^(true|1)$/i.test(String(v))) return true;
    if (/^(false|0)$/i.test(String(v))) return false;
    return v;
  },
  fromJsonText(v: unknown, isType: (x: unknown) => boolean): unknown {
    let parsed = v;
    if (typeof parsed === 'string') {
      try {
        parsed = JSON.parse(parsed) as unknown;
      } catch {
        parsed = null;
      }
    }
    return isType(parsed) ? parsed : null;
  },
};

interface Scalar {
  readonly type: 'string' | 'number' | 'boolean';
  readonly oneOf?: readonly (string | number)[];
  readonly required?: boolean;
  readonly nullable?: boolean;
  /** a test of its own: its message when the cast value fails it */
  readonly test?: { readonly ok: (v: unknown) => boolean; readonly message: string };
}

const isType = {
  string: (v: unknown) => typeof v === 'string',
  number: (v: unknown) => typeof v === 'number' && !Number.isNaN(v),
  boolean: (v: unknown) => typeof v === 'boolean',
};

/**
 * A scalar as yup checks it: the type and an allowed list first (when either fails, nothing else is
 * checked), then `required` and the field's own test. A missing value passes the type and the list.
 */
function scalar(s: Scalar): Rule {
  return (raw, path) => {
    const v = raw === undefined ? undefined : cast[s.type](raw);
    const first: FieldError[] = [];
    if (v !== undefined && !(v === null && s.nullable) && !isType[s.type](v)) first.push(fieldError(path, notTypeMessage(path, s.type, v, raw), v));
    if (s.oneOf && v !== undefined && !s.oneOf.includes(v as string | number)) {
      first.push(fieldError(path, `${pathText(path)} must be one of the following values: ${s.oneOf.join(', ')}`, v));
    }
    if (first.length) return { time: 1, errors: first };
    // the second stage, the schema's own tests, takes a microtask only when there are some
    const time = s.required || s.test ? 2 : 1;
    if (s.required && v === undefined) return { time, errors: [fieldError(path, `${pathText(path)} is a required field`)] };
    if (s.test && !s.test.ok(v)) return { time, errors: [fieldError(path, s.test.message, v)] };
    return { time, errors: [] };
  };
}

/** An array of `item`, with its own minimum size and its message; missing is "required" when required. */
function list(item: Rule, opts: { readonly min?: { readonly size: number; readonly message: string }; readonly required?: boolean }): Rule {
  return (raw, path) => {
    const own = opts.min || opts.required ? 2 : 1;
    if (raw === undefined) return { time: own, errors: opts.required ? [fieldError(path, `${pathText(path)} is a required field`)] : [] };
    const v = cast.fromJsonText(raw, Array.isArray);
    if (!Array.isArray(v)) return { time: 1, errors: [fieldError(path, notTypeMessage(path, 'array', v, raw), v)] };
    const mine = opts.min && v.length < opts.min.size ? [fieldError(path, opts.min.message, v)] : [];
    // the items start once the array's own checks are done; their errors come first, then its own
    const items = byCompletion(v.map((x, i) => item(x, [...path, String(i)])));
    return { time: own + Math.max(0, ...items.map((r) => r.time)), errors: [...items.flatMap((r) => r.errors), ...mine] };
  };
}

/** yup's sortByKeyOrder: the index of the first key the error's path contains as text (Infinity for none). */
function keyIndex(keys: readonly string[], path: string): number {
  const i = keys.findIndex((k) => path.includes(k));
  return i === -1 ? Infinity : i;
}

/** An object of the fields given, checked in their order; a missing one is an object of missing fields, as yup defaults it. */
function object(fields: Readonly<Record<string, Rule>>): Rule {
  const keys = Object.keys(fields);
  return (raw, path) => {
    const v = raw === undefined ? {} : cast.fromJsonText(raw, isPlainObject);
    if (!isPlainObject(v)) return { time: 1, errors: [fieldError(path, notTypeMessage(path, 'object', v, raw), v)] };
    const results = keys.map((key) => ({ ...fields[key]!(v[key], [...path, key]), at: keyIndex(keys, pathText([...path, key])) }));
    const failed = byCompletion(results.filter((r) => r.errors.length > 0)).sort((a, b) => a.at - b.at);
    return { time: 1 + Math.max(...results.map((r) => r.time)), errors: failed.flatMap((r) => r.errors) };
  };
}

/** Chooses a node's rule by its `type`; any other type is `message` at the node. */
function byType(rules: Readonly<Record<string, () => Rule>>, message: string): Rule {
  return (raw, path) => {
    const type = isPlainObject(raw) ? raw['type'] : undefined;
    const rule = typeof type === 'string' && Object.hasOwn(rules, type) ? rules[type]!() : undefined;
    // any other type is a schema with one failing test: its type stage, then the test
    return rule ? rule(raw, path) : { time: 2, errors: [fieldError(path, message, raw)] };
  };
}

const kind = (name: string): Rule => scalar({ type: 'string', oneOf: [name], required: true });

const LINK_SCHEMES: ReadonlySet<string> = new Set(['http:', 'https:', 'ftp:', 'mailto:', 'tel:']);

function validLink(v: unknown): boolean {
  const link = typeof v === 'string' ? v : '';
  try {
    // a path is read against any origin: only its syntax counts
    return LINK_SCHEMES.has(new URL(link.startsWith('/') ? `https://example.invalid${link}` : link).protocol);
  } catch {
    return false;
  }
}

const flag = scalar({ type: 'boolean' });
const text = object({
  type: kind('text'),
  text: scalar({ type: 'string', test: { ok: (v) => typeof v === 'string', message: 'Text must be defined with at least an empty string' } }),
  bold: flag,
  italic: flag,
  underline: flag,
  strikethrough: flag,
  code: flag,
});
const link = object({
  type: kind('link'),
  url: scalar({ type: 'string', test: { ok: validLink, message: 'Please specify a valid link.' } }),
  children: list(text, { required: true }),
});
const inline = byType({ text: () => text, link: () => link }, 'Inline node must be Text or Link');
const inlineChildren = (node: string): Rule => list(inline, { required: true, min: { size: 1, message: `${node} node children must have at least one Text or Link node` } });

const listItem = object({ type: kind('list-item'), children: list(inline, { required: true }) });
const listNode: Rule = object({
  type: kind('list'),
  format: scalar({ type: 'string', oneOf: ['ordered', 'unordered'], required: true }),
  children: list(byType({ list: () => listNode, 'list-item': () => listItem }, 'Inline node must be list-item or list'), {
    required: true,
    min: { size: 1, message: 'List node children must have at least one ListItem or ListNode' },
  }),
});

// a nullable object or mixed value: anything that isn't an object is read as null, which passes
const anything: Rule = () => ({ time: 1, errors: [] });
const string = (required: boolean): Rule => scalar({ type: 'string', required, nullable: !required });
const number = scalar({ type: 'number', required: true });
const image = object({
  type: kind('image'),
  image: object({
    name: string(true),
    alternativeText: string(false),
    url: string(true),
    caption: string(false),
    width: number,
    height: number,
    // a nullable object: anything that isn't one is read as null, which passes
    formats: anything,
    hash: string(true),
    ext: string(true),
    mime: string(true),
    size: number,
    previewUrl: string(false),
    provider: string(true),
    provider_metadata: anything,
    createdAt: string(true),
    updatedAt: string(true),
  }),
  children: list(inline, { required: true }),
});

const block = byType(
  {
    paragraph: () => object({ type: kind('paragraph'), children: inlineChildren('Paragraph') }),
    heading: () => object({ type: kind('heading'), level: scalar({ type: 'number', oneOf: [1, 2, 3, 4, 5, 6], required: true }), children: inlineChildren('Heading') }),
    quote: () => object({ type: kind('quote'), children: inlineChildren('Quote') }),
    list: () => listNode,
    image: () => image,
    // Strapi's code blocks take text nodes only, and word their minimum as a quote's
    code: () =>
      object({
        type: kind('code'),
        language: string(false),
        children: list(text, { required: true, min: { size: 1, message: 'Quote node children must have at least one Text or Link node' } }),
      }),
  },
  'Block node is of invalid type',
);

/** The errors of a blocks value (an array of nodes) at `path`, in the order Strapi's yup lists them. */
export function blockErrors(nodes: readonly unknown[], path: Path): FieldError[] {
  return list(block, {})(nodes, path).errors;
}
