// @ts-check
import { h, title } from '../dom.js'
import { badge, boxes, list, ordered, table } from './parts.js'

/**
 * @param {import('../api-types.js').ShockMetersCharacter} character
 * @param {any} tables
 * @param {any} _settings
 * @param {import('../api-types.js').Event[]} events  the character's latest events seen, oldest first
 */
export function renderShockMeters(character, tables, _settings, events) {
  const sheet = character.sheet
  const limits = tables.limits ?? { hardened: 9, failed: 5, burnOutTotal: 25 }
  const meterAbilities = tables.meterAbilities ?? {}
  const stressedMeter = sheet.stressed?.meter

  const rows = ordered(Object.keys(meterAbilities), sheet.meters).map(([meter, gauge]) => {
    const abilities = meterAbilities[meter] ?? {}
    const stressedHere = stressedMeter === meter
    return h(
      'tr',
      { class: stressedHere ? 'stressed-row' : undefined },
      h(
        'th',
        { scope: 'row' },
        title(meter),
        stressedHere ? h('span', { class: 'visually-hidden' }, ' (stressed)') : '',
      ),
      h('td', {}, boxes(gauge.hardened, limits.hardened, 'hardened', 'hardened')),
      h('td', {}, boxes(gauge.failed, limits.failed, 'failed', 'failed')),
      h(
        'td',
        { class: 'abilities' },
        `${title(abilities.upbeat ?? '')} ${sheet.abilities[abilities.upbeat] ?? ''} · ${title(abilities.downbeat ?? '')} ${sheet.abilities[abilities.downbeat] ?? ''}`,
      ),
    )
  })

  const badges = []
  if (sheet.burnedOut) badges.push(badge('Burned out', 'bad'))
  if (sheet.stressed) {
    const response = sheet.stressed.response === 'pending' ? 'response pending' : sheet.stressed.response
    badges.push(badge(`Stressed: ${title(sheet.stressed.meter)} — ${response}`, 'bad'))
  }
  badges.push(badge(`${sheet.totalHardened} of ${limits.burnOutTotal} hardened`, 'plain'))

  const passions = ordered(['fear', 'rage', 'noble'], sheet.passions)
    .filter(([, passion]) => passion)
    .map(([name, passion]) => `${title(name)}: ${passion.text}${passion.flipFlopUsed ? ' (flip-flop used)' : ''}`)
  const disorders = sheet.disorders.map(
    (disorder) => `${disorder.name ?? 'Unnamed — GM to record'} (${title(disorder.meter)})`,
  )
  const last = sheet.lastCheck
  return [
    h('ul', { class: 'badges' }, badges),
    table('Shock gauge', ['Meter', 'Hardened', 'Failed', 'Upbeat · downbeat'], rows, { class: 'gauge' }),
    h('h4', {}, 'Disorders'),
    list(disorders, 'None.'),
    passions.length ? [h('h4', {}, 'Passions'), list(passions, '')] : null,
    last ? h('p', { class: 'none' }, lastCheckLine(last, events)) : null,
  ]
}

/**
 * The last stress check, numbered as the live rolls number it (#seq) when it is among the events
 * seen; the sheet's own count ("the 2nd") is the character's, not the feed's, and says so.
 */
function lastCheckLine(last, events) {
  const roll = events.findLast((event) => event.type === 'stress-check')
  const face = last.face ? `, rolled ${String(last.face % 100).padStart(2, '0')}` : ''
  const where = roll ? ` #${roll.seq}` : ''
  return `Last stress check${where} (${ordinal(last.number)} for this character): ${title(last.meter)} ${last.rank} — ${title(last.result).toLowerCase()}${face}.`
}

const ordinal = (n) => `${n}${[11, 12, 13].includes(n % 100) ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')}`
