import t from 'tap'
import { validate, version } from 'uuid'
import { newId } from '../../src/lib/ids.js'

t.test('newId gives valid UUIDv7s carrying the time they were made', async (t) => {
  const before = Date.now()
  const id = newId()
  const after = Date.now()
  t.ok(validate(id), `${id} is a UUID`)
  t.equal(version(id), 7, 'version 7')
  t.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, 'RFC variant')
  const millis = parseInt(id.replaceAll('-', '').slice(0, 12), 16)
  t.ok(millis >= before && millis <= after, 'its first 48 bits are the milliseconds it was made in')
})

t.test('ids made one after another sort in the order they were made, within a millisecond too', async (t) => {
  // Far more ids than one draw of random bytes serves, so the pool is refilled many times.
  const ids = Array.from({ length: 20_000 }, () => newId())
  t.equal(new Set(ids).size, ids.length, 'all distinct')
  t.ok(
    ids.every((id, i) => i === 0 || id > ids[i - 1]!),
    'each sorts after the one before',
  )
})
