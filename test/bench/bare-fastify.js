// Baseline for the daemon benchmarks: the smallest Fastify server answering one route.
import Fastify from 'fastify'

const app = Fastify()
app.get('/health', async () => ({ status: 'ok' }))
app.get('/r', async (_req, reply) => reply.code(302).header('location', 'https://example.com/').send())
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) })
const stop = () => app.close().then(() => process.exit(0))
process.once('SIGTERM', stop)
process.once('SIGINT', stop)
