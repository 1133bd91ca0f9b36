import t from 'tap'
import type { AddressInfo } from 'node:net'
import { main } from '../../examples/client/vtt-example.js'
import { buildTestApp } from '../helpers/build-app.js'

t.test('the typed-client example runs end to end against a listening Nerve', async (t) => {
  const app = await buildTestApp(t)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo

  const result = await main(`http://127.0.0.1:${port}`)

  t.match(result.gmKey, /^nrv_gm_/, 'the campaign came with its GM key')
  t.equal(result.roll.type, 'stress-check', 'the roll is a stress check')
  t.same(
    result.roll.dice.map(({ face, source }) => ({ face, source })),
    [{ face: 85, source: 'provided' }],
    'the VTT-provided face was used and recorded as provided',
  )
  t.match(result.roll.outcome, { result: 'failed' }, '85 against Fitness 60 fails')
  t.same(
    result.roll.pending.map((decision) => decision.action),
    ['stress-response'],
    'the failure left the stress response pending',
  )
  t.equal(result.decision?.type, 'stress-response', 'the example settled the pending decision')
  t.equal(result.decision?.causationId, result.roll.id, 'the settlement points at the roll it settles')
  t.same(
    result.history.map((event) => [event.seq, event.type]),
    [
      [1, 'character.created'],
      [2, 'stress-check'],
      [3, 'stress-response'],
    ],
    'the history holds the creation, the roll and the settlement, in order',
  )
  t.equal(result.violenceFailed, 1, 'the sheet, narrowed to shock-meters, counts the failed notch in Violence')
  t.match(result.ticket.url, /\/events\/stream\?ticket=nrv_st_/, 'a stream ticket opens the live events')
  t.match(
    result.history.at(-1)?.sheetAfter,
    { stressed: { meter: 'violence', response: 'panic' } },
    'the character ends stressed, in panic',
  )
})
