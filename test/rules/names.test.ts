import t from 'tap'
import { nameIndex, nameKey } from '../../src/rules/names.js'

t.test('A name is compared without case, spaces, hyphens or apostrophes', async (t) => {
  t.equal(nameKey('Spacer’s  Anxiety'), 'spacers-anxiety', 'curly apostrophe, double space')
  t.equal(nameKey(' set_on-FIRE '), 'set-on-fire', 'underscores and case')
})

t.test('An index finds entries by id or alias and suggests the closest for anything else', async (t) => {
  const index = nameIndex([
    { id: 'heart-palpatations', aliases: ['Heart Palpitations'] },
    { id: 'headache', aliases: [] },
  ])
  t.equal(index.find('HEART PALPITATIONS')?.id, 'heart-palpatations', 'by alias')
  t.equal(index.find('Headache')?.id, 'headache', 'by id')
  t.equal(index.find('migraine'), undefined, 'unknown')
  t.same(index.closest('heart palpitation'), ['heart-palpatations ("Heart Palpitations")'], 'the closest name is shown')
  t.same(index.closest('migraine'), [], 'nothing close')
  t.throws(
    () =>
      nameIndex([
        { id: 'a-b', aliases: [] },
        { id: 'c', aliases: ['A B'] },
      ]),
    /names both/,
    'clashes refused',
  )
})
