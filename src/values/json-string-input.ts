// A string given for a json attribute, read as Strapi 5 stores it: Strapi writes a string into the
// column as it is, so text that is JSON ("[]", "{\"a\":1}", "12") comes back as the value it spells,
// and any other text as the string. Schemas lean on it: `"default": "[]"` is an empty list.

const NOT_JSON: unique symbol = Symbol('not JSON');

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

/**
 * The json value a string stands for. Text that parses to a string is parsed once more, as Strapi
 * reads a value written twice encoded (`"\"[1]\""` is `[1]`); when that fails the text stays as given.
 */
export function jsonValueOfString(text: string): unknown {
  const once = parsed(text);
  if (once === NOT_JSON) return text;
  if (typeof once !== 'string') return once;
  const twice = parsed(once);
  return twice === NOT_JSON ? text : twice;
}
