// The tables the model needs, as plain data: schema sync creates them; copying a row reads its column list.
import { createHash } from 'node:crypto';
import type { Component, ContentType, Model, ScalarType } from '../schema/types.js';
import { SYSTEM_COLUMNS as C } from '../schema/types.js';
import { earlierColumnNames } from '../schema/earlier-names.js';
import { BUCKETS_TABLE, type Partition } from './table-buckets.js';

export type ColumnKind = ScalarType | 'id' | 'ref' | 'docid' | 'short' | 'ord';

export interface ColumnDef {
  readonly name: string;
  readonly type: ColumnKind;
  readonly notNull?: boolean;
  /** the names earlier versions gave this column: sync renames one it finds */
  readonly formerly?: readonly string[];
}

export interface IndexDef {
  readonly name: string;
  readonly columns: readonly string[];
  readonly unique?: boolean;
  /** indexes of earlier versions this one supersedes: dropped once it exists */
  readonly replaces?: readonly string[];
}

export interface TableDef {
  readonly name: string;
  readonly columns: readonly ColumnDef[];
  readonly indexes: readonly IndexDef[];
  /** the column reads address its rows by, which its change buckets follow (table-buckets.ts) */
  readonly partition?: Partition;
  /** the names earlier versions gave this table: sync renames one it finds */
  readonly formerly?: readonly string[];
}

const idCol: ColumnDef = { name: 'id', type: 'id' };

