import { createDice } from '../dice.js'
import { normalizeSheet } from './sheet.js'
import type { ShockMetersSheet } from './sheet-schema.js'
import { stressCheckAction } from './stress-check.js'

/** A sample character for documentation: one resisting identity, one substituting, all three passions. */
export const exampleCharacter: ShockMetersSheet = normalizeSheet({
  identities: [
    { name: 'Soldier', rating: 45, features: [{ type: 'resists-shock', meter: 'violence' }] },
    { name: 'Occultist', rating: 30, features: [{ type: 'substitutes', ability: 'knowledge' }] },
  ],
  passions: {
    fear: { text: 'Being forgotten' },
    rage: { text: 'People who prey on children' },
    noble: { text: 'Keeping my brother safe' },
  },
  relationships: [{ name: 'Dr. Okafor', rating: 40 }],
})

/** The sample character right after failing a Violence 4 check (rolled 88 against Soldier 45), response pending. */
export const exampleAfterFailedCheck: ShockMetersSheet = stressCheckAction.resolve(
  exampleCharacter,
  { meter: 'violence', rank: 4, trigger: 'kill-in-fight', passion: 'fear', cause: 'Shot the cultist on the stairs' },
  createDice({ source: 'provided', faces: [88] }),
  {},
).sheet

/**
 * For each action, a sheet on which its request examples work: follow-up actions need a check
 * or a pending decision that the default sheet does not have.
 */
export const exampleSheets: Record<string, ShockMetersSheet> = {
  'stress-check': normalizeSheet({}),
  'passion-reroll': exampleAfterFailedCheck,
  'passion-flip-flop': exampleAfterFailedCheck,
  'stress-response': exampleAfterFailedCheck,
  'record-disorder': normalizeSheet({}),
  'clear-stressed': exampleAfterFailedCheck,
  'new-session': normalizeSheet({}),
  'therapy-assistance': exampleAfterFailedCheck,
  'ongoing-treatment': normalizeSheet({}),
}
