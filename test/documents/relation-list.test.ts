// The list a connect edits: positions applied in array order, in time linear in the list. A search of
// the list for every item (findIndex, filter, splice) was 10^8 steps for the 10,000 documents one write
// may name, most of a second of the event loop for each relation list of such a write.
import { describe, expect, it } from 'vitest';
import { applyOp } from '../../src/documents/store/relation-list.js';
import type { Position, RelationOp } from '../../src/documents/input/types.js';

type E = { doc: string; locale: string | null; status: string | null };
const entry = (doc: string): E => ({ doc, locale: null, status: null });

function connect(current: readonly string[], items: readonly { doc: string; position?: Position }[], disconnect: string[] = [], strict = true): string[] {
  const op: RelationOp = { kind: 'change', connect: items.map((i) => ({ documentId: i.doc, ...(i.position ? { position: i.position } : {}) })), disconnect: [], strict };
  return applyOp(
    current.map(entry),
    op,
    items.map((i) => entry(i.doc)),
    [],
    disconnect,
    true,
  ).map((e) => e.doc);
}

describe('applying a connect', () => {
  it('places each item as Strapi does, in array order', () => {
    expect(
      connect(
        ['a', 'b', 'c'],
        [
          { doc: 'd', position: { before: 'b' } },
          { doc: 'a', position: { end: true } },
          { doc: 'e', position: { start: true } },
        ],
      ),
    ).toEqual(['e', 'd', 'b', 'c', 'a']);
    expect(
      connect(
        ['a', 'b', 'c'],
        [
          { doc: 'c', position: { after: 'a' } },
          { doc: 'x', position: { after: 'c' } },
        ],
      ),
    ).toEqual(['a', 'c', 'x', 'b']);
    // a disconnected document marks its place for this connect's positions, then leaves
    expect(connect(['a', 'b', 'c'], [{ doc: 'x', position: { before: 'b' } }], ['b'])).toEqual(['a', 'x', 'c']);
    // loose: an anchor that isn't there keeps a linked item where it was, and appends a new one
    expect(
      connect(
        ['a', 'b', 'c'],
        [
          { doc: 'b', position: { before: 'zz' } },
          { doc: 'n', position: { after: 'zz' } },
        ],
        [],
        false,
      ),
    ).toEqual(['a', 'b', 'c', 'n']);
    expect(() => connect(['a'], [{ doc: 'b', position: { before: 'zz' } }])).toThrow(/needs to be connected first/);
    expect(() => connect(['a'], [{ doc: 'a', position: { before: 'a' } }])).toThrow(/needs to be connected first/);
  });

  it('places 10,000 items appended, each at the start, or each before the previous (a quadratic search took seconds here)', () => {
    const n = 10_000;
    const docs = Array.from({ length: n }, (_, i) => `d${i}`);
    const appended = connect(
      [],
      docs.map((doc) => ({ doc })),
    );
    const reversed = connect(
      appended,
      docs.map((doc) => ({ doc, position: { start: true } })),
    );
    const chained = connect(
      reversed,
      docs.map((doc, i) => ({ doc, ...(i > 0 ? { position: { before: docs[i - 1]! } } : {}) })),
    );
    expect(appended).toEqual(docs);
    expect(reversed).toEqual([...docs].reverse());
    expect(chained).toEqual([...docs.slice(1)].reverse().concat('d0'));
  });
});
