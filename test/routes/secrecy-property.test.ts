import fc from 'fast-check'
import t, { type Test } from 'tap'
import { createCampaign, createCharacter, mintPlayerKey, type Auth, type EventView } from '../helpers/api.js'
import { buildTestApp } from '../helpers/build-app.js'
import { act, allEvents, characterUrl, getCharacter, revert, type Ids } from '../helpers/commands.js'
import { rawStream } from '../helpers/event-stream.js'
import { eventually, startReceiver } from '../helpers/webhook-receiver.js'
import { createWebhook, FAST_WEBHOOKS } from '../helpers/webhooks.js'

// "No value that only an unrevealed GM-only event established may appear in any body a player
// key can read, on any surface" (DESIGN.md, Secrecy, third round). Random sequences of commands
// over each rule set — public and GM-only rolls, settlements, GM actions, undo, reveal, rests and
// scenes — where every free-text field of a GM-only command carries a unique marker; after each
// step every surface a player key reads is searched for the markers (and ids) of the GM-only
// events not revealed. A fixed seed in CI; SECRECY_RUNS, SECRECY_STEPS and SECRECY_SEED play longer.

const RUNS = Number(process.env.SECRECY_RUNS ?? 4)
const STEPS = Number(process.env.SECRECY_STEPS ?? 14)
const SEED = Number(process.env.SECRECY_SEED ?? 20261204)

const app = await buildTestApp(t, FAST_WEBHOOKS)
const address = await app.listen({ port: 0, host: '127.0.0.1' })
const receiver = await startReceiver(t)

/** Who sends a command: the GM hiding it, leaving it to Nerve, asking for public, or the player. */
type Sender = 'gm-hidden' | 'gm-derived' | 'gm-public' | 'player'

interface Move {
  action: string
  /** The request, with `text` in each free-text field the command has. */
  request: (text: string) => Record<string, unknown>
}

/** What each rule set's table does, with the free text a GM would type. */
const MOVES: Record<string, fc.Arbitrary<Move>> = {
  'shock-meters': fc.oneof(
    fc
      .record({
        meter: fc.constantFrom('violence', 'self', 'isolation'),
        rank: fc.integer({ min: 1, max: 10 }),
        passion: fc.constantFrom(undefined, 'fear', 'rage'),
        response: fc.constantFrom(undefined, 'panic', 'frenzy'),
        named: fc.boolean(),
      })
      .map(({ meter, rank, passion, response, named }) => ({
        action: 'stress-check',
        request: (text: string) => ({
          meter,
          rank,
          cause: text,
          ...(passion ? { passion } : {}),
          ...(response ? { response } : {}),
          ...(named ? { disorder: `${text}-disorder` } : {}),
        }),
      })),
    fc
      .constantFrom('panic', 'paralysis')
      .map((response) => ({ action: 'stress-response', request: () => ({ response }) })),
    fc.constant({
      action: 'record-disorder',
      request: (text: string) => ({ name: `${text}-name`, meter: 'violence', cause: text }),
    }),
    fc.constant({ action: 'clear-stressed', request: (text: string) => ({ reason: text }) }),
    fc.constantFrom('passion-reroll', 'passion-flip-flop').map((action) => ({
      action,
      request: () => ({ passion: 'fear' }),
    })),
    fc.constant({ action: 'new-session', request: () => ({}) }),
    fc.constantFrom('failed', 'hardened', 'disorder').map((what) => ({
      action: 'ongoing-treatment',
      request: (text: string) =>
        what === 'disorder'
          ? { disorder: `${text}-name`, reason: text }
          : { meter: 'violence', [what]: 1, reason: text },
    })),
  ),
  'trauma-table': fc.oneof(
    fc
      .record({ modifier: fc.integer({ min: -20, max: 120 }), reasoned: fc.boolean(), accept: fc.boolean() })
      .map(({ modifier, reasoned, accept }) => ({
        action: 'trauma-roll',
        request: (text: string) => ({
          modifier,
          ...(reasoned ? { upgrades: [{ reason: text }] } : {}),
          ...(accept ? { response: 'accept' } : {}),
        }),
      })),
    fc.boolean().map((answered) => ({
      action: 'trauma-response',
      request: (text: string) => ({ response: answered ? { ability: text } : 'accept' }),
    })),
    fc.constantFrom('end-scene', 'end-encounter', 'end-cycle').map((action) => ({ action, request: () => ({}) })),
    fc.constant({ action: 'rest', request: () => ({ health: 3, severity: 10 }) }),
  ),
  'reaction-rolls': fc.oneof(
    fc
      .record({ pressure: fc.constantFrom(4, 6, 8), reasoned: fc.boolean(), advantage: fc.boolean() })
      .map(({ pressure, reasoned, advantage }) => ({
        action: 'reaction-roll',
        request: (text: string) => ({
          ability: 'agility',
          pressure,
          advantage,
          ...(reasoned ? { modifiers: [{ source: 'environment', weight: 1, reason: text }] } : {}),
        }),
      })),
    fc.constantFrom('raise', 'decline').map((decision) => ({
      action: 'reaction-retrieval',
      request: () => (decision === 'raise' ? { decision, emotion: 'fear' } : { decision }),
    })),
  ),
}

