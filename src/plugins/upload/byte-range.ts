// The part of a file a GET asks for with `Range` (RFC 9110 §14), for seeking in uploaded video and
// audio (Safari won't play media from a server that ignores it). One byte range is served as asked;
// a header that isn't a byte range, or asks for several ranges at once, is ignored and the whole file
// served, which the RFC allows. If-Range naming another version than the file's also means the
// whole file.
import parseRange from 'range-parser';

export type RangeAnswer = { readonly kind: 'whole' } | { readonly kind: 'part'; readonly start: number; readonly end: number } | { readonly kind: 'unsatisfiable' };

const WHOLE: RangeAnswer = { kind: 'whole' };

export function byteRange(size: number, range: string | undefined, ifRange: string | undefined, lastModified: Date): RangeAnswer {
  if (range === undefined) return WHOLE;
  if (ifRange !== undefined) {
    // only a date validator can match: the files carry no ETag
    const since = Date.parse(ifRange);
    if (Number.isNaN(since) || Math.floor(lastModified.getTime() / 1000) > Math.floor(since / 1000)) return WHOLE;
  }
  const ranges = parseRange(size, range, { combine: true });
  if (ranges === -1) return { kind: 'unsatisfiable' };
  if (ranges === -2 || ranges.type !== 'bytes' || ranges.length !== 1) return WHOLE;
  const [only] = ranges;
  return { kind: 'part', start: only!.start, end: only!.end };
}
