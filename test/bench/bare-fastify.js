// Baseline for the daemon benchmarks: the smallest Fastify server answering one route.
import Fastify from 'fastify'

const app = Fastify()
app.get('/health', async () => ({ status: 'ok' }))
// The players shape of the gaming bench: the same POST as ingestion, JSON parsed, 202.
app.post('/events', async (req, reply) => reply.code(202).send({ accepted: req.body.events.length }))
app.get('/r', async (_req, reply) => reply.code(302).header('location', 'https://example.com/').send())
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) })
const stop = () => app.close().then(() => process.exit(0))
process.once('SIGTERM', stop)
process.once('SIGINT', stop)
