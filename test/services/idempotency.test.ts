import t from 'tap'
import { ConflictError, UnprocessableError } from '../../src/errors.js'
import { newId } from '../../src/lib/ids.js'
import type { Store } from '../../src/repositories/index.js'
import type { Principal } from '../../src/lib/principal.js'
import { idempotent, type Once } from '../../src/services/idempotency.js'
import { engine, testStore } from '../helpers/database.js'

// The service alone, on the real database and without an app: it needs only the idempotency
// records, and a command that writes in a transaction of its own.
const store = await testStore(t)

async function gmOfNewCampaign(): Promise<Principal> {
  const campaign = { id: newId(), name: 'Mercy Street', ruleset: 'shock-meters', settings: {} }
  await store.campaigns.create(campaign)
  return { keyId: newId(), role: 'gm', characterIds: [], campaign }
}

/** A command that counts its runs and answers with its run number, recorded under its key. */
function counter(store: Store, options: { fail?: boolean; slow?: Promise<void> } = {}) {
  let runs = 0
  const command = (claim: Parameters<Parameters<typeof idempotent>[3]>[0]) =>
    store.transaction(async (tx) => {
      runs++
      const answer = { run: runs }
      await options.slow
      if (options.fail) throw new ConflictError('the rules refuse')
      await claim?.complete(tx, answer)
      return answer
    })
  return { command, runs: () => runs }
}

const once = (key: string | undefined, fingerprint: unknown = { rank: 4 }): Once => ({ key, fingerprint })

t.test(`[${engine}] a command without an Idempotency-Key runs every time it is sent`, async (t) => {
  const gm = await gmOfNewCampaign()
  const { command, runs } = counter(store)
  await idempotent(store, gm, once(undefined), command)
  const second = await idempotent(store, gm, once(undefined), command)
  t.equal(runs(), 2, 'ran twice')
  t.same(second, { body: { run: 2 }, replayed: false }, 'a fresh answer')
})

t.test(`[${engine}] the same key and request runs once: the retry gets the first answer, replayed`, async (t) => {
  const gm = await gmOfNewCampaign()
  const { command, runs } = counter(store)
  const first = await idempotent(store, gm, once('retry-1'), command)
  const retry = await idempotent(store, gm, once('retry-1'), command)
  t.equal(runs(), 1, 'the retry ran nothing')
  t.same(first, { body: { run: 1 }, replayed: false }, 'the first answer')
  t.same(retry, { body: { run: 1 }, replayed: true }, 'the same answer, marked replayed')
})

t.test(`[${engine}] the same key with another request is refused and runs nothing`, async (t) => {
  const gm = await gmOfNewCampaign()
  const { command, runs } = counter(store)
  await idempotent(store, gm, once('reused', { rank: 4 }), command)
  await t.rejects(
    idempotent(store, gm, once('reused', { rank: 5 }), command),
    new UnprocessableError('this Idempotency-Key was already used with a different request'),
    'a 422 that says why',
  )
  t.equal(runs(), 1, 'the second request did not run')
})

t.test(`[${engine}] a command that fails leaves its key free, so the retry runs`, async (t) => {
  const gm = await gmOfNewCampaign()
  const failing = counter(store, { fail: true })
  await t.rejects(idempotent(store, gm, once('after-failure'), failing.command), ConflictError, 'the failure itself')
  const { command, runs } = counter(store)
  const retry = await idempotent(store, gm, once('after-failure'), command)
  t.equal(runs(), 1, 'the retry ran')
  t.same(retry, { body: { run: 1 }, replayed: false }, 'with its own answer')
})

t.test(
  `[${engine}] two keys of one campaign choosing the same Idempotency-Key each get their own answer`,
  async (t) => {
    const gm = await gmOfNewCampaign()
    const player: Principal = { ...gm, keyId: newId(), role: 'player' }
    const { command, runs } = counter(store)
    await idempotent(store, gm, once('same-name'), command)
    const theirs = await idempotent(store, player, once('same-name'), command)
    t.equal(runs(), 2, 'both ran')
    t.same(theirs, { body: { run: 2 }, replayed: false }, 'not the other key’s answer')
  },
)

t.test(`[${engine}] a duplicate sent while the first still runs answers as the first did`, async (t) => {
  const gm = await gmOfNewCampaign()
  let finish!: () => void
  const { command } = counter(store, { slow: new Promise((resolve) => (finish = resolve)) })
  const first = idempotent(store, gm, once('in-flight'), command)
  const duplicate = idempotent(store, gm, once('in-flight'), command)
  finish()
  const answers = await Promise.all([first, duplicate])
  t.same(
    answers.map((answer) => answer.body),
    [{ run: 1 }, { run: 1 }],
    'both carry the one answer that committed',
  )
  t.same(answers.map((answer) => answer.replayed).sort(), [false, true], 'one made it, the other replayed it')
})
