import closeWithGrace from 'close-with-grace'
import { mkdtemp, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { buildApp, type App } from '../src/app.js'
import { ConfigError, loadConfig } from '../src/config.js'

type Json = Record<string, any>

export interface DemoCampaign {
  ruleset: string
  campaignId: string
  name: string
  gmKey: string
  characters: { id: string; name: string }[]
  /** One line per roll and decision, as Nerve summarised it. */
  summaries: string[]
}

/** One action on a character, or the settlement of a decision the previous roll left open. */
type Step =
  { character: number; action: string; body: Json; settle?: never } | { settle: Json; dice?: Json; character?: never }

interface DemoPlan {
  ruleset: 'shock-meters' | 'trauma-table' | 'reaction-rolls'
  name: string
  characters: string[]
  steps: Step[]
}

const provided = (...faces: number[]) => ({ source: 'provided', faces })

/*
 * Provided faces make the demo tell the same story every time: each rule set shows a roll
 * left pending and then settled, and another resolved at once. One roll per campaign uses
 * server dice, as a table that lets Nerve roll would.
 */
const PLANS: DemoPlan[] = [
  {
    ruleset: 'shock-meters',
    name: 'Demo: The Mercy Street Irregulars',
    characters: ['Vera Okafor', 'Tomas Reyes'],
    steps: [
      {
        character: 0,
        action: 'stress-check',
        body: {
          request: { meter: 'violence', rank: 4, trigger: 'kill-in-fight', cause: 'Shot the cultist on the stairs' },
          dice: provided(85),
        },
      },
      { settle: { response: 'panic' } },
      {
        character: 1,
        action: 'stress-check',
        body: { request: { meter: 'unnatural', rank: 3, cause: 'The mirror blinked first' }, dice: provided(12) },
      },
      {
        character: 1,
        action: 'stress-check',
        body: { request: { meter: 'helplessness', rank: 2, response: 'frenzy', cause: 'Locked in the archive' } },
      },
    ],
  },
  {
    ruleset: 'trauma-table',
    name: 'Demo: The Long Night Shift',
    characters: ['Ines Calloway', 'Marek Duda'],
    steps: [
      { character: 0, action: 'trauma-roll', body: { request: { modifier: 0, source: 'none' }, dice: provided(23) } },
      { settle: { response: 'accept' }, dice: provided(3) },
      {
        character: 1,
        action: 'trauma-roll',
        body: { request: { modifier: 10, source: 'stressful', response: { ability: 'Not Today!' } } },
      },
    ],
  },
  {
    ruleset: 'reaction-rolls',
    name: 'Demo: Ashes of the Old Road',
    characters: ['Finn Aldous', 'Sable Ortiz'],
    steps: [
      {
        character: 0,
        action: 'reaction-roll',
        body: { request: { ability: 'agility', pressure: 4 }, dice: provided(3) },
      },
      { settle: { decision: 'raise', emotion: 'anger' } },
      {
        character: 1,
        action: 'reaction-roll',
        body: {
          request: {
            ability: 'composure',
            pressure: 6,
            advantage: true,
            modifiers: [{ source: 'environment', weight: 1, reason: 'among friends' }],
          },
          dice: provided(5, 2),
        },
      },
      { character: 1, action: 'reaction-roll', body: { request: { ability: 'insight', pressure: 8, resist: false } } },
    ],
  },
]

async function call(app: App, method: 'GET' | 'POST', url: string, key: string | null, body?: Json): Promise<Json> {
  const res = await app.inject({
    method,
    url,
    headers: key ? { authorization: `Bearer ${key}` } : {},
    ...(body ? { payload: body } : {}),
  })
  if (res.statusCode >= 300) throw new Error(`demo: ${method} ${url} answered ${res.statusCode}: ${res.body}`)
  return res.json()
}

/**
 * Creates one demo campaign per rule set, two characters each, and plays a few rolls
 * through the HTTP API (including a pending decision settled afterwards).
 */
export async function setupDemo(app: App): Promise<DemoCampaign[]> {
  const campaigns: DemoCampaign[] = []
  for (const plan of PLANS) {
    const created = await call(app, 'POST', '/v1/campaigns', null, { name: plan.name, ruleset: plan.ruleset })
    const campaignId: string = created.campaign.id
    const gmKey: string = created.gmKey.key
    const base = `/v1/campaigns/${campaignId}`
    const characters = []
    for (const name of plan.characters) {
      const { character } = await call(app, 'POST', `${base}/characters`, gmKey, { name })
      characters.push({ id: character.id as string, name })
    }
    const summaries: string[] = []
    let last: Json | null = null
    for (const step of plan.steps) {
      const result: Json =
        step.settle === undefined
          ? await call(
              app,
              'POST',
              `${base}/characters/${characters[step.character]!.id}/${step.action}`,
              gmKey,
              step.body,
            )
          : await call(app, 'POST', `${base}/events/${last?.id}/decision`, gmKey, {
              request: step.settle,
              ...(step.dice ? { dice: step.dice } : {}),
            })
      last = result.event
      summaries.push(`${result.character.name}: ${result.event.summary}`)
    }
    campaigns.push({ ruleset: plan.ruleset, campaignId, name: plan.name, gmKey, characters, summaries })
  }
  return campaigns
}

function describe(campaigns: DemoCampaign[], origin: string, dataDir: string): string {
  const lines = ['', 'Nerve demo is running.', '']
  for (const campaign of campaigns) {
    lines.push(`${campaign.ruleset} — ${campaign.name}`)
    lines.push(`  campaign id  ${campaign.campaignId}`)
    lines.push(`  GM key       ${campaign.gmKey}`)
    lines.push(`  characters   ${campaign.characters.map((c) => `${c.name} (${c.id})`).join(', ')}`)
    for (const summary of campaign.summaries) lines.push(`  · ${summary}`)
    lines.push('')
  }
  lines.push(`Swagger UI   ${origin}/docs    (Authorize with a GM key above)`)
  lines.push(`Dashboard    ${origin}/dashboard    (paste a campaign id and its GM key)`)
  lines.push(`Data         ${dataDir} (removed when the demo stops)`)
  lines.push('', 'Press Ctrl-C to stop.', '')
  return lines.join('\n')
}

async function run() {
  // Always the embedded database in a fresh directory: the demo never touches real data.
  const dataDir = await mkdtemp(join(tmpdir(), 'nerve-demo-'))
  let config
  try {
    config = loadConfig({
      PORT: process.env.PORT,
      HOST: process.env.HOST,
      LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
      DATA_DIR: dataDir,
    })
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    process.stderr.write(`nerve demo: ${error.message}\n`)
    process.exit(1)
  }
  const app = await buildApp(config)
  closeWithGrace({ delay: 10_000 }, async ({ err }) => {
    if (err) app.log.error({ err }, 'closing after an unexpected error')
    await app.close()
    await rm(dataDir, { recursive: true, force: true })
  })
  await app.listen({ port: config.PORT, host: config.HOST })
  const { port } = app.server.address() as AddressInfo
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST
  const campaigns = await setupDemo(app)
  process.stdout.write(describe(campaigns, `http://${host}:${port}`, dataDir))
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await run()
