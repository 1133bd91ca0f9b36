import { createParties, rollBody, rollPath, targetsOf, type Party } from './lib/fixtures.js'
import { rollLoad } from './stateful.js'
import type { LoadResult } from './lib/load.js'
import pg from 'pg'
import { copiedListings } from './lib/copies.js'
import { withClient } from './lib/postgres.js'
import type { Receiver } from './lib/receiver.js'
import type { BenchServer } from './lib/server.js'
import { percentile, round, sleep } from './lib/stats.js'

export interface FanOutResult {
  endpoints: number
  deliveries: number
  seconds: number
  perSecond: number
  duplicates: number
}

export interface LagResult {
  targetRate: number
  rolls: LoadResult
  deliveries: number
  lagP50: number
  lagP99: number
  lagMax: number
}

/** Campaigns with one endpoint each (pointing at the receiver), made while the dispatcher is off. */
export async function setUpEndpoints(server: BenchServer, receiver: Receiver, campaigns: number) {
  return createParties(server.url, { campaigns, characters: 5, webhookUrl: receiver.url })
}

/**
 * Queues `perEndpoint` deliveries on every endpoint: copies of a real roll's event appended to
 * each campaign, and their outbox rows, written straight into the database.
 */
export async function seedBacklog(server: BenchServer, databaseUrl: string, parties: Party[], perEndpoint: number) {
  for (const party of parties) {
    const res = await fetch(`${server.url}${rollPath({ ...party, characterId: party.characterIds[0]! })}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${party.key}` },
      body: rollBody(),
    })
    if (res.status !== 201) throw new Error(`seed roll: ${res.status}`)
  }
  await withClient(databaseUrl, async (client) => {
    await client.query(
      `WITH template AS (
         SELECT DISTINCT ON (campaign_id) * FROM roll_events WHERE type = 'stress-check' ORDER BY campaign_id, seq DESC
       ), copies AS MATERIALIZED (
         SELECT t.campaign_id, g, nerve_uuid_v7() AS id FROM template t, generate_series(1, $1::integer - 1) g
       ), added AS (
         INSERT INTO roll_events (id, campaign_id, seq, character_id, type, ruleset, visibility, actor, payload,
           listing, public_listing)
         SELECT n.id, t.campaign_id, c.last_seq + n.g, t.character_id, t.type, t.ruleset, t.visibility, t.actor, t.payload,
           ${copiedListings('t', { id: 'n.id', seq: 'c.last_seq + n.g' })}
         FROM template t JOIN campaigns c ON c.id = t.campaign_id JOIN copies n ON n.campaign_id = t.campaign_id
         RETURNING id, campaign_id, seq, type
       )
       INSERT INTO webhook_deliveries (id, campaign_id, endpoint_id, event_id, event_seq, event_type)
       SELECT nerve_uuid_v7(), a.campaign_id, w.id, a.id, a.seq, a.type FROM added a JOIN webhook_endpoints w USING (campaign_id)`,
      [perEndpoint],
    )
    await client.query(
      'UPDATE campaigns c SET last_seq = (SELECT max(seq) FROM roll_events e WHERE e.campaign_id = c.id)',
    )
    await client.query('VACUUM ANALYZE')
  })
}

/** Target 4a: how fast the dispatcher drains a backlog spread over the endpoints. */
export async function drain(receiver: Receiver, expected: number, endpoints: number): Promise<FanOutResult> {
  const deadline = Date.now() + 10 * 60_000
  while (receiver.count() < expected && Date.now() < deadline) await sleep(50)
  const seconds = (receiver.lastAt() - receiver.firstAt()) / 1000
  return {
    endpoints,
    deliveries: receiver.count(),
    seconds: round(seconds, 1),
    perSecond: round(receiver.count() / seconds, 0),
    duplicates: receiver.count() - receiver.distinct(),
  }
}

