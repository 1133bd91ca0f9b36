import t from 'tap'
import type { TraumaTableSheet } from '../../../src/rules/trauma-table/schemas.js'
import { findRow, rowById } from '../../../src/rules/trauma-table/table.js'
import { failure, run, sheetOf } from './helpers.js'

const busy: Partial<TraumaTableSheet> = {
  conditions: [
    { name: 'Hazed', duration: 'next-check', source: 'hazed' },
    { name: 'Fazed', duration: 'next-rest', source: 'rocked' },
    { name: 'Dazed', duration: 'scene', source: 'dazed' },
    { name: 'Hazed', duration: 'encounter', source: 'flapped' },
    { name: 'Fazed', duration: 'cycle', source: 'fazed' },
    { name: 'Psychosis', duration: 'permanent', source: 'psychosis' },
  ],
  saveDisadvantages: [
    { save: 'fortitude', until: 'end-of-scene', source: 'fragility' },
    { save: 'will', until: 'end-of-scene', source: 'agreeable' },
  ],
  behaviours: [
    { behaviour: 'flee', duration: 'next-turn', source: 'afraid' },
    { behaviour: 'attack-nearest', duration: 'encounter', source: 'hysteria' },
  ],
  lastingTraumas: [
    { id: 'over-stimulated', name: 'Over-Stimulated', severity: 30, restHeals: true },
    { id: 'social-anxiety', name: 'Social Anxiety', severity: 80, restHeals: false },
  ],
  encounterTraumas: ['afraid', 'hysteria'],
}

const names = (sheet: TraumaTableSheet) =>
  sheet.conditions.map((condition) => `${condition.name}/${condition.duration}`)

t.test('end-scene: "until the end of the Scene" save disadvantages and scene conditions end', async (t) => {
  const result = run('end-scene', busy, {})
  t.same(result.sheet.saveDisadvantages, [], 'Fortitude and Will disadvantages end')
  t.same(
    names(result.sheet),
    ['Hazed/next-check', 'Fazed/next-rest', 'Hazed/encounter', 'Fazed/cycle', 'Psychosis/permanent'],
    'only the scene condition ends',
  )
  t.same(result.sheet.encounterTraumas, ['afraid', 'hysteria'], 'the encounter goes on')
  t.equal(
    (result.outcome as { saveDisadvantagesEnded: unknown[] }).saveDisadvantagesEnded.length,
    2,
    'outcome lists what ended',
  )
})

t.test("end-encounter: the encounter's traumas are forgotten and compelled behaviours end", async (t) => {
  const result = run('end-encounter', busy, {})
  t.same(result.sheet.encounterTraumas, [], 'no traumas this encounter any more')
  t.equal(result.sheet.traumasThisEncounter, 0, 'derived count follows')
  t.same(result.sheet.behaviours, [], 'fleeing and attacking stop')
  t.same(
    (result.outcome as { traumasCleared: string[] }).traumasCleared,
    ['afraid', 'hysteria'],
    'outcome lists the cleared traumas',
  )
  const next = run('trauma-roll', result.sheet, {}, [65])
  t.equal((next.outcome as { roll: { netShift: number } }).roll.netShift, 0, 'the next trauma is not upgraded by them')
})

t.test(
  'end-encounter ends the scene too: Agreeable\'s "Will Saves ... until the end of the Scene" do not outlast the encounter',
  async (t) => {
    const result = run('end-encounter', busy, {})
    t.same(result.sheet.saveDisadvantages, [], 'the Fortitude and Will disadvantages end with the encounter')
    t.same(
      names(result.sheet),
      ['Hazed/next-check', 'Fazed/next-rest', 'Fazed/cycle', 'Psychosis/permanent'],
      'scene and encounter conditions end; next-rest, cycle and permanent ones stay',
    )
    t.match(
      result.outcome,
      {
        conditionsEnded: [
          { name: 'Dazed', duration: 'scene' },
          { name: 'Hazed', duration: 'encounter' },
        ],
        saveDisadvantagesEnded: [{ save: 'fortitude' }, { save: 'will' }],
      },
      'the outcome lists what ended',
    )
    t.same(
      result.sheet,
      run('end-encounter', run('end-scene', busy, {}).sheet, {}).sheet,
      'the same as ending the scene, then the encounter',
    )
    t.match(result.summary, /will save disadvantage/, 'the summary names it')
  },
)

