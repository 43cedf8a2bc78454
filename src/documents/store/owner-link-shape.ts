// How the links a row stores for one relation name their targets: which locale and status a reference
// resolves to, and what makes two links one. Shared by the write of one row's relation and by the
// look-up made ahead for all the new rows of a component list (placed-targets.ts), so both compute the
// same entries.
import { USER_UID, type ContentType, type RelationAttribute } from '../../schema/types.js';
import type { RelationRef } from '../input/types.js';
import { byDocument, type LinkKey } from './relation-list.js';
import type { RelationContext, SourceRow } from './relations.js';

export interface OwnerLinkShape {
  readonly target: ContentType;
  /** links from a source without locales to a localized target: one document may be linked once per locale */
  readonly perLocale: boolean;
  /** the links name the version of a draft & publish target they hold */
  readonly versioned: boolean;
  readonly localeFor: (r: RelationRef) => string | null;
  /** `fromRow`: the status is the version a row id names, not one the client wrote */
  readonly statusFor: (r: RelationRef, fromRow?: boolean) => string | null;
  /** the locale a link row stores */
  readonly storedLocale: (e: { locale?: string | null }) => string | null;
  readonly key: LinkKey;
}

/** A row of a type that has locales (component rows follow their document's, and have none of their own). */
function localizedSource(source: SourceRow): boolean {
  return source.schema.modelType === 'contentType' && source.schema.localized;
}

/**
 * The row is a version of a draft & publish entry, or a component of one: its links follow the
 * status a read asks for, whatever status the write named (Strapi 5.54 re-points a component's links
 * to the published rows when it publishes), where links from other rows keep the status they name.
 */
export function dpSource(source: SourceRow): boolean {
  return source.schema.modelType === 'contentType' ? source.schema.draftAndPublish : source.inDraftAndPublish === true;
}

/**
 * The locale a link from this row finds a target in: none for a target without locales; a localized
 * document's own, which the components it holds share (`source.locale` of a component row is its
 * document's), as Strapi resolves them; else the one the reference names, or the default.
 */
export function targetLocaleFor(ctx: RelationContext, source: SourceRow, target: ContentType): (r: RelationRef) => string | null {
  const documentLocale = source.schema.modelType === 'contentType' && !source.schema.localized ? null : source.locale;
  return (r) => (!target.localized ? null : (documentLocale ?? r.locale ?? ctx.defaultLocale));
}

export function ownerLinkShape(ctx: RelationContext, source: SourceRow, attr: RelationAttribute): OwnerLinkShape {
  const target = ctx.model.contentTypes.get(attr.target)!;
  const localeFor = targetLocaleFor(ctx, source, target);
  // links from a source without locales say their target's locale, and may name one document in
  // several (a download's games: G in English and G in French), as Strapi 5.54 links them
  const perLocale = target.localized && !localizedSource(source);
  const storedLocale = (e: { locale?: string | null }): string | null => (perLocale ? (e.locale ?? ctx.defaultLocale) : null);
  const key: LinkKey = perLocale ? (e) => `${e.doc}\u0000${storedLocale(e)!}` : byDocument;
  // links to a type with draft & publish from one without name the version(s) they hold
  const versioned = target.draftAndPublish && !dpSource(source);
  // a row id names a version too, as in Strapi, except from a user: the users routes read no drafts
  // (their relations show published versions), so a user linked to a draft row lost the link from
  // every read (akvo/climate-think-and-do-tank's organisation); the user links the document instead
  const rowsNameVersions = !(source.schema.modelType === 'contentType' && source.schema.uid === USER_UID);
  const statusFor = (r: RelationRef, fromRow?: boolean): string | null => (versioned && (rowsNameVersions || !fromRow) ? (r.status ?? null) : null);
  return { target, perLocale, versioned, localeFor, statusFor, storedLocale, key };
}
