import { getHeapStatistics } from 'node:v8'
import Type, { type Static } from 'typebox'
import { Value } from 'typebox/value'

const LogLevel = Type.Union(
  [
    Type.Literal('fatal'),
    Type.Literal('error'),
    Type.Literal('warn'),
    Type.Literal('info'),
    Type.Literal('debug'),
    Type.Literal('trace'),
    Type.Literal('silent'),
  ],
  { default: 'info' },
)

/** Seconds to wait before each retry, comma-separated: `5,300,1800` (decimals allowed). */
const RETRY_SCHEDULE_PATTERN = '^\\s*\\d+(\\.\\d+)?(\\s*,\\s*\\d+(\\.\\d+)?)*\\s*$'

/** `false`, `true`, a number of proxy hops, or comma-separated proxy addresses/CIDRs. */
const TRUST_PROXY_PATTERN = '^(false|true|\\d+|[0-9A-Fa-f.:/]+(\\s*,\\s*[0-9A-Fa-f.:/]+)*)$'

/** `*`, or comma-separated origins (`scheme://host[:port]`, no path): `http://localhost:30000,https://vtt.example`. */
const CORS_ORIGINS_PATTERN = '^\\s*(\\*|[a-z][a-z0-9+.-]*://[^\\s,/]+(\\s*,\\s*[a-z][a-z0-9+.-]*://[^\\s,/]+)*)\\s*$'

/** Share of the V8 heap limit in use above which the instance sheds load, unless set. */
export const HEAP_SHED_FRACTION = 0.75

/**
 * The default heap threshold of load shedding: a share of this process's V8 heap limit, which
 * `--max-old-space-size` sets (the Docker image runs with a bounded heap). A fixed number would
 * sit above a small limit and never fire before the process runs out of memory.
 */
export function defaultMaxHeapUsedBytes(heapSizeLimit = getHeapStatistics().heap_size_limit): number {
  return Math.floor(heapSizeLimit * HEAP_SHED_FRACTION)
}

/**
 * Every setting Nerve reads from its environment. Validated once at boot; the rest of the
 * code receives the typed result and never reads `process.env`.
 */
const ConfigSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  HOST: Type.String({ minLength: 1, default: '127.0.0.1' }),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  DATA_DIR: Type.String({ minLength: 1, default: './data' }),
  LOG_LEVEL: LogLevel,
  ADMIN_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
  DATABASE_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 200, default: 10 }),
  /**
   * `off` sends every statement unnamed (parsed and planned on each call), for a pooler that
   * hands a connection's statements to other server connections: PgBouncer before 1.21 in
   * transaction or statement mode (docs/DEPLOY.md).
   */
  DATABASE_PREPARED_STATEMENTS: Type.Union([Type.Literal('on'), Type.Literal('off')], { default: 'on' }),
  WEBHOOK_DISPATCHER: Type.Union([Type.Literal('on'), Type.Literal('off')], { default: 'on' }),
  WEBHOOK_ALLOW_PRIVATE: Type.Boolean({ default: false }),
  WEBHOOK_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 120_000, default: 15_000 }),
  WEBHOOK_RETRY_SCHEDULE: Type.String({
    pattern: RETRY_SCHEDULE_PATTERN,
    default: '5,300,1800,7200,18000,36000,36000',
  }),
  WEBHOOK_DISABLE_AFTER_MS: Type.Integer({ minimum: 1, default: 5 * 24 * 60 * 60 * 1000 }),
  WEBHOOK_POLL_INTERVAL_MS: Type.Integer({ minimum: 10, maximum: 60_000, default: 1_000 }),
  WEBHOOK_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
  /** Days a delivered or failed delivery is kept, with its attempts; 0 keeps them forever. */
  WEBHOOK_RETENTION_DAYS: Type.Integer({ minimum: 0, maximum: 36_500, default: 30 }),
  DATABASE_CONNECT_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 60_000, default: 3_000 }),
  BODY_LIMIT_BYTES: Type.Integer({ minimum: 1024, maximum: 64 * 1024 * 1024, default: 256 * 1024 }),
  /** Largest campaign archive `POST /v1/campaigns/import` reads; it is read line by line, never held whole. */
  IMPORT_BODY_LIMIT_BYTES: Type.Integer({
    minimum: 1024,
    maximum: 64 * 1024 * 1024 * 1024,
    default: 256 * 1024 * 1024,
  }),
  RATE_LIMIT_MAX: Type.Integer({ minimum: 0, default: 1_200 }),
  RATE_LIMIT_WINDOW_MS: Type.Integer({ minimum: 1_000, maximum: 24 * 60 * 60 * 1000, default: 60_000 }),
  TRUST_PROXY: Type.String({ pattern: TRUST_PROXY_PATTERN, default: 'false' }),
  UNDER_PRESSURE_MAX_EVENT_LOOP_DELAY_MS: Type.Integer({ minimum: 0, default: 1_000 }),
  UNDER_PRESSURE_MAX_HEAP_USED_BYTES: Type.Integer({ minimum: 0, default: defaultMaxHeapUsedBytes() }),
  UNDER_PRESSURE_SAMPLE_INTERVAL_MS: Type.Integer({ minimum: 10, maximum: 60_000, default: 1_000 }),
  METRICS_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
  REQUEST_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 600_000, default: 30_000 }),
  HEADERS_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 600_000, default: 10_000 }),
  KEEP_ALIVE_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 600_000, default: 72_000 }),
  /** Above the event stream's heartbeat (15 s), which is all the traffic an idle stream has. */
  CONNECTION_IDLE_TIMEOUT_MS: Type.Integer({ minimum: 20_000, maximum: 3_600_000, default: 60_000 }),
  /** Longest one start-up step may take; 0 waits as long as it takes. */
  STARTUP_TIMEOUT_MS: Type.Integer({ minimum: 0, maximum: 3_600_000, default: 60_000 }),
  /**
   * Web origins whose pages may call the API. `*` by default: keys travel in the Authorization
   * header, never in cookies, so a page on another origin can do nothing a script with the key
   * could not do anyway.
   */
  CORS_ORIGINS: Type.String({ pattern: CORS_ORIGINS_PATTERN, default: '*' }),
})