t.test('end-encounter waits for a pending trauma to be settled', async (t) => {
  const rolled = run('trauma-roll', {}, {}, [50])
  t.throws(
    () => run('end-encounter', rolled.sheet, {}),
    { code: 'TRAUMA_PENDING', kind: 'conflict', message: /trauma-response/ },
    '409',
  )
})

const hurt: Partial<TraumaTableSheet> = { ...busy, healthLost: 12 }
const nextRest = [{ name: 'Fazed', duration: 'next-rest', source: 'rocked' }]

t.test('rest: "until your next Rest" conditions end and rest-healable lasting traumas lose severity', async (t) => {
  const result = run('rest', hurt, { health: 5, severity: 10 })
  t.same(
    names(result.sheet),
    ['Hazed/next-check', 'Dazed/scene', 'Hazed/encounter', 'Fazed/cycle', 'Psychosis/permanent'],
    'Fazed until next rest ends',
  )
  t.same(
    result.sheet.lastingTraumas.map((trauma) => [trauma.id, trauma.severity]),
    [
      ['over-stimulated', 20],
      ['social-anxiety', 80],
    ],
    'Over-Stimulated 30 → 20; the anxiety "can\'t be healed through normal means"',
  )
  t.match(
    result.outcome,
    {
      requested: { health: 5, severity: 10 },
      recovered: { health: 5, severity: 10 },
      recovery: 'full',
      countsAsRest: true,
      conditionsEnded: nextRest,
      conditionsKept: [],
    },
    'full recovery',
  )
})

t.test('rest heals Health: a rest recovers the health the GM grants, never below none lost', async (t) => {
  const result = run('rest', hurt, { health: 5 })
  t.equal(result.sheet.healthLost, 7, '12 lost − 5 recovered = 7')
  t.match(result.outcome, { healthLost: { before: 12, after: 7 }, recovered: { health: 5, severity: 0 } }, 'recorded')
  t.equal(result.sheet.lastingTraumas[0]?.severity, 30, 'severity 0 by default: lasting traumas unchanged')
  const healed = run('rest', hurt, { health: 50 })
  t.equal(healed.sheet.healthLost, 0, 'health lost stops at 0')
  t.match(healed.outcome, { healthLost: { before: 12, after: 0 } }, 'recorded')
})

t.test('rest: a lasting trauma that reaches 0 severity is removed, never below 0', async (t) => {
  const result = run('rest', busy, { severity: 45 })
  t.same(
    result.sheet.lastingTraumas.map((trauma) => trauma.id),
    ['social-anxiety'],
    'Over-Stimulated is gone',
  )
  t.match(
    result.outcome,
    { lastingTraumas: [{ id: 'over-stimulated', before: 30, after: 0, removed: true }] },
    'recorded as removed',
  )
})

t.test('rest: `recovery`, the deprecated name of `severity`, is still read as it', async (t) => {
  const result = run('rest', busy, { recovery: 10 })
  t.equal(result.sheet.lastingTraumas[0]?.severity, 20, 'Over-Stimulated 30 → 20')
  t.match(result.outcome, { requested: { health: 0, severity: 10 } }, 'recorded under its new name')
  t.throws(
    () => run('rest', busy, { recovery: 10, severity: 5 }),
    { code: 'REQUEST_INVALID', pointer: '/request/recovery', message: /deprecated/ },
    'not both',
  )
})