/** Tables Folio itself needs, whatever the schema files say. */
export const SYSTEM_TABLES: readonly TableDef[] = [
  {
    name: 'folio_api_tokens',
    columns: [
      idCol,
      { name: 'name', type: 'short', notNull: true },
      { name: 'description', type: 'text' },
      { name: 'type', type: 'short', notNull: true },
      { name: 'access_key', type: 'string', notNull: true },
      { name: 'permissions', type: 'json' },
      { name: 'lifespan', type: 'biginteger' },
      { name: 'expires_at', type: 'datetime' },
      { name: 'last_used_at', type: 'datetime' },
      { name: 'created_at', type: 'datetime' },
      { name: 'updated_at', type: 'datetime' },
    ],
    indexes: [
      { name: 'folio_api_tokens_name_uq', columns: ['name'], unique: true },
      { name: 'folio_api_tokens_key_idx', columns: ['access_key'], unique: true },
    ],
  },
  {
    name: 'up_permissions',
    columns: [
      idCol,
      { name: 'action', type: 'string', notNull: true },
      { name: 'role_id', type: 'ref', notNull: true },
      { name: 'created_at', type: 'datetime' },
      { name: 'updated_at', type: 'datetime' },
      // shown as Strapi shows a permission (`populate=role.permissions`); rows of earlier Folio
      // versions get theirs at start-up (RoleStore.seed)
      { name: C.documentId, type: 'docid' },
      { name: 'published_at', type: 'datetime' },
    ],
    indexes: [{ name: 'up_permissions_role_action_uq', columns: ['role_id', 'action'], unique: true }],
  },
  {
    name: 'i18n_locale',
    columns: [
      idCol,
      { name: C.documentId, type: 'docid', notNull: true },
      { name: 'name', type: 'string' },
      { name: 'code', type: 'short', notNull: true },
      { name: 'is_default', type: 'boolean' },
      { name: 'created_at', type: 'datetime' },
      { name: 'updated_at', type: 'datetime' },
      { name: 'published_at', type: 'datetime' },
    ],
    indexes: [{ name: 'i18n_locale_code_uq', columns: ['code'], unique: true }],
  },
  {
    name: 'folio_store',
    columns: [idCol, { name: 'store_key', type: 'short', notNull: true }, { name: 'value', type: 'json' }],
    indexes: [{ name: 'folio_store_key_uq', columns: ['store_key'], unique: true }],
  },
  {
    // one row per lock name: a write to it inside a transaction serializes that transaction with every
    // other one taking the same lock (row lock on PostgreSQL and MySQL, the write lock on SQLite)
    name: 'folio_locks',
    columns: [idCol, { name: 'name', type: 'short', notNull: true }, { name: 'taken', type: 'biginteger' }],
    indexes: [{ name: 'folio_locks_name_uq', columns: ['name'], unique: true }],
  },
  {
    // refresh-mode sessions (users-permissions): one row per refresh token issued; rotation marks the
    // row rotated and adds the next one in the same family; times are epoch milliseconds
    name: 'folio_sessions',
    columns: [
      idCol,
      { name: 'session_id', type: 'short', notNull: true },
      { name: 'user_id', type: 'ref', notNull: true },
      { name: 'device_id', type: 'string' },
      // the readable label of the login's User-Agent (device-name.ts), kept through rotations
      { name: 'device_name', type: 'string' },
      { name: 'family_id', type: 'short', notNull: true },
      { name: 'origin', type: 'short', notNull: true },
      { name: 'status', type: 'short', notNull: true },
      { name: 'login_at', type: 'biginteger', notNull: true },
      { name: 'created_at', type: 'biginteger', notNull: true },
      { name: 'last_active_at', type: 'biginteger', notNull: true },
      { name: 'expires_at', type: 'biginteger', notNull: true },
      { name: 'absolute_expires_at', type: 'biginteger', notNull: true },
    ],
    indexes: [
      { name: 'folio_sessions_session_uq', columns: ['session_id'], unique: true },
      { name: 'folio_sessions_user_idx', columns: ['user_id', 'status'] },
      { name: 'folio_sessions_family_idx', columns: ['family_id'] },
    ],
  },
  {
    // users-permissions rate-limit counters (plugins/users-permissions/rate-limit-store.ts): one row
    // per key, its hits in the window ending at reset_at (epoch ms). No id column: an upsert that
    // finds its row would still use up a sequence value on every request.
    name: 'folio_rate_limits',
    columns: [
      { name: 'rl_key', type: 'short', notNull: true },
      { name: 'hits', type: 'integer', notNull: true },
      { name: 'reset_at', type: 'biginteger', notNull: true },
    ],
    indexes: [
      { name: 'folio_rate_limits_key_uq', columns: ['rl_key'], unique: true },
      { name: 'folio_rate_limits_reset_idx', columns: ['reset_at'] },
    ],
  },
  {
    // third-party logins in progress (users-permissions providers): one row per browser that went to a
    // provider, named by its signed cookie; the provider's tokens once it came back, until the login
    // that uses them deletes the row; times are epoch milliseconds
    name: 'folio_oauth_flows',
    columns: [
      { name: 'flow_id', type: 'short', notNull: true },
      { name: 'provider', type: 'short', notNull: true },
      { name: 'state', type: 'short', notNull: true },
      { name: 'code_verifier', type: 'short', notNull: true },
      { name: 'callback', type: 'text', notNull: true },
      { name: 'tokens', type: 'text' },
      { name: 'expires_at', type: 'biginteger', notNull: true },
    ],
    indexes: [
      { name: 'folio_oauth_flows_id_uq', columns: ['flow_id'], unique: true },
      { name: 'folio_oauth_flows_expires_idx', columns: ['expires_at'] },
    ],
  },
  {
    // one change counter per table (table-versions.ts), bumped inside every transaction that writes it
    name: 'folio_table_versions',
    columns: [
      { name: 'table_name', type: 'short', notNull: true },
      { name: 'version', type: 'biginteger', notNull: true },
    ],
    indexes: [{ name: 'folio_table_versions_name_uq', columns: ['table_name'], unique: true }],
  },
  {
    // the table version that last wrote each bucket of a bucketed table (table-buckets.ts)
    name: BUCKETS_TABLE,
    columns: [
      { name: 'table_name', type: 'short', notNull: true },
      { name: 'bucket', type: 'integer', notNull: true },
      { name: 'version', type: 'biginteger', notNull: true },
    ],
    indexes: [
      { name: `${BUCKETS_TABLE}_uq`, columns: ['table_name', 'bucket'], unique: true },
      { name: `${BUCKETS_TABLE}_version_idx`, columns: ['table_name', 'version'] },
    ],
  },
  {
    name: 'upload_folders',
    columns: [
      idCol,
      { name: C.documentId, type: 'docid', notNull: true },
      { name: 'name', type: 'string', notNull: true },
      { name: 'path_id', type: 'integer', notNull: true },
      { name: 'path', type: 'string', notNull: true },
      { name: 'created_at', type: 'datetime' },
      { name: 'updated_at', type: 'datetime' },
    ],
    indexes: [{ name: 'upload_folders_path_uq', columns: ['path'], unique: true }],
  },
  {
    name: 'files_related_mph',
    columns: [
      idCol,
      { name: 'file_id', type: 'ref', notNull: true },
      { name: 'related_id', type: 'ref', notNull: true },
      { name: 'related_type', type: 'short', notNull: true },
      { name: 'field', type: 'short', notNull: true },
      { name: 'ord', type: 'ord', notNull: true },
    ],
    indexes: [
      { name: 'files_related_mph_rel_idx', columns: ['related_id', 'related_type', 'field', 'ord'] },
      { name: 'files_related_mph_file_idx', columns: ['file_id'] },
    ],
    partition: { column: 'related_id', kind: 'int' },
  },
];

