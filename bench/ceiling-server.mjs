// The ceiling: a bare Fastify route answering fixed bytes, in a process of its own (as Folio and
// Strapi are), so the load generator doesn't share its event loop. Its idle RSS is the floor of a
// Fastify server on this Node. Usage: node bench/ceiling-server.mjs BODY_FILE PORT
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const [file, port] = process.argv.slice(2);
const bytes = readFileSync(file);
const app = Fastify();
app.get('/api/articles', (_req, reply) => reply.type('application/json; charset=utf-8').send(bytes));
await app.listen({ host: '127.0.0.1', port: Number(port) });
const stop = () => app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