t.test(
  'Insomnia: "your Rests only recover half the normal amount of Health and Lasting Trauma Severity, rounded down"',
  async (t) => {
    const result = run('rest', { ...hurt, insomnia: true }, { health: 9, severity: 15 })
    t.equal(result.sheet.healthLost, 8, '12 − floor(9 / 2) = 8')
    t.equal(result.sheet.lastingTraumas[0]?.severity, 23, '30 − floor(15 / 2) = 23')
    t.match(
      result.outcome,
      { requested: { health: 9, severity: 15 }, recovered: { health: 4, severity: 7 }, recovery: 'halved-by-insomnia' },
      'halved',
    )
    t.equal(result.sheet.insomnia, true, 'a rest does not end Insomnia')
  },
)

t.test(
  'Insomnia: "Rests don\'t count as Rests for the purposes of other rules", so nothing "until your next Rest" ends',
  async (t) => {
    const conditions: TraumaTableSheet['conditions'] = [
      { name: 'Hazed', duration: 'next-rest', source: 'flapped' },
      { name: 'Cyberware Feedback', duration: 'next-rest', source: 'cyberware-feedback' },
      { name: 'Neuro-Astral Feedback', duration: 'next-rest', source: 'neuro-astral-feedback' },
    ]
    const result = run('rest', { insomnia: true, conditions }, { severity: 10 })
    t.same(result.sheet.conditions, conditions, 'Flapped, Cyberware Feedback and Neuro-Astral Feedback go on')
    t.match(
      result.outcome,
      { countsAsRest: false, conditionsEnded: [], conditionsKept: conditions },
      'the outcome says what did not end',
    )
    t.match(result.summary, /not a rest/, 'and the summary says why')
    const cycle = run('end-cycle', result.sheet, {})
    const whole = run('rest', cycle.sheet, { health: 4, severity: 10 })
    t.same(whole.sheet.conditions, [], 'after the end of the cycle, the next rest is whole: they end')
    t.match(whole.outcome, { recovery: 'full', countsAsRest: true }, 'and recovers in full')
  },
)

t.test('Sleepless Night: "You gain no benefits from your next Rest", and that rest uses it up', async (t) => {
  const sleepless = run('rest', { ...hurt, sleeplessNight: true }, { health: 6, severity: 20 })
  t.equal(sleepless.sheet.lastingTraumas[0]?.severity, 30, 'no severity recovered')
  t.equal(sleepless.sheet.healthLost, 12, 'no health recovered')
  t.same(names(sleepless.sheet), names(sheetOf(hurt)), 'nothing "until your next Rest" ends: Fazed (Rocked) goes on')
  t.match(
    sleepless.outcome,
    {
      recovered: { health: 0, severity: 0 },
      recovery: 'none-sleepless-night',
      countsAsRest: false,
      sleeplessNightConsumed: true,
      conditionsEnded: [],
      conditionsKept: nextRest,
    },
    'recorded',
  )
  t.equal(sleepless.sheet.sleeplessNight, false, 'consumed')
  const following = run('rest', sleepless.sheet, { health: 6, severity: 20 })
  t.equal(following.sheet.lastingTraumas[0]?.severity, 10, 'the rest after it recovers normally')
  t.equal(following.sheet.healthLost, 6, 'health too')
  t.same(
    following.sheet.conditions.filter((c) => c.duration === 'next-rest'),
    [],
    'and ends what lasts until it',
  )
})

t.test('Under both Insomnia and Sleepless Night, Sleepless Night wins: nothing is recovered', async (t) => {
  const result = run('rest', { ...hurt, insomnia: true, sleeplessNight: true }, { health: 10, severity: 10 })
  t.match(
    result.outcome,
    { recovered: { health: 0, severity: 0 }, recovery: 'none-sleepless-night', sleeplessNightConsumed: true },
    'nothing recovered',
  )
  t.same([result.sheet.insomnia, result.sheet.sleeplessNight], [true, false], 'Insomnia stays; the night is used up')
})