type Step =
  { kind: 'command'; move: Move; sender: Sender; seed: string } | { kind: 'undo' } | { kind: 'reveal'; pick: number }

const SENDERS = fc.oneof(
  { weight: 3, arbitrary: fc.constant<Sender>('gm-hidden') },
  { weight: 2, arbitrary: fc.constant<Sender>('gm-derived') },
  { weight: 2, arbitrary: fc.constant<Sender>('gm-public') },
  { weight: 2, arbitrary: fc.constant<Sender>('player') },
)

const stepsOf = (ruleset: string): fc.Arbitrary<Step[]> =>
  fc.array(
    fc.oneof(
      {
        weight: 8,
        arbitrary: fc.record({
          kind: fc.constant('command' as const),
          move: MOVES[ruleset]!,
          sender: SENDERS,
          seed: fc.string({ minLength: 1, maxLength: 8 }),
        }),
      },
      { weight: 1, arbitrary: fc.constant({ kind: 'undo' as const }) },
      { weight: 3, arbitrary: fc.record({ kind: fc.constant('reveal' as const), pick: fc.nat() }) },
    ),
    { minLength: Math.min(8, STEPS), maxLength: STEPS },
  )

/** How a table settles each kind of open decision, with the free text a GM would type. */
const SETTLES: Record<string, (text: string) => Record<string, unknown>> = {
  'stress-response': () => ({ response: 'frenzy' }),
  'record-disorder': (text) => ({ name: `${text}-name`, cause: text }),
  'trauma-response': (text) => ({ response: text.startsWith('open') ? 'accept' : { ability: text } }),
  'reaction-retrieval': () => ({ decision: 'raise', emotion: 'anger' }),
}

/** The roll each rule set is about, with the free text a GM would type. */
const ROLLS: Record<string, Move> = {
  'shock-meters': { action: 'stress-check', request: (text) => ({ meter: 'violence', rank: 5, cause: text }) },
  'trauma-table': { action: 'trauma-roll', request: (text) => ({ modifier: 40, upgrades: [{ reason: text }] }) },
  'reaction-rolls': {
    action: 'reaction-roll',
    request: (text) => ({ ability: 'agility', pressure: 6, modifiers: [{ source: 'means', weight: 1, reason: text }] }),
  },
}

const SHEETS: Record<string, Record<string, unknown>> = {
  'shock-meters': { passions: { fear: { text: 'Being forgotten' }, rage: { text: 'Bullies' } } },
  'trauma-table': {},
  'reaction-rolls': {},
}

const ODDS: Record<string, { action: string; request: Record<string, unknown> }> = {
  'shock-meters': { action: 'stress-check', request: { meter: 'violence', rank: 4 } },
  'trauma-table': { action: 'trauma-roll', request: {} },
  'reaction-rolls': { action: 'reaction-roll', request: { ability: 'agility', pressure: 6 } },
}

/** A GM-only event's marks: its id and the marker its free text carried. */
interface Hidden {
  eventId: string
  marker: string
}

/** Every body a player key reads now: the campaign, the character, the lists, the odds. */
async function playerReads(ids: Ids, player: Auth, ruleset: string): Promise<string[]> {
  const odds = ODDS[ruleset]!
  const reads = await Promise.all([
    app.inject({ url: `/v1/campaigns/${ids.campaignId}`, headers: player }),
    app.inject({ url: `/v1/campaigns/${ids.campaignId}/characters`, headers: player }),
    app.inject({ url: characterUrl(ids), headers: player }),
    app.inject({ url: `/v1/campaigns/${ids.campaignId}/events?sheets=full`, headers: player }),
    app.inject({ url: `/v1/campaigns/${ids.campaignId}/events?sheets=none`, headers: player }),
    app.inject({
      method: 'POST',
      url: `${characterUrl(ids)}/${odds.action}/odds`,
      headers: player,
      payload: { request: odds.request },
    }),
  ])
  return reads.map((res) => res.body)
}

/** The player's event stream from the start, through a stream ticket, until it has sent `count` events. */
async function streamed(ids: Ids, player: Auth, count: number): Promise<string> {
  const minted = await app.inject({
    method: 'POST',
    url: `/v1/campaigns/${ids.campaignId}/events/stream-tickets`,
    headers: player,
  })
  const url = new URL(minted.json<{ url: string }>().url)
  return rawStream(`${address}${url.pathname}${url.search}&after=0`, {}, count)
}

function unrevealedIn(bodies: string[], hidden: Hidden[], revealed: ReadonlySet<string>): string | undefined {
  const all = bodies.join('\n')
  for (const mark of hidden.flatMap(({ eventId, marker }) => [eventId, marker])) {
    if (revealed.has(mark)) continue
    const at = all.indexOf(mark)
    if (at >= 0) return `${mark} shows: …${all.slice(Math.max(0, at - 300), at + 80)}…`
  }
  return undefined
}

let table = 0

