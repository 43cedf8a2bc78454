// The ceiling: a bare Fastify server answering, for each read scenario's URL, the exact bytes Folio
// answered for it, in a process of its own (as Folio and Strapi are), so the load generator doesn't
// share its event loop. Its idle RSS is the floor of a Fastify server on this Node.
// Usage: node bench/ceiling-server.mjs MANIFEST PORT — MANIFEST is JSON { "<url>": "<body file>" }.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const [manifest, port] = process.argv.slice(2);
const bodies = new Map(Object.entries(JSON.parse(readFileSync(manifest, 'utf8'))).map(([url, file]) => [url, readFileSync(file)]));
const app = Fastify();
app.get('/*', (req, reply) => {
  const bytes = bodies.get(req.url);
  return bytes === undefined ? reply.code(404).send() : reply.type('application/json; charset=utf-8').send(bytes);
});
await app.listen({ host: '127.0.0.1', port: Number(port) });
const stop = () => app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
