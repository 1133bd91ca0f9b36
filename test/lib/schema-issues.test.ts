import t from 'tap'
import Type, { type TSchema } from 'typebox'
import { Settings } from 'typebox/system'
import { Value } from 'typebox/value'
import { closest } from '../../src/lib/did-you-mean.js'
import { explainIssues } from '../../src/lib/schema-issues.js'

/** What TypeBox's errors for `value` come to once explained (every error, not its first eight). */
function explain(schema: TSchema, value: unknown) {
  const { maxErrors } = Settings.Get()
  Settings.Set({ maxErrors: 1000 })
  try {
    return explainIssues(Value.Errors(schema, value), value)
  } finally {
    Settings.Set({ maxErrors })
  }
}

const literals = (...values: string[]) => Type.Union(values.map((value) => Type.Literal(value)))

t.test('closest suggests a slip of a few letters, whatever the case, and nothing for another word', async (t) => {
  t.equal(closest('violense', ['self', 'violence']), 'violence', 'one letter off')
  t.equal(closest('VIOLENCE', ['self', 'violence']), 'violence', 'case does not count')
  t.equal(closest('nonee', ['full', 'none']), 'none', 'one letter too many')
  t.equal(closest('chess', ['shock-meters', 'trauma-table']), undefined, 'nothing close')
  t.equal(closest('x', []), undefined, 'nothing to suggest')
})

t.test('a union of unions lists the values of all of them in one error', async (t) => {
  const nested = Type.Union([literals('panic', 'frenzy'), Type.Union([literals('pending', 'none'), Type.Null()])])
  t.same(explain(Type.Object({ response: nested }), { response: 'pendng' }), [
    { path: '/response', detail: 'must be one of panic, frenzy, pending, none, null (did you mean pending?)' },
  ])
})

t.test('a nullable union names null among the values, and a type by its article', async (t) => {
  const clamped = Type.Object({ clamped: Type.Union([literals('top', 'bottom'), Type.Null()]) })
  t.same(explain(clamped, { clamped: 'middle' }), [{ path: '/clamped', detail: 'must be one of top, bottom, null' }])
  const count = Type.Object({ count: Type.Union([Type.Integer(), Type.Null()]) })
  t.same(explain(count, { count: 'many' }), [{ path: '/count', detail: 'must be an integer or null' }])
})

t.test('a union whose value fits one branch’s type speaks of that branch only', async (t) => {
  const schema = Type.Object({ rank: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]) })
  t.same(explain(schema, { rank: 0 }), [{ path: '/rank', detail: 'must be >= 1' }])
})

t.test('objects told apart by their type are checked as the type they name, or the type is named', async (t) => {
  const feature = Type.Union([
    Type.Object({ type: Type.Literal('resists-shock'), meter: literals('self', 'violence') }),
    Type.Object({ type: Type.Literal('therapeutic') }),
  ])
  t.same(explain(feature, { type: 'resists-shok' }), [
    { path: '/type', detail: 'must be one of resists-shock, therapeutic (did you mean resists-shock?)' },
  ])
  t.same(explain(feature, { type: 'resists-shock', meter: 'violense' }), [
    { path: '/meter', detail: 'must be one of self, violence (did you mean violence?)' },
  ])
})
