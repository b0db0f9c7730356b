import Fastify from 'fastify';

/*
 * Peer for the HTTP request bench: a bare Fastify app answering the same routes with the same JSON as
 * XTalk (`BENCH_HTTP_BODIES`: the bodies the XTalk server answered, by route), with no schema, no
 * authentication, no store and no hooks. The floor for a Fastify route answering that JSON.
 */
const port = Number(process.env.PORT ?? 0);
const host = process.env.HOST ?? '127.0.0.1';
const bodies = JSON.parse(process.env.BENCH_HTTP_BODIES ?? '{}');

const app = Fastify({ logger: false });
app.get('/api/health', async () => bodies.health ?? { ok: true });
app.post('/xtalk', async () => bodies.join);
app.get('/api/rooms/:roomId/glossary', async () => bodies.glossary);
app.post('/api/purchase/verify/a', async (_request, reply) => reply.code(400).send(bodies.refusal));
await app.listen({ port, host });
