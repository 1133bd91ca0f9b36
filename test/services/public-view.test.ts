import t from 'tap'
import { resolveAction } from '../../src/rules/rule-set.js'
import { shockMeters } from '../../src/rules/shock-meters/index.js'
import { publicSideOf, type SheetChange } from '../../src/services/public-view.js'

// The one step that decides who sees an event and what players see of it, without a database.

const campaign = { ruleset: 'shock-meters', settings: {} }
type Sheet = Record<string, any>
const fresh = shockMeters.normalizeSheet({}, {}) as Sheet
const action = (name: string) => shockMeters.actions.find((candidate) => candidate.name === name)!

/** An action on `sheet` as a command hands it to the step: what it did, and how to do it again on another sheet. */
function change(
  name: string,
  sheet: Sheet,
  request: Record<string, unknown>,
  faces: number[],
  rest: Partial<SheetChange> & { publicSheet: Sheet | null },
): SheetChange {
  const resolve = (on: Sheet) =>
    resolveAction(shockMeters, action(name), {
      sheet: on,
      request,
      dice: { source: 'provided', faces },
      surplus: 'refuse',
    })
  const resolved = resolve(sheet)
  return {
    requested: undefined,
    follows: null,
    sheetBefore: sheet,
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- TypeScript 7 needs it; typescript-eslint checks with TypeScript 5
    sheetAfter: resolved.sheet as Sheet,
    outcome: resolved.outcome,
    summary: resolved.summary,
    followUps: resolved.followUps,
    type: name,
    characterName: 'Vera',
    replay: resolve,
    ...rest,
  }
}

const hiddenFailure = change(
  'stress-check',
  fresh,
  { meter: 'violence', rank: 4, response: 'panic', cause: 'SECRET-CAUSE-7f3a' },
  [87],
  { publicSheet: null, requested: 'gm' },
)
const stressed = hiddenFailure.sheetAfter

t.test('with nothing hidden, an event is public and players see the sheet itself', async (t) => {
  const side = publicSideOf(
    campaign,
    change('stress-check', fresh, { meter: 'self', rank: 3 }, [23], { publicSheet: null }),
  )
  t.equal(side.visibility, 'public', 'public')
  t.equal(side.reason.code, 'default', 'by default')
  t.equal(side.publicSheet, null, 'no sheet of their own')
  t.equal(side.publicView, undefined, 'no view of the event of their own')
})

t.test('a GM-only event leaves players the sheet they saw', async (t) => {
  const side = publicSideOf(campaign, hiddenFailure)
  t.equal(side.visibility, 'gm', 'GM-only')
  t.equal(side.reason.code, 'requested', 'as asked')
  t.same(side.publicSheet, fresh, 'the sheet before the hidden roll')
  t.equal(side.publicView, undefined, 'players never see the event')
})

t.test('an event whose result is the same on the sheet players know is public, shown on that sheet', async (t) => {
  const hiddenPass = change('stress-check', fresh, { meter: 'violence', rank: 4 }, [23], {
    publicSheet: null,
    requested: 'gm',
  }).sheetAfter
  const side = publicSideOf(
    campaign,
    change('stress-check', hiddenPass, { meter: 'self', rank: 3 }, [23], { publicSheet: fresh }),
  )
  t.equal(side.visibility, 'public', 'public')
  t.equal(side.reason.code, 'default', 'nothing hidden is read')
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- TypeScript 7 needs it; typescript-eslint checks with TypeScript 5
  const shown = side.publicView!.sheetAfter as Sheet
  t.same(side.publicView!.sheetBefore, fresh, 'it starts on the sheet players saw')
  t.same(shown.meters.violence, fresh.meters.violence, 'the hidden failed notch stays hidden')
  t.equal(shown.meters.self.hardened, 2, 'the public pass shows')
  t.equal(shown.lastCheck.cause, null, 'with nothing of the hidden check')
  t.same(side.publicSheet, shown, 'players go on from that sheet')
  t.equal(side.publicView!.outcome, undefined, 'its outcome is shown as recorded')
})

t.test(
  'issue 27 §1: clearing a stress only a GM-only check caused is GM-only unless the GM asks for public',
  async (t) => {
    const clear = change('clear-stressed', stressed, {}, [], { publicSheet: fresh })
    t.match(JSON.stringify(clear.outcome), /SECRET-CAUSE-7f3a/, 'the true outcome names the hidden cause')
    const derived = publicSideOf(campaign, clear)
    t.equal(derived.visibility, 'gm', 'left to Nerve, it is GM-only')
    t.equal(derived.reason.code, 'reads-hidden-state', 'because its result reads what the hidden check did')

    const asked = publicSideOf(campaign, { ...clear, requested: 'public' })
    t.equal(asked.visibility, 'public', 'public when the GM asks')
    t.equal(asked.reason.code, 'redacted', 'and the GM is told players see it without its result')
    t.equal(asked.publicView!.outcome, null, 'players read no outcome')
    t.match(asked.publicView!.summary, /the result stays with the GM/, 'only that it happened')
    t.notMatch(JSON.stringify(asked), /SECRET-CAUSE-7f3a|panic/, 'nothing of the hidden check in what players see')
  },
)

t.test('an event that follows a GM-only one is GM-only unless asked otherwise', async (t) => {
  const waiting = change('stress-check', fresh, { meter: 'violence', rank: 4 }, [87], {
    publicSheet: null,
    requested: 'gm',
  }).sheetAfter
  const response = change('stress-response', waiting, { response: 'frenzy' }, [], {
    publicSheet: fresh,
    follows: { seq: 3, type: 'stress-check' },
  })
  const side = publicSideOf(campaign, response)
  t.equal(side.visibility, 'gm', 'GM-only')
  t.equal(side.reason.code, 'follows-gm-only-event', 'because of what it follows')
  t.match(side.reason.detail, /stress-check #3/, 'which the GM is told')
})

t.test('a failure that is not a rule’s refusal is not taken for hidden state', async (t) => {
  t.throws(
    () =>
      publicSideOf(campaign, {
        ...change('clear-stressed', stressed, {}, [], { publicSheet: fresh }),
        replay: () => {
          throw new TypeError('a bug')
        },
      }),
    TypeError,
  )
})
