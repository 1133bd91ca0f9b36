import t from 'tap'
import { oddsOf } from '../../../src/rules/rule-set.js'
import { MAX_ENCOUNTER_TRAUMAS, type TraumaSettlement } from '../../../src/rules/trauma-table/schemas.js'
import { refusalOf } from '../enumerate.js'
import { run, traumaTable } from './helpers.js'

const traumaRoll = traumaTable.actions.find((action) => action.name === 'trauma-roll')!
const full = { encounterTraumas: Array<string>(MAX_ENCOUNTER_TRAUMAS).fill('hysteria') }

t.test(
  'At the most traumas one encounter records, another trauma roll is refused as the sheet’s state (409 ENCOUNTER_TRAUMA_LIMIT), saying to end the encounter',
  async (t) => {
    t.match(
      refusalOf(() => run('trauma-roll', full, { response: 'accept' }, [50, 6])),
      {
        code: 'ENCOUNTER_TRAUMA_LIMIT',
        kind: 'conflict',
        pointer: '/sheet/encounterTraumas',
        message: /^500 traumas have been suffered this encounter.*end-encounter/,
      },
      'the roll, accepted at once',
    )
    t.match(
      refusalOf(() => run('trauma-roll', full, {}, [50])),
      { code: 'ENCOUNTER_TRAUMA_LIMIT' },
      'the roll left pending too: it could only be accepted past the limit',
    )
    t.match(
      refusalOf(() => oddsOf(traumaTable, traumaRoll, { sheet: full, request: {} })),
      { code: 'ENCOUNTER_TRAUMA_LIMIT' },
      'its odds as well, as they refuse whatever the roll refuses',
    )
  },
)

t.test('One trauma short of the limit, the last one is rolled and accepted', async (t) => {
  const almost = { encounterTraumas: full.encounterTraumas.slice(1) }
  const rolled = run('trauma-roll', almost, { response: 'accept' }, [50, 6, 6, 6, 6, 6])
  t.equal((rolled.outcome as TraumaSettlement).status, 'accepted', 'accepted')
  t.equal(rolled.sheet.encounterTraumas.length, MAX_ENCOUNTER_TRAUMAS, 'the encounter now holds the most it may')
})

t.test('Ending the encounter clears the limit: the next roll is allowed', async (t) => {
  const ended = run('end-encounter', full, {})
  t.same(ended.sheet.encounterTraumas, [], 'the encounter’s traumas are cleared')
  t.equal(
    refusalOf(() => run('trauma-roll', ended.sheet, {}, [50])),
    null,
    'a new encounter rolls again',
  )
})

t.test('A trauma left pending on a sheet edited up to the limit may be answered, not accepted', async (t) => {
  const pending = run('trauma-roll', {}, {}, [50]).sheet
  const edited = { ...pending, encounterTraumas: full.encounterTraumas }
  t.match(
    refusalOf(() => run('trauma-response', edited, { response: 'accept' }, [6, 6, 6, 6, 6])),
    { code: 'ENCOUNTER_TRAUMA_LIMIT', kind: 'conflict', message: /answer this one with an ability/ },
    'accepting it is refused, saying what is possible',
  )
})
