// A plain-text rendering of a mail's HTML body, for the text/plain part and the development log:
// tags go, paragraphs and line breaks become blank lines and newlines, and a link keeps its address
// ("label (https://…)") so it can still be followed. Templates are small and written by the
// project, so this is a careful tag stripper, not an HTML parser.

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]+);/gi, (whole, e: string) => {
    if (e[0] !== '#') return NAMED[e.toLowerCase()] ?? whole;
    const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

const stripTags = (s: string): string => s.replace(/<[^>]*>/g, '');

const BLOCK = /<\/?(?:p|div|h[1-6]|ul|ol|table|blockquote|pre|hr|section|article|header|footer|address)\b[^>]*>/gi;

function link(attrs: string, inner: string): string {
  const href = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(attrs);
  const url = (href?.[1] ?? href?.[2] ?? href?.[3] ?? '').trim();
  const label = stripTags(inner).trim();
  if (url === '' || url.startsWith('#')) return label;
  // a bare link shows once; a labelled one shows both
  return label === '' || decodeEntities(label) === decodeEntities(url) ? url : `${label} (${url})`;
}

export function htmlToText(html: string): string {
  let s = html.replace(/<!--[\s\S]*?-->/g, '').replace(/<(script|style|head|title)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '');
  // in HTML, source line breaks are spaces; a body without any tag is plain text and keeps them
  if (/<[a-z/!][^>]*>/i.test(s)) s = s.replace(/\s+/g, ' ');
  s = s
    .replace(/<a\b([^>]*)>([\s\S]*?)<\/a\s*>/gi, (_m, attrs: string, inner: string) => link(attrs, inner))
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li\b[^>]*>/gi, '\n- ')
    .replace(/<\/(?:li|tr)\s*>/gi, '\n')
    .replace(/<t[dh]\b[^>]*>/gi, ' ')
    .replace(BLOCK, '\n\n');
  return decodeEntities(stripTags(s))
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Every http(s) address in a mail, from its HTML links and its text, once each. */
export function linksOf(html: string, text: string): string[] {
  const found = new Set<string>();
  for (const m of html.matchAll(/\bhref\s*=\s*(?:"([^"]*)"|'([^']*)')/gi)) {
    const url = decodeEntities((m[1] ?? m[2] ?? '').trim());
    if (/^https?:\/\//i.test(url)) found.add(url);
  }
  for (const m of text.matchAll(/https?:\/\/[^\s<>"'()]+/gi)) found.add(m[0].replace(/[.,;:!?]+$/, ''));
  return [...found];
}
