#!/usr/bin/env node
// Makes the reference Strapi's copy of a project's schema files loadable without the project's
// plugins, for bench/compare-project-setup.sh: the reference has none of them installed, so Strapi
// 5.54 stops at a custom field (`Could not find Custom Field: plugin::ckeditor5.CKEditor`) or a relation
// to a plugin's type (`Metadata for "plugin::form-builder.built-form" not found`). Each custom field
// becomes the type Folio stores it as (its table, then the project's config/custom-fields.json), and a
// relation to a plugin type Folio doesn't have is left out, as Folio leaves it out.
//
//   node bench/compare-reference-schemas.mjs <reference copy's src folder> <project folder>
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { KNOWN_CUSTOM_FIELDS } from '../dist/schema/custom-fields.js';

const [src, project] = process.argv.slice(2);
if (!src || !project) throw new Error('usage: compare-reference-schemas.mjs <reference src> <project>');
const mapped = new Map(KNOWN_CUSTOM_FIELDS);
const own = join(project, 'config/custom-fields.json');
if (existsSync(own)) for (const [id, type] of Object.entries(JSON.parse(readFileSync(own, 'utf8')))) mapped.set(id, type);
// the plugins whose types the reference has
const BUILT_IN = /^plugin::(upload|users-permissions|i18n)\./;

let changed = 0;
const visit = (dir) => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) visit(path);
    else if (e.name.endsWith('.json')) rewrite(path);
  }
};
const rewrite = (path) => {
  const schema = JSON.parse(readFileSync(path, 'utf8'));
  if (!schema.attributes) return;
  let touched = false;
  for (const [name, a] of Object.entries(schema.attributes)) {
    if (a.type === 'customField') {
      const type = mapped.get(a.customField);
      if (!type) throw new Error(`${path}: attribute ${name}: custom field ${a.customField} has no type (map it in the project's config/custom-fields.json)`);
      a.type = type;
      delete a.customField;
      touched = true;
    } else if (a.type === 'relation' && typeof a.target === 'string' && a.target.startsWith('plugin::') && !BUILT_IN.test(a.target)) {
      delete schema.attributes[name];
      touched = true;
    }
  }
  if (touched) {
    writeFileSync(path, JSON.stringify(schema, null, 2));
    changed++;
  }
};
if (existsSync(src)) visit(src);
if (changed) console.log(`reference schemas: ${changed} file(s) rewritten (custom fields as their stored types, plugin relations left out)`);
