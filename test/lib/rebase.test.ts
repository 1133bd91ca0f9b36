import fc from 'fast-check'
import t from 'tap'
import { rebase } from '../../src/lib/rebase.js'

const json = fc.jsonValue({ maxDepth: 3 })

t.test('Property: carried over to the version it came from, a change gives its own result', (t) => {
  fc.assert(fc.property(json, json, (before, after) => t.same(rebase(before, before, after), after)))
  t.pass('rebase(before, before, after) = after')
  t.end()
})

t.test('Property: a change that changes nothing leaves the other version as it is', (t) => {
  fc.assert(fc.property(json, json, (base, same) => t.same(rebase(base, same, structuredClone(same)), base)))
  t.pass('rebase(base, x, x) = base')
  t.end()
})

t.test('numbers move by the same amount', async (t) => {
  t.same(rebase({ failed: 0, hardened: 3 }, { failed: 1, hardened: 3 }, { failed: 2, hardened: 4 }), {
    failed: 1,
    hardened: 4,
  })
})

t.test('object keys merge one by one: added, removed, and kept where only the other version has them', async (t) => {
  t.same(
    rebase({ kept: 1, secret: 'x', gone: true }, { gone: true, old: 1 }, { added: 'y', old: 1 }),
    { kept: 1, secret: 'x', added: 'y' },
    'a key the change removed leaves, one it added arrives, one it did not touch stays',
  )
})

t.test('array items the change dropped leave, those it gained join, the rest stay', async (t) => {
  t.same(rebase(['a', 'hidden'], ['a', 'hidden', 'b'], ['hidden', 'b', 'c', 'd']), ['hidden', 'c', 'd'])
  t.same(
    rebase([{ n: 1 }, { n: 5 }], [{ n: 1 }, { n: 6 }], [{ n: 2 }, { n: 6 }]),
    [{ n: 2 }, { n: 5 }],
    'same lengths: item by item',
  )
})

t.test('anything else takes its new value', async (t) => {
  t.equal(rebase('calm', 'stressed', 'calm'), 'calm')
  t.equal(rebase(null, { meter: 'violence' }, null), null)
})

t.test('a field named __proto__ stays an own field', async (t) => {
  const base = JSON.parse('{"a":1}')
  const after = JSON.parse('{"a":1,"__proto__":{"polluted":true}}')
  const result = rebase(base, JSON.parse('{"a":2}'), after) as Record<string, unknown>
  t.ok(Object.hasOwn(result, '__proto__'), 'own field')
  t.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype was touched')
})
