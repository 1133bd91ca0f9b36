import t from 'tap'
import { RuleError } from '../../src/rules/errors.js'
import { resolveAction } from '../../src/rules/rule-set.js'
import { shockMeters } from '../../src/rules/shock-meters/index.js'
import { publicSideOf } from '../../src/services/public-view.js'

// The redaction step alone, without a database: what players see of a sheet after each event.

const campaign = { ruleset: 'shock-meters', settings: {} }
type Sheet = Record<string, any>
const fresh = shockMeters.normalizeSheet({}, {}) as Sheet
const action = (name: string) => shockMeters.actions.find((candidate) => candidate.name === name)!
const check = (sheet: Sheet, request: Record<string, unknown>, faces: number[]) =>
  resolveAction(shockMeters, action('stress-check'), { sheet, request, dice: { source: 'provided', faces } })
    .sheet as Sheet
const replayCheck = (request: Record<string, unknown>, faces: number[]) => (sheet: Sheet) =>
  check(sheet, request, faces)

t.test('with nothing hidden, players see the sheet itself', async (t) => {
  const after = check(fresh, { meter: 'self', rank: 3 }, [23])
  const side = publicSideOf(campaign, {
    visibility: 'public',
    publicSheet: null,
    sheetBefore: fresh,
    sheetAfter: after,
  })
  t.same(side, { publicSheet: null }, 'no sheet of their own, no view of the event')
})

t.test('after a GM-only event, players keep the sheet they saw', async (t) => {
  const hidden = check(fresh, { meter: 'violence', rank: 4, response: 'panic' }, [87])
  const side = publicSideOf(campaign, { visibility: 'gm', publicSheet: null, sheetBefore: fresh, sheetAfter: hidden })
  t.same(side.publicSheet, fresh, 'the sheet before the hidden roll')
  t.equal(side.publicView, undefined, 'a GM-only event has no players’ view: they never see it')
})

t.test('a public check after a hidden one is replayed on the players’ sheet', async (t) => {
  const hidden = check(fresh, { meter: 'violence', rank: 4, response: 'panic' }, [87])
  const cleared = resolveAction(shockMeters, action('clear-stressed'), { sheet: hidden, request: {} }).sheet as Sheet
  const request = { meter: 'self', rank: 3 }
  const after = check(cleared, request, [23])
  const side = publicSideOf(campaign, {
    visibility: 'public',
    publicSheet: fresh,
    sheetBefore: cleared,
    sheetAfter: after,
    replay: replayCheck(request, [23]),
  })
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- TypeScript 7 needs it; typescript-eslint checks with TypeScript 5
  const shown = side.publicView!.sheetAfter as Sheet
  t.same(side.publicView!.sheetBefore, fresh, 'the event starts on the sheet players saw')
  t.same(shown.meters.violence, fresh.meters.violence, 'the hidden failed notch stays hidden')
  t.equal(shown.meters.self.hardened, 2, 'the public pass shows')
  t.equal(shown.lastCheck.number, 1, 'as the first check players know of')
  t.equal(shown.lastCheck.cause, null, 'with nothing of the hidden check')
  t.same(side.publicSheet, shown, 'players go on from that sheet')
  t.same(side.publicView!.pending, [], 'and see no decision open')
})

t.test('where the rules refuse the replay, the event’s own change is carried over', async (t) => {
  const hidden = check(fresh, { meter: 'violence', rank: 4, response: 'panic' }, [87])
  const after = shockMeters.normalizeSheet(
    { ...hidden, meters: { ...hidden.meters, self: { hardened: 3, failed: 0 } } },
    {},
  )
  const side = publicSideOf(campaign, {
    visibility: 'public',
    publicSheet: fresh,
    sheetBefore: hidden,
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- TypeScript 7 needs it; typescript-eslint checks with TypeScript 5
    sheetAfter: after as Sheet,
    replay: () => {
      throw new RuleError('DECISION_NOT_OPEN', 'nothing to settle on this sheet', 'conflict')
    },
  })
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- TypeScript 7 needs it; typescript-eslint checks with TypeScript 5
  const shown = side.publicView!.sheetAfter as Sheet
  t.equal(shown.meters.self.hardened, 3, 'the change to Self shows')
  t.equal(shown.abilities.knowledge, 50, 'and what the rules derive from it')
  t.same(shown.meters.violence, fresh.meters.violence, 'the hidden notch does not')
})

t.test('a failure that is not a rule’s refusal is not hidden', async (t) => {
  const hidden = check(fresh, { meter: 'violence', rank: 4, response: 'panic' }, [87])
  t.throws(
    () =>
      publicSideOf(campaign, {
        visibility: 'public',
        publicSheet: fresh,
        sheetBefore: hidden,
        sheetAfter: hidden,
        replay: () => {
          throw new TypeError('a bug')
        },
      }),
    TypeError,
  )
})

t.test('where neither works, players keep the sheet they saw', async (t) => {
  const hidden = check(fresh, { meter: 'violence', rank: 4, response: 'panic' }, [87])
  // The GM removes the hidden failed notch in public: on the players' sheet there is none to remove.
  const treated = resolveAction(shockMeters, action('ongoing-treatment'), {
    sheet: hidden,
    request: { meter: 'violence', failed: 1, reason: 'Sessions' },
  }).sheet as Sheet
  const side = publicSideOf(campaign, {
    visibility: 'public',
    publicSheet: fresh,
    sheetBefore: hidden,
    sheetAfter: treated,
    replay: (sheet) =>
      resolveAction(shockMeters, action('ongoing-treatment'), {
        sheet,
        request: { meter: 'violence', failed: 1, reason: 'Sessions' },
      }).sheet,
  })
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- TypeScript 7 needs it; typescript-eslint checks with TypeScript 5
  t.same((side.publicView!.sheetAfter as Sheet).meters.violence, fresh.meters.violence, 'nothing of the notch shows')
})