function componentLinkTable(name: string): TableDef {
  return {
    name,
    columns: [
      idCol,
      { name: 'entity_id', type: 'ref', notNull: true },
      { name: 'cmp_id', type: 'ref', notNull: true },
      { name: 'component_type', type: 'short', notNull: true },
      { name: 'field', type: 'short', notNull: true },
      { name: 'ord', type: 'ord', notNull: true },
    ],
    indexes: [
      { name: `${name}_entity_idx`, columns: ['entity_id', 'field', 'ord'] },
      { name: `${name}_cmp_idx`, columns: ['cmp_id', 'component_type'] },
    ],
    partition: { column: 'entity_id', kind: 'int' },
  };
}

/**
 * Relation links point from a source row to a target *document*: the version shown is chosen at
 * read time from the reader's locale and status, so publishing or adding a locale never re-links.
 */
function relationLinkTable(name: string): TableDef {
  return {
    name,
    columns: [
      idCol,
      { name: 'source_id', type: 'ref', notNull: true },
      { name: 'target_document_id', type: 'docid', notNull: true },
      { name: 'target_locale', type: 'short' },
      { name: 'target_status', type: 'short' },
      { name: 'ord', type: 'ord', notNull: true },
      { name: 'inv_ord', type: 'ord', notNull: true },
    ],
    // each index carries the other end of the link, so populating, filtering through and
    // counting a relation read the index alone (a relation filter at 1M articles: 300 → 145 ms);
    // the source side also carries the link's id, which a populate level's link read orders by:
    // without it PostgreSQL read whole link tables (list populate=*: 2.7–3.6 → 1.9–2.5 ms of its CPU per request)
    indexes: [
      {
        name: `${name}_src_ix`,
        columns: ['source_id', 'ord', 'target_document_id', 'id'],
        replaces: [`${name}_src_idx`, `${name}_src_cov`],
      },
      { name: `${name}_tgt_cov`, columns: ['target_document_id', 'inv_ord', 'source_id'], replaces: [`${name}_tgt_idx`] },
    ],
    partition: { column: 'source_id', kind: 'int' },
  };
}

/** The columns of a content-type or component row besides its id, in table order. */
export function rowColumns(schema: ContentType | Component): ColumnDef[] {
  const columns: ColumnDef[] = schema.modelType === 'contentType' ? [{ name: C.documentId, type: 'docid', notNull: true }] : [];
  for (const name of schema.order) {
    const a = schema.attributes.get(name)!;
    if (a.kind !== 'scalar') continue;
    const earlier = earlierColumnNames(a.column, a.name);
    columns.push(earlier.length ? { name: a.column, type: a.type, formerly: earlier.flatMap(earlierNames) } : { name: a.column, type: a.type });
  }
  if (schema.modelType === 'contentType') {
    columns.push({ name: C.createdAt, type: 'datetime' }, { name: C.updatedAt, type: 'datetime' }, { name: C.publishedAt, type: 'datetime' }, { name: C.locale, type: 'short' });
  }
  return columns;
}

/** PostgreSQL keeps 63 bytes of a name (it cuts the rest silently), MySQL refuses more than 64 */
export const MAX_INDEX_NAME = 63;

/**
 * An index name a table's name and its suffix made too long (a component `..._quote_with_titles`
 * gives `..._cmps_entity_idx`, 65 characters): its start and a hash of the whole, so it stays unique
 * and the same at every start. The whole name is still replaced where it exists (SQLite kept it), and
 * so is PostgreSQL's cut form, which a later sync never found by the whole name and created again.
 */
