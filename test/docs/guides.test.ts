import t from 'tap'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { setTimeout as sleep } from 'node:timers/promises'
import { buildTestApp } from '../helpers/build-app.js'

const GUIDE = new URL('../../docs/guides/vtt-integration.md', import.meta.url)
const WEBHOOKS_GUIDE = new URL('../../docs/guides/webhooks.md', import.meta.url)
const BACKUPS_GUIDE = new URL('../../docs/guides/backups-and-moving.md', import.meta.url)
const ROOT = fileURLToPath(new URL('../..', import.meta.url))

interface Block {
  code: string
  /** The statuses written after its curl commands (`# → 201`), in order. */
  expected: number[]
}

function shellBlocks(markdown: string): Block[] {
  return [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map(([, code = '']) => ({
    code,
    expected: [...code.matchAll(/#\s*→\s*(\d{3})/g)].map(([, status]) => Number(status)),
  }))
}

/*
 * The blocks run in one bash, in order, as a reader pasting them would: variables carry over.
 * A `curl` wrapper reports each answer's status on stderr (curl's `%{stderr}`), and markers
 * split the output by block, so every command's status is checked against the guide.
 */
function script(blocks: Block[]): string {
  const lines = ['set -eu', `curl() { command curl -w '%{stderr}@@status %{http_code}\\n' "$@"; }`]
  blocks.forEach((block, index) => {
    lines.push(`echo '@@block ${index}'; echo '@@block ${index}' >&2`, block.code)
  })
  lines.push(`echo '@@end' >&2`)
  return lines.join('\n')
}

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

function bash(source: string, env: Record<string, string>, cwd = tmpdir()): Promise<Run> {
  return new Promise((resolve, reject) => {
    // A clean environment: only what a reader's shell would have, plus $NERVE.
    const child = spawn('bash', ['-c', source], { cwd, env: { PATH: process.env.PATH ?? '', ...env } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

/** Splits output at the `@@block N` markers. */
function byBlock(output: string, count: number): string[] {
  const parts: string[] = Array.from({ length: count }, () => '')
  let current = -1
  for (const line of output.split('\n')) {
    const marker = /^@@block (\d+)$/.exec(line)
    if (marker) current = Number(marker[1])
    else if (current >= 0 && line !== '@@end') parts[current] += `${line}\n`
  }
  return parts
}

t.test('every curl example of the VTT integration guide answers the status the guide states', async (t) => {
  const blocks = shellBlocks(await readFile(GUIDE, 'utf8'))
  t.ok(blocks.length >= 10, `the guide has its shell examples (found ${blocks.length})`)
  t.ok(
    blocks.reduce((sum, block) => sum + block.expected.length, 0) >= 15,
    'the guide states the status of its requests',
  )

  const app = await buildTestApp(t)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo

  const run = await bash(script(blocks), { NERVE: `http://127.0.0.1:${port}`, HOME: tmpdir() })
  const stderr = byBlock(run.stderr, blocks.length)
  const stdout = byBlock(run.stdout, blocks.length)
  const reached = Math.max(...[...run.stderr.matchAll(/^@@block (\d+)$/gm)].map(([, n]) => Number(n)))
  t.equal(
    run.code,
    0,
    `the examples run to the end without a failing command (stopped in block ${reached}: ${blocks[reached]?.code.split('\n')[0]}; stderr: ${stderr[reached]?.slice(-500)})`,
  )

  blocks.forEach((block, index) => {
    const statuses = [...(stderr[index] ?? '').matchAll(/^@@status (\d{3})$/gm)].map(([, status]) => Number(status))
    t.same(
      statuses,
      block.expected,
      `block ${index} (${block.code.split('\n')[0]}) answers ${block.expected.join(', ') || 'no request'}`,
    )
  })

  const stream = blocks.findIndex((block) => block.code.includes('/events/stream'))
  t.match(
    stdout[stream],
    /^id: 2\nevent: stress-check\nid: 3\nevent: stress-response\n/m,
    'the stream resumes after Last-Event-ID with the events that followed',
  )
  const replay = blocks.findIndex((block) => block.code.includes('idempotent-replayed'))
  t.match(stdout[replay], /idempotent-replayed: true/i, 'the retried roll is a replay')
  const pages = blocks.findIndex((block) => block.code.includes('nextCursor'))
  t.match(
    stdout[pages],
    /1 character\.created[\s\S]*2 stress-check[\s\S]*3 stress-response/,
    'the two pages hold the history in order',
  )
})

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  server.close()
  await once(server, 'close')
  return port
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(50)
  }
}

t.test('the webhook guide’s receiver verifies real deliveries, refuses forgeries and skips repeats', async (t) => {
  const [, snippet] =
    /^```js\n([\s\S]*?standardwebhooks[\s\S]*?)^```$/m.exec(await readFile(WEBHOOKS_GUIDE, 'utf8')) ?? []
  t.ok(snippet, 'the guide has a verification snippet using standardwebhooks')
  if (!snippet) return

  const app = await buildTestApp(t, {
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_RETRY_SCHEDULE: '0.05,0.05',
    WEBHOOK_POLL_INTERVAL_MS: '50',
  })
  const created = (
    await app.inject({ method: 'POST', url: '/v1/campaigns', payload: { name: 'Hooks', ruleset: 'shock-meters' } })
  ).json()
  const campaignId: string = created.campaign.id
  const headers = { authorization: `Bearer ${created.gmKey.key}` }
  const port = await freePort()
  const endpoint = await app.inject({
    method: 'POST',
    url: `/v1/campaigns/${campaignId}/webhooks`,
    headers,
    payload: { url: `http://127.0.0.1:${port}/hooks/nerve` },
  })
  t.equal(endpoint.statusCode, 201, 'the endpoint is registered')
  const { id: webhookId, secret } = endpoint.json<{ id: string; secret: string }>()

  // The snippet exactly as printed, run as an ES module from the project root (so it finds
  // the project's standardwebhooks package).
  const receiver = spawn(process.execPath, ['--input-type=module', '-e', snippet], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', NERVE_WEBHOOK_SECRET: secret, PORT: String(port) },
  })
  t.teardown(() => receiver.kill())
  let printed = ''
  receiver.stdout.on('data', (chunk) => (printed += chunk))
  const url = `http://127.0.0.1:${port}/hooks/nerve`
  const forged = await until('the receiver to listen', () =>
    fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': 'msg_forged',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': 'v1,bm90IGEgcmVhbCBzaWduYXR1cmU=',
      },
      body: '{"type":"stress-check","timestamp":"2026-01-01T00:00:00.000Z","data":{}}',
    }).catch(() => undefined),
  )
  t.equal(forged.status, 401, 'a request with a forged signature is refused')

  const character = await app.inject({
    method: 'POST',
    url: `/v1/campaigns/${campaignId}/characters`,
    headers,
    payload: { name: 'Vera Okafor' },
  })
  const characterId: string = character.json().character.id
  await app.inject({
    method: 'POST',
    url: `/v1/campaigns/${campaignId}/characters/${characterId}/stress-check`,
    headers,
    payload: { request: { meter: 'violence', rank: 4, response: 'panic' }, dice: { source: 'provided', faces: [85] } },
  })
  await app.inject({ method: 'POST', url: `/v1/campaigns/${campaignId}/webhooks/${webhookId}/test`, headers })
  await until('three verified deliveries', () => (printed.split('\n').length > 3 ? true : undefined))
  t.same(
    printed.trim().split('\n').sort(),
    ['- webhook.ping', '1 character.created', '2 stress-check'],
    'the receiver verified and handled the events and the ping',
  )

  // The receiver has answered; the dispatcher settles its answers a moment later.
  const roll = await until('the roll delivered', async () => {
    const deliveries = (
      await app.inject({ url: `/v1/campaigns/${campaignId}/webhooks/${webhookId}/deliveries?limit=100`, headers })
    ).json().data as { id: string; eventType: string; status: string }[]
    return deliveries.find((delivery) => delivery.eventType === 'stress-check' && delivery.status === 'delivered')
  })
  const redeliver = await app.inject({
    method: 'POST',
    url: `/v1/campaigns/${campaignId}/webhooks/${webhookId}/deliveries/${roll.id}/redeliver`,
    headers,
  })
  t.equal(redeliver.statusCode, 202, 'the GM redelivers the roll')
  await until('the redelivery', async () => {
    const res = await app.inject({
      url: `/v1/campaigns/${campaignId}/webhooks/${webhookId}/deliveries/${roll.id}`,
      headers,
    })
    const delivery = res.json<{ status: string; attempts: { statusCode: number | null }[] }>()
    return delivery.status === 'delivered' && delivery.attempts.length === 2 ? delivery : undefined
  })
  t.equal(printed.match(/stress-check/g)?.length, 1, 'the repeat, with the same webhook-id, was skipped')
})

t.test(
  'the backups guide backs a campaign up, checks it, moves it to another Nerve and refuses a cut one',
  async (t) => {
    const blocks = shellBlocks(await readFile(BACKUPS_GUIDE, 'utf8'))
    const address = async () => {
      const app = await buildTestApp(t)
      await app.listen({ port: 0, host: '127.0.0.1' })
      return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    }
    const [origin, target] = [await address(), await address()]
    // The files the guide writes land in a folder of the test's own.
    const folder = await mkdtemp(join(tmpdir(), 'nerve-guide-'))
    t.teardown(() => rm(folder, { recursive: true, force: true }))

    const run = await bash(script(blocks), { NERVE: origin, NEW_NERVE: target, HOME: folder }, folder)
    const stderr = byBlock(run.stderr, blocks.length)
    const stdout = byBlock(run.stdout, blocks.length)
    const reached = Math.max(...[...run.stderr.matchAll(/^@@block (\d+)$/gm)].map(([, n]) => Number(n)))
    t.equal(run.code, 0, `the examples run to the end (stopped in block ${reached}: ${stderr[reached]?.slice(-500)})`)
    blocks.forEach((block, index) => {
      const statuses = [...(stderr[index] ?? '').matchAll(/^@@status (\d{3})$/gm)].map(([, status]) => Number(status))
      t.same(
        statuses,
        block.expected,
        `block ${index} (${block.code.split('\n')[0]}) answers ${block.expected.join(', ') || 'no request'}`,
      )
    })

    const check = stdout[blocks.findIndex((block) => block.code.includes('sha256sum'))] ?? ''
    const [counts, kind, computed, given] = check.trim().split('\n').slice(-4)
    t.match(counts, /characters: 1,\s*events: 2/, 'the first line counts the character and both events')
    t.equal(kind, 'end', 'the last line is the end line')
    t.equal(computed, given, 'and the SHA-256 the guide computes is the one it gives')
    const listed = stdout[blocks.findIndex((block) => block.code.includes('NEW_CAMPAIGN/events'))]
    t.match(listed, /^1 character\.created\n2 stress-check$/m, 'the moved campaign lists the same history')
    const refused = stdout[blocks.findIndex((block) => block.code.includes('cut-short'))]
    t.match(
      refused,
      /^line 4 \(seq 1\): the archive stops after line 3/m,
      'a cut archive is refused naming where it stops',
    )
  },
)
