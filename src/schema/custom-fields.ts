// Custom fields (`"type": "customField", "customField": "plugin::<plugin>.<name>"`): Strapi stores
// each as the plain type its plugin registers on the server (strapi.customFields.register({ type })),
// and so does Folio. The table holds what widely used Strapi 5 plugins register; a project maps any
// other in config/custom-fields (README, "Bringing a Strapi project").
import type { ScalarType } from './types.js';

/** the types a custom field may be stored as: Strapi refuses relations, media, components and zones */
export const CUSTOM_FIELD_TYPES: readonly ScalarType[] = [
  'string',
  'text',
  'richtext',
  'blocks',
  'json',
  'enumeration',
  'email',
  'uid',
  'date',
  'time',
  'datetime',
  'integer',
  'biginteger',
  'float',
  'decimal',
  'boolean',
];

/** what each plugin's server registration says, looked up in the plugin's own source */
export const KNOWN_CUSTOM_FIELDS: ReadonlyMap<string, ScalarType> = new Map<string, ScalarType>([
  // @_sh/strapi-plugin-ckeditor (the Strapi 5 CKEditor 5 plugin): HTML
  ['plugin::ckeditor5.CKEditor', 'richtext'],
  // @ckeditor/strapi-plugin-ckeditor (CKEditor's own, Strapi 4.4+)
  ['plugin::ckeditor.CKEditor', 'richtext'],
  // @strapi/plugin-color-picker: a hex string
  ['plugin::color-picker.color', 'string'],
  // strapi-plugin-multi-select: the chosen options as a JSON array
  ['plugin::multi-select.multi-select', 'json'],
  // Tiptap editors: one storing ProseMirror JSON as json; @notum-cz/strapi-plugin-tiptap-editor's RichText
  // registers text (its editor writes the JSON as a string, which the API returns as that string)
  ['plugin::tiptap-editor.tiptap-content', 'json'],
  ['plugin::tiptap-editor.RichText', 'text'],
  // TinyMCE (@sklinet/strapi-plugin-tinymce): HTML, registered as richtext since its 1.1.4 (a string before)
  ['plugin::tinymce.tinymce', 'richtext'],
  // icon pickers: an icon name, or IconHub's { iconName, iconData, … } object
  ['plugin::icon-picker.icon', 'string'],
  ['plugin::strapi-react-icons.icon', 'string'],
  ['plugin::strapi-plugin-iconhub.iconhub', 'json'],
  // maps and places: coordinates and address as an object
  ['plugin::google-maps.location-picker', 'json'],
  ['plugin::location-field.location', 'json'],
  // strapi-geodata: { lat, lng, geohash } as an object
  ['plugin::geodata.geojson', 'json'],
  // slug from a rich text field
  ['plugin::slugify-from-richtext.slug-from-richtext', 'string'],
  // strapi-plugin-permalinks: the path of nested pages
  ['plugin::permalinks.permalink', 'string'],
  // link pickers: a URL (strapi-plugin-link-custom-field), or an Open Graph card as an object (og-pretty-link)
  ['plugin::link-custom-field.link', 'string'],
  ['plugin::og-pretty-link.og-link', 'json'],
  // a YouTube URL (strapi-plugin-youtube-preview)
  ['plugin::youtube-preview.youtube', 'string'],
  // strapi-code-editor-custom-field: code as text (prefixed with its language), JSON as json
  ['plugin::strapi-code-editor-custom-field.code-editor-text', 'text'],
  ['plugin::strapi-code-editor-custom-field.code-editor-json', 'json'],
  // strapi-plugin-auto-locales-slug: a slug per locale, in a string
  ['plugin::auto-locales-slug.auto-locales-slug', 'string'],
  // UUIDs: strapi-advanced-uuid registers a uid, strapi-auto-uuid-v5 (plugin id field-uuid) a string; both
  // fill the value in a lifecycle hook, which Folio doesn't run (the client sends it)
  ['plugin::strapi-advanced-uuid.uuid', 'uid'],
  ['plugin::field-uuid.uuid', 'string'],
  // @opkod-france/strapi-plugin-rrule (a recurrence rule) and -opening-hours (a week's hours): objects
  ['plugin::rrule.rrule', 'json'],
  ['plugin::opening-hours.opening-hours', 'json'],
  // strapi-plugin-dynamic-enumeration-field: the chosen option
  ['plugin::dynamic-enumeration.dynamic-field', 'string'],
  // strapi-plugin-tagsinput (canopas): the tags as a JSON list
  ['plugin::tagsinput.tags', 'json'],
  // SKLINET's plugins for Strapi 5: @sklinet/strapi-plugin-video-field keeps the video's provider, id and
  // URL as an object (json since its 1.1.0; its Strapi 4 releases registered a string), and
  // @sklinet/strapi-plugin-form-builder's read-only view of a submitted form keeps the answers as an object
  ['plugin::video-field.video', 'json'],
  ['plugin::form-builder.form-message-view', 'json'],
]);

export const CUSTOM_FIELDS_CONFIG = 'config/custom-fields';

/** The stored type of a custom field: the project's mapping first, then the known plugins'. */
export function customFieldType(id: string, project: ReadonlyMap<string, ScalarType> | undefined): ScalarType | undefined {
  return project?.get(id) ?? KNOWN_CUSTOM_FIELDS.get(id);
}
