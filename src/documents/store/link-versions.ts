// Links from a type without draft & publish to one with it name the version they hold: the draft,
// the published one, or both (status null). As in Strapi 5.54, where each version is a row linked on
// its own, a connect naming one version adds it to a link that holds the other (the link then holds
// both), and a disconnect naming one version takes only that one away.

interface Versioned {
  readonly doc: string;
  readonly locale?: string | null;
  readonly status: string | null;
}

type Key = (e: { doc: string; locale?: string | null }) => string;

/** The link a connect of `now` leaves where `was` already linked the document: the versions of both. */
export function withVersionsOf<T extends Versioned>(was: T, now: T): T {
  return was.status === now.status ? now : { ...now, status: null };
}

const otherVersion = (status: string): string => (status === 'draft' ? 'published' : 'draft');

/**
 * Applies the disconnects naming one version to the links holding both (they keep the other one), and
 * answers the keys of the links a disconnect removes whole: those naming no version, or the only one held.
 */
export function disconnectVersions<T extends Versioned>(current: readonly T[], disconnect: readonly Versioned[], key: Key): { current: T[]; gone: string[] } {
  const byKey = new Map(current.map((e) => [key(e), e]));
  const gone: string[] = [];
  for (const d of disconnect) {
    const k = key(d);
    const linked = byKey.get(k);
    if (d.status === null || linked === undefined || linked.status === d.status) gone.push(k);
    else if (linked.status === null) byKey.set(k, { ...linked, status: otherVersion(d.status) });
    // a link holding only the other version keeps it
  }
  return { current: current.map((e) => byKey.get(key(e)) ?? e), gone };
}
