import t from 'tap'
import { closest, didYouMean, editDistance } from '../../src/lib/did-you-mean.js'

t.test('The edit distance counts one-letter insertions, deletions and substitutions', async (t) => {
  t.equal(editDistance('palpitations', 'palpatations'), 1, 'one substitution')
  t.equal(editDistance('', 'abc'), 3, 'three insertions')
  t.equal(editDistance('kitten', 'sitting'), 3, 'the textbook case')
})

t.test('did-you-mean lists one, two or more suggestions in words', async (t) => {
  t.equal(didYouMean([]), '', 'none')
  t.equal(didYouMean(['a']), '; did you mean a?', 'one')
  t.equal(didYouMean(['a', 'b', 'c']), '; did you mean a, b or c?', 'several')
})

t.test('closest suggests a slip of about a third of the word, whatever the case, and nothing unrelated', async (t) => {
  const types = ['stress-check', 'stress-response', 'new-session']
  t.equal(closest('stress-chek', types), 'stress-check', 'one letter left out')
  t.equal(closest('NEW-SESION', types), 'new-session', 'case and a slip')
  t.equal(closest('trauma-roll', types), undefined, 'nothing close')
})
