import t from 'tap'
import { nestedDeeperThan } from '../../src/lib/json-limits.js'

t.test('nesting is counted over arrays and objects alike', async (t) => {
  t.equal(nestedDeeperThan('[{"a":[1]}]', 3), false, 'three levels are not deeper than 3')
  t.equal(nestedDeeperThan('[{"a":[[1]]}]', 3), true, 'four levels are')
  t.equal(nestedDeeperThan('[[],[],[],[]]', 2), false, 'siblings do not add up')
  t.equal(nestedDeeperThan('1', 0), false, 'a scalar has no depth')
})

t.test('brackets inside strings do not count, escaped quotes included', async (t) => {
  t.equal(nestedDeeperThan('{"a":"[[[[{{{{"}', 1), false, 'brackets in a string')
  t.equal(nestedDeeperThan('{"[[[[":1}', 1), false, 'brackets in a key')
  t.equal(nestedDeeperThan('{"a":"\\"[[[["}', 1), false, 'an escaped quote does not end the string')
  t.equal(nestedDeeperThan('{"a":"\\\\",[[1]]}', 2), true, 'an escaped backslash does not escape the quote after it')
})

t.test('a body nested 100,000 levels deep is found without recursion', async (t) => {
  t.equal(nestedDeeperThan('['.repeat(100_000) + ']'.repeat(100_000), 64), true, 'deeper than 64')
})