/** Target 4b: rolls arriving at `rate` per second; every delivery's lag from its event to its arrival. */
export async function lagUnderLoad(
  server: BenchServer,
  receiver: Receiver,
  parties: Party[],
  options: { rate: number; seconds: number },
): Promise<LagResult> {
  const targets = targetsOf(parties)
  receiver.reset()
  const since = Date.now()
  const rolls = await rollLoad(server, targets, 10, options.seconds, options.rate)
  const expected = rolls.requests - rolls.non2xx
  const deadline = Date.now() + 60_000
  while (receiver.count() < expected && Date.now() < deadline) await sleep(50)
  const lags = receiver.lagsSince(since - 1000)
  return {
    targetRate: options.rate,
    rolls,
    deliveries: receiver.count(),
    lagP50: percentile(lags, 50),
    lagP99: percentile(lags, 99),
    lagMax: percentile(lags, 100),
  }
}

export interface CommitLagResult {
  targetRate: number
  committed: number
  committedPerSecond: number
  deliveries: number
  lagP50: number
  lagP99: number
  lagMax: number
}

/**
 * One event and its outbox rows, committed as a roll commits them (the next `seq`, the event,
 * a delivery for every endpoint of the campaign) — a copy of the campaign's latest roll.
 */
const COMMIT_COPY = `
  WITH template AS (
    SELECT * FROM roll_events WHERE campaign_id = $1::uuid AND type = 'stress-check' ORDER BY seq DESC LIMIT 1
  ), next AS (
    UPDATE campaigns SET last_seq = last_seq + 1 WHERE id = $1::uuid RETURNING id, last_seq
  ), fresh AS MATERIALIZED (
    SELECT nerve_uuid_v7() AS id
  ), added AS (
    INSERT INTO roll_events (id, campaign_id, seq, character_id, type, ruleset, visibility, actor, payload,
      listing, public_listing)
    SELECT f.id, next.id, next.last_seq, t.character_id, t.type, t.ruleset, t.visibility, t.actor, t.payload,
      ${copiedListings('t', { id: 'f.id', seq: 'next.last_seq', occurredAt: 'now()' })}
    FROM template t, next, fresh f
    RETURNING id, campaign_id, seq, type
  )
  INSERT INTO webhook_deliveries (id, campaign_id, endpoint_id, event_id, event_seq, event_type)
  SELECT nerve_uuid_v7(), a.campaign_id, w.id, a.id, a.seq, a.type FROM added a JOIN webhook_endpoints w USING (campaign_id)`

/**
 * Target 4b with the dispatcher alone: events committed straight into the database at `rate`
 * per second (as the API's transaction commits them, without the API's CPU on this machine),
 * while a worker delivers; every delivery's lag from its commit to its arrival.
 */
export async function lagOfCommits(
  databaseUrl: string,
  receiver: Receiver,
  parties: Party[],
  options: { rate: number; seconds: number },
): Promise<CommitLagResult> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 })
  receiver.reset()
  const since = Date.now()
  const total = options.rate * options.seconds
  const interval = 1000 / options.rate
  const commits: Promise<unknown>[] = []
  try {
    for (let i = 0; i < total; i++) {
      const due = since + i * interval
      if (due > Date.now()) await sleep(due - Date.now())
      const party = parties[i % parties.length]!
      commits.push(pool.query(COMMIT_COPY, [party.campaignId]))
    }
    await Promise.all(commits)
  } finally {
    await pool.end()
  }
  const committedPerSecond = total / ((Date.now() - since) / 1000)
  const deadline = Date.now() + 60_000
  while (receiver.count() < total && Date.now() < deadline) await sleep(50)
  const lags = receiver.lagsSince(since - 1000)
  return {
    targetRate: options.rate,
    committed: total,
    committedPerSecond: round(committedPerSecond, 0),
    deliveries: receiver.count(),
    lagP50: percentile(lags, 50),
    lagP99: percentile(lags, 99),
    lagMax: percentile(lags, 100),
  }
}