t.test('end-cycle: Insomnia lasts "Until the next Cycle"', async (t) => {
  const result = run('end-cycle', { ...busy, insomnia: true }, {})
  t.equal(result.sheet.insomnia, false, 'Insomnia ends')
  t.same(
    names(result.sheet),
    ['Hazed/next-check', 'Fazed/next-rest', 'Dazed/scene', 'Hazed/encounter', 'Psychosis/permanent'],
    'cycle conditions end',
  )
  t.match(result.outcome, { insomniaEnded: true }, 'recorded')
  t.match(run('end-cycle', {}, {}).outcome, { insomniaEnded: false }, 'nothing to end on a fresh sheet')
})

t.test('socialise-ritual: an anxiety "requires ... a Periodic Socialise Ritual to reduce its Severity"', async (t) => {
  const result = run('socialise-ritual', busy, { trauma: 'social-anxiety', amount: 30 })
  t.same(
    result.sheet.lastingTraumas.map((trauma) => [trauma.id, trauma.severity]),
    [
      ['over-stimulated', 30],
      ['social-anxiety', 50],
    ],
    'Social Anxiety 80 → 50, nothing else',
  )
  const gone = run('socialise-ritual', busy, { trauma: 'social-anxiety', amount: 100 })
  t.same(
    gone.sheet.lastingTraumas.map((trauma) => trauma.id),
    ['over-stimulated'],
    'removed at 0',
  )
  const absent = run('socialise-ritual', busy, { trauma: 'spacers-anxiety', amount: 10 })
  t.match(absent.outcome, { change: null }, 'an anxiety the character lacks is reported, not invented')
  t.same(absent.sheet, sheetOf(busy), 'and nothing changes')
  t.throws(
    () => run('socialise-ritual', busy, { trauma: 'over-stimulated', amount: 10 }),
    { code: 'REQUEST_INVALID' },
    'only anxieties',
  )
})

t.test("socialise-ritual takes the anxiety by the table's name, whatever the case, and records its id", async (t) => {
  for (const typed of ['Social Anxiety', 'social anxiety', 'SOCIAL-ANXIETY']) {
    const result = run('socialise-ritual', busy, { trauma: typed, amount: 30 })
    t.match(result.outcome, { trauma: 'social-anxiety', change: { before: 80, after: 50 } }, `"${typed}"`)
  }
  t.match(
    run('socialise-ritual', busy, { trauma: 'Spacer’s Anxiety', amount: 10 }).outcome,
    { trauma: 'spacers-anxiety' },
    'a common spelling of "Spacers Anxiety"',
  )
  const misspelt = failure('socialise-ritual', busy, { trauma: 'Socal Anxiety', amount: 10 })
  t.match(
    misspelt,
    {
      code: 'UNKNOWN_TRAUMA',
      pointer: '/request/trauma',
      message: /did you mean social-anxiety\?/,
    },
    'an unknown name is answered with the closest rows',
  )
})

t.test('"Heart Palpatations" is the table\'s spelling; "Heart Palpitations" names the same row', async (t) => {
  t.equal(findRow('Heart Palpitations')?.id, 'heart-palpatations', 'the usual spelling')
  t.equal(findRow('heart palpatations')?.id, 'heart-palpatations', "the table's, in any case")
  t.ok(rowById('heart-palpatations').aliases.includes('Heart Palpitations'), 'published with the row')
  t.match(
    failure('socialise-ritual', busy, { trauma: 'Heart Palpitations', amount: 10 }),
    { code: 'REQUEST_INVALID', message: /Heart Palpatations is not an anxiety/ },
    'where only anxieties are accepted, the row is named and refused for what it is',
  )
})

t.test('Accepting a lasting trauma already held does not stack severity', async (t) => {
  const lowered = {
    lastingTraumas: [{ id: 'over-stimulated' as const, name: 'Over-Stimulated', severity: 5, restHeals: true }],
  }
  const result = run('trauma-roll', lowered, { response: 'accept' }, [68])
  t.same(
    result.sheet.lastingTraumas,
    [{ id: 'over-stimulated', name: 'Over-Stimulated', severity: 30, restHeals: true }],
    'back to 30, one entry',
  )
})