async function play(t: Test, ruleset: string, steps: Step[]): Promise<void> {
  table++
  const { campaign, auth: gm } = await createCampaign(app, ruleset)
  const hookUrl = `${receiver.url}/${campaign.id}/players`
  const hookPath = new URL(hookUrl).pathname
  await createWebhook(app, campaign.id, gm, { url: hookUrl })
  const { character } = await createCharacter(app, campaign, gm, { name: 'Vera Okafor', sheet: SHEETS[ruleset]! })
  const ids: Ids = { campaignId: campaign.id, characterId: character.id }
  const { auth: player } = await mintPlayerKey(app, campaign, gm, [character.id])
  const hidden: Hidden[] = []
  const revealed = new Set<string>()
  let recorded = 0
  const fail = (step: number, why: string) => {
    throw new Error(`table ${table}, step ${step} of ${JSON.stringify(steps.map(describe))}: ${why}`)
  }

  for (const [index, step] of steps.entries()) {
    const seen: string[] = []
    if (step.kind === 'command') {
      const marker = `HIDDEN${table}X${index}Q`
      const secret = step.sender === 'gm-hidden' || step.sender === 'gm-derived'
      // An open decision is settled first, as a table does: otherwise most rolls would only be refused.
      const [open] = (await getCharacter(app, gm, ids)).pending
      // A decision with nothing open is a roll instead: otherwise most settlements would only be refused.
      const move =
        open && SETTLES[open.action]
          ? { action: open.action, request: SETTLES[open.action]! }
          : !open && SETTLES[step.move.action]
            ? ROLLS[ruleset]!
            : step.move
      const request = move.request(secret ? marker : `open words ${index}`)
      const res = await act(app, step.sender === 'player' ? player : gm, ids, move.action, {
        request,
        dice: { source: 'seeded', seed: step.seed },
        ...(step.sender === 'gm-hidden'
          ? { visibility: 'gm' }
          : step.sender === 'gm-public'
            ? { visibility: 'public' }
            : {}),
      })
      if (res.statusCode >= 500) fail(index, `${move.action} answered ${res.statusCode}: ${res.body}`)
      if (step.sender === 'player') seen.push(res.body)
      if (res.statusCode === 201) {
        recorded++
        const { event } = res.json<{ event: EventView }>()
        if (event.visibility === 'gm') hidden.push({ eventId: event.id, marker })
      }
    } else if (step.kind === 'undo') {
      const [latest] = (await allEvents(app, gm, campaign.id, { characterId: character.id })).slice(-1)
      const res = await revert(app, gm, ids, latest!.id)
      if (res.statusCode >= 500) fail(index, `undo answered ${res.statusCode}: ${res.body}`)
      if (res.statusCode === 201 && res.json<{ event: EventView }>().event.visibility === 'gm') {
        hidden.push({ eventId: res.json<{ event: EventView }>().event.id, marker: `never-typed-${table}-${index}` })
      }
    } else if (hidden.length > 0) {
      const chosen = hidden[step.pick % hidden.length]!
      const res = await app.inject({
        method: 'POST',
        url: `/v1/campaigns/${campaign.id}/events/${chosen.eventId}/reveal`,
        headers: gm,
      })
      if (res.statusCode >= 500) fail(index, `reveal answered ${res.statusCode}: ${res.body}`)
      // What players have seen once stays seen, even when the GM takes the reveal back.
      if (res.statusCode === 201) for (const mark of [chosen.eventId, chosen.marker]) revealed.add(mark)
    }
    seen.push(...(await playerReads(ids, player, ruleset)))
    const leak = unrevealedIn(seen, hidden, revealed)
    if (leak) fail(index, `a player key read ${leak}`)
  }

  const events = await allEvents(app, player, campaign.id)
  const single = await Promise.all(
    events.map(
      async (event) =>
        (await app.inject({ url: `/v1/campaigns/${campaign.id}/events/${event.id}`, headers: player })).body,
    ),
  )
  const stream = await streamed(ids, player, events.length)
  const hooks = await eventually(
    'the webhook without GM events to receive every public event',
    async () => receiver.received.filter((received) => received.path === hookPath),
    (received) => received.length >= events.length,
  )
  const leak =
    unrevealedIn([...single, stream], hidden, revealed) ??
    unrevealedIn(
      hooks.map((received) => received.body),
      hidden,
      revealed,
    )
  if (leak) fail(steps.length, `a player surface (single events, stream, webhook) held ${leak}`)
  t.pass(
    `${ruleset} table ${table}: ${steps.length} steps, ${recorded} commands recorded, ${hidden.length} GM-only events, ${revealed.size / 2} revealed`,
  )
}

function describe(step: Step): string {
  if (step.kind === 'command')
    return `${step.sender} ${step.move.action} ${JSON.stringify(step.move.request('…'))} seed ${JSON.stringify(step.seed)}`
  return step.kind === 'undo' ? 'undo' : `reveal #${step.pick}`
}

for (const ruleset of Object.keys(MOVES)) {
  t.test(`${ruleset}: no player surface ever shows what an unrevealed GM-only event established`, async (t) => {
    await fc.assert(
      fc.asyncProperty(stepsOf(ruleset), (steps) => play(t, ruleset, steps)),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    )
  })
}