function fitIndex(idx: IndexDef): IndexDef {
  if (idx.name.length <= MAX_INDEX_NAME) return idx;
  const hash = createHash('sha256').update(idx.name).digest('hex').slice(0, 8);
  const name = `${idx.name.slice(0, MAX_INDEX_NAME - hash.length - 1)}_${hash}`;
  const olds = [...(idx.replaces ?? []), idx.name].flatMap((o) => (o.length > MAX_INDEX_NAME ? [o, o.slice(0, MAX_INDEX_NAME)] : [o]));
  return { ...idx, name, replaces: [...new Set(olds)] };
}

/** a name earlier versions used whole: as SQLite and MySQL kept it, and as PostgreSQL cut it */
function earlierNames(whole: string): string[] {
  return whole.length > MAX_INDEX_NAME ? [whole, whole.slice(0, MAX_INDEX_NAME)] : [whole];
}

/** the names an index had when an earlier version named it `name`: as fitIndex fitted it, and as it was kept before */
function earlierIndexNames(name: string): string[] {
  const fitted = fitIndex({ name, columns: [] });
  return [fitted.name, ...(fitted.replaces ?? [])];
}

/**
 * A table an earlier version made under other names: sync renames it, and its indexes, named after
 * such a name, are replaced by those named after the new one.
 */
function renamedFrom(t: TableDef, olds: readonly string[]): TableDef {
  const indexes = t.indexes.map((idx) => {
    const named = [idx.name, ...(idx.replaces ?? [])].filter((n) => n.startsWith(t.name));
    if (!named.length) return idx;
    const earlier = olds.flatMap((old) => named.flatMap((n) => earlierIndexNames(`${old}${n.slice(t.name.length)}`)));
    return { ...idx, replaces: [...new Set([...(idx.replaces ?? []), ...earlier])] };
  });
  return { ...t, indexes, formerly: [...new Set(olds.flatMap(earlierNames))] };
}

export function modelTables(model: Model): TableDef[] {
  return modelTablesAsNamed(model).map((named) => {
    const olds = model.formerTables?.get(named.name);
    const t = olds === undefined ? named : renamedFrom(named, olds);
    return t.indexes.some((i) => i.name.length > MAX_INDEX_NAME) ? { ...t, indexes: t.indexes.map(fitIndex) } : t;
  });
}

function modelTablesAsNamed(model: Model): TableDef[] {
  const out: TableDef[] = [];
  const links = new Set<string>();
  for (const ct of model.contentTypes.values()) {
    const columns: ColumnDef[] = [idCol, ...rowColumns(ct)];
    const indexes: IndexDef[] = [
      { name: `${ct.table}_doc_idx`, columns: [C.documentId, C.locale, C.publishedAt] },
      { name: `${ct.table}_status_idx`, columns: [C.locale, C.publishedAt, 'id'] },
      // the default list (ORDER BY id within a locale) walks this index and stops at the page's end
      { name: `${ct.table}_locale_id_idx`, columns: [C.locale, 'id'] },
    ];
    for (const name of ct.order) {
      const a = ct.attributes.get(name)!;
      // unique attributes and uids are looked up by value (uniqueness checks, slugs in URLs)
      if (a.kind === 'scalar' && (a.unique || a.type === 'uid')) {
        // the index an earlier version named after the column's earlier name goes with that name
        const replaces = earlierColumnNames(a.column, a.name).flatMap((c) => earlierIndexNames(`${ct.table}_${c}_idx`));
        indexes.push({ name: `${ct.table}_${a.column}_idx`, columns: [a.column], ...(replaces.length ? { replaces } : {}) });
      }
    }
    out.push({ name: ct.table, columns, indexes, partition: { column: C.documentId, kind: 'text' } });
    out.push(componentLinkTable(ct.componentTable));
  }
  for (const c of model.components.values()) {
    out.push({ name: c.table, columns: [idCol, ...rowColumns(c)], indexes: [], partition: { column: 'id', kind: 'int' } });
    if ([...c.attributes.values()].some((a) => a.kind === 'component' || a.kind === 'dynamiczone')) out.push(componentLinkTable(c.componentTable));
  }
  for (const schema of [...model.contentTypes.values(), ...model.components.values()]) {
    for (const a of schema.attributes.values()) {
      if (a.kind === 'relation' && a.owner && !links.has(a.linkTable)) {
        links.add(a.linkTable);
        out.push(relationLinkTable(a.linkTable));
      }
    }
  }
  return out;
}
