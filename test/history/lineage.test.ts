import t from 'tap'
import { standingEvents, walkLineage } from '../../src/history/lineage.js'

const event = (id: string, type = 'stress-check', causationId: string | null = null) => ({ id, type, causationId })
const ids = (events: { id: string }[]) => events.map((standing) => standing.id)

t.test('a revert takes back the event it names; reverting that revert brings the event back', async (t) => {
  const history = [event('a'), event('b'), event('r1', 'revert', 'b')]
  t.same(ids(standingEvents(history)), ['a'], 'b is taken back, and the revert itself does not stand')
  t.same(
    ids(standingEvents([...history, event('r2', 'revert', 'r1')])),
    ['a', 'b'],
    'reverting the revert puts b back in its place',
  )
  t.same(
    ids(standingEvents([...history, event('c'), event('r2', 'revert', 'c'), event('r3', 'revert', 'a')])),
    [],
    'reverts in a row take back the events before them one by one',
  )
})

t.test('the walk hands each step the state as it stood before the event a revert takes back', async (t) => {
  const history = [event('a'), event('b'), event('r1', 'revert', 'b'), event('c')]
  const seen: string[][] = []
  const final = walkLineage(history, [] as string[], (state, next) => {
    seen.push(state)
    return [...state, next.id]
  })
  t.same(seen[2], ['a'], 'the revert of b starts from the state before b')
  t.same(final, ['a', 'r1', 'c'], 'every event, the revert included, is stepped through')
})
