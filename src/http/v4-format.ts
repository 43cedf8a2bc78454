// The previous response format, asked for with `Strapi-Response-Format: v4`: each entry becomes
// {id, documentId, attributes}, and populated relations and media are wrapped in {data}.
import { FILE_UID, relationTarget, type Component, type ContentType, type Model } from '../schema/types.js';

type Obj = Record<string, unknown>;

function fields(model: Model, schema: ContentType | Component, o: Obj): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(o)) {
    const a = schema.attributes.get(k) ?? schema.adminRelations?.get(k);
    if (a?.kind === 'relation') out[k] = { data: entries(model, relationTarget(model, a), v) };
    else if (a?.kind === 'media') out[k] = { data: entries(model, model.contentTypes.get(FILE_UID)!, v) };
    else if (a?.kind === 'component') {
      const comp = model.components.get(a.component)!;
      out[k] = Array.isArray(v) ? v.map((c) => fields(model, comp, c as Obj)) : v && typeof v === 'object' ? fields(model, comp, v as Obj) : v;
    } else if (a?.kind === 'dynamiczone' && Array.isArray(v)) {
      out[k] = v.map((e) => {
        const comp = model.components.get(String((e as Obj)['__component']));
        return comp ? fields(model, comp, e as Obj) : e;
      });
    } else if (k === 'localizations' && schema.modelType === 'contentType') {
      out[k] = { data: entries(model, schema, v) };
    } else out[k] = v;
  }
  return out;
}

function entry(model: Model, type: ContentType, o: Obj): Obj {
  const { id, documentId, ...rest } = o;
  // a populated count ({count: n}) is an entry without ids: {data: {attributes: {count: n}}}
  if (id === undefined && documentId === undefined && rest['count'] !== undefined && Object.keys(rest).length === 1) return { attributes: rest };
  return { id, documentId, attributes: fields(model, type, rest) };
}

function entries(model: Model, type: ContentType, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (Array.isArray(v)) return v.map((o) => entry(model, type, o as Obj));
  return entry(model, type, v as Obj);
}

export function toV4(model: Model, type: ContentType, data: Obj | Obj[] | null): unknown {
  return entries(model, type, data);
}