export type Config = Static<typeof ConfigSchema>

export class ConfigError extends Error {
  override readonly name = 'ConfigError'
}

/** Reads the settings from an environment (process.env by default), or explains which variable is wrong. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const raw: Record<string, unknown> = {}
  for (const key of Object.keys(ConfigSchema.properties)) {
    const value = env[key]
    if (value !== undefined && value !== '') raw[key] = value
  }
  const converted = Value.Convert(ConfigSchema, Value.Default(ConfigSchema, raw))
  const problems = new Set(
    [...Value.Errors(ConfigSchema, converted)].map((error) => describe(error.instancePath.slice(1), error.message)),
  )
  const { HEADERS_TIMEOUT_MS: headers, REQUEST_TIMEOUT_MS: request } = converted as Partial<Config>
  // Node refuses to create a server whose header deadline lies beyond its whole-request deadline.
  if (typeof headers === 'number' && typeof request === 'number' && headers > request) {
    problems.add('HEADERS_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS')
  }
  if (problems.size > 0) {
    throw new ConfigError(`Invalid configuration: ${[...problems].join('; ')}`)
  }
  return converted as Config
}

function describe(variable: string, message: string): string {
  if (variable === 'LOG_LEVEL') return 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent'
  if (variable === 'WEBHOOK_DISPATCHER') return 'WEBHOOK_DISPATCHER must be on or off'
  if (variable === 'DATABASE_PREPARED_STATEMENTS') return 'DATABASE_PREPARED_STATEMENTS must be on or off'
  if (variable === 'WEBHOOK_ALLOW_PRIVATE') return 'WEBHOOK_ALLOW_PRIVATE must be true or false'
  if (variable === 'TRUST_PROXY')
    return 'TRUST_PROXY must be false, true, a number of hops, or comma-separated proxy addresses'
  if (variable === 'CORS_ORIGINS')
    return 'CORS_ORIGINS must be * or comma-separated origins such as http://localhost:30000 (no path)'
  if (variable === 'WEBHOOK_RETRY_SCHEDULE')
    return 'WEBHOOK_RETRY_SCHEDULE must be comma-separated seconds, e.g. 5,300,1800'
  return `${variable} ${message}`
}

/** The origins of CORS_ORIGINS, or `*` for any. */
export function corsOrigins(value: string): '*' | string[] {
  const origins = value.split(',').map((origin) => origin.trim())
  return origins.includes('*') ? '*' : origins
}

/** Fastify's `trustProxy` from TRUST_PROXY: which `X-Forwarded-For` hops decide a client's address. */
export function trustProxy(value: string): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (value === 'false') return false
  if (value === 'true') return true
  if (/^\d+$/.test(value)) {
    const hops = Number(value)
    return (_address, hop) => hop < hops
  }
  return value.split(',').map((address) => address.trim())
}
