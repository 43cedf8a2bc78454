// JSON and form bodies parsed the way Strapi's clients expect (behaviour.md §2.5).
import type { FastifyInstance } from 'fastify';
import { parseFormBody } from '../query/parse/qs.js';
import type { QueryParserLimits } from '../config/query-parser-config.js';
import { ValidationError } from '../errors.js';
import { jsonDeeperThan, MAX_JSON_DEPTH } from '../values/json-depth.js';

class BodySyntaxError extends SyntaxError {
  readonly statusCode = 400;
}

export function registerBodyParsers(app: FastifyInstance, jsonLimit: number, queryLimits: QueryParserLimits): void {
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser(['application/json', 'application/vnd.api+json'], { parseAs: 'string', bodyLimit: jsonLimit }, (_req, body, done) => {
    // a byte-order mark some clients (PowerShell, .NET) put first is no JSON, but Strapi's body parser skips it
    const sent = body as string;
    const text = sent.startsWith('\uFEFF') ? sent.slice(1) : sent;
    if (text.trim() === '') return done(null, undefined);
    // checked on the text: parsing is fine, but every later step that recurses over the value isn't
    if (text.length > MAX_JSON_DEPTH && jsonDeeperThan(text, MAX_JSON_DEPTH)) {
      return done(new ValidationError(`JSON bodies may nest objects and arrays at most ${MAX_JSON_DEPTH} levels deep`, { limit: MAX_JSON_DEPTH }), undefined);
    }
    // as koa-body's strict mode (Strapi's parser): a body that can't open an object or an array is refused before parsing
    const first = text.trimStart()[0];
    if (first !== '{' && first !== '[') return done(new BodySyntaxError('invalid JSON, only supports object and array'), undefined);
    // text opening an object or an array parses to one, or not at all
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      return done(new BodySyntaxError((e as Error).message), undefined);
    }
    done(null, parsed);
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: jsonLimit }, (_req, body, done) => {
    let parsed: unknown;
    try {
      parsed = parseFormBody(body as string, queryLimits);
    } catch (e) {
      return done(e as Error, undefined);
    }
    done(null, parsed);
  });
  // any other type reaches the handler without a parsed body: "Missing data payload" there
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: jsonLimit }, (_req, _body, done) => done(null, undefined));
}
