import fc from 'fast-check'
import t from 'tap'
import { flipFlop, isCritical, isFumble, isMatched, readD100 } from '../../src/rules/d100.js'

const allFaces = Array.from({ length: 100 }, (_, i) => i + 1)

t.test('readD100: "100 reads 00", 1 reads 01, others read as two digits', async (t) => {
  t.equal(readD100(100), '00', '100 reads 00')
  t.equal(readD100(1), '01', '1 reads 01')
  t.equal(readD100(9), '09', '9 reads 09')
  t.equal(readD100(10), '10', '10 reads 10')
  t.equal(readD100(73), '73', '73 reads 73')
  t.equal(readD100(99), '99', '99 reads 99')
})

t.test('isCritical: only 01 is a critical success', async (t) => {
  t.same(allFaces.filter(isCritical), [1], 'of faces 1..100, only 1 (01) is critical')
})

t.test('isFumble: only 00 (face 100) is a fumble', async (t) => {
  t.same(allFaces.filter(isFumble), [100], 'of faces 1..100, only 100 (00) is a fumble')
})

t.test('isMatched: exactly 11, 22 … 99 are matched ("00" is a fumble, not a match)', async (t) => {
  t.same(allFaces.filter(isMatched), [11, 22, 33, 44, 55, 66, 77, 88, 99], 'the matched faces are the nine doubles')
})

for (const face of [11, 22, 33, 44, 55, 66, 77, 88, 99]) {
  t.test(`isMatched: ${face} has both digits equal, so it is matched`, async (t) => {
    t.ok(isMatched(face), `${face} is matched`)
    t.notOk(isMatched(face + 1 > 100 ? 1 : face + 1), `${face + 1} is not`)
  })
}

t.test('isMatched: 01 and 00 are not matched', async (t) => {
  t.notOk(isMatched(1), '01 is a critical, not a match')
  t.notOk(isMatched(100), '00 is a fumble, not a match')
  t.notOk(isMatched(10), '10 is not a match')
})

t.test('flipFlop swaps the two digits: 73 → 37, 10 → 01, 01 → 10, 30 → 03, 00 stays 00', async (t) => {
  t.equal(flipFlop(73), 37, '73 → 37')
  t.equal(flipFlop(10), 1, '10 → 01')
  t.equal(flipFlop(1), 10, '01 → 10')
  t.equal(flipFlop(30), 3, '30 → 03')
  t.equal(flipFlop(100), 100, '00 stays 00')
  t.equal(flipFlop(55), 55, 'a matched roll flips onto itself')
})

t.test('flipFlop always gives a face between 1 and 100 (property)', async (t) => {
  fc.assert(fc.property(fc.integer({ min: 1, max: 100 }), (face) => flipFlop(face) >= 1 && flipFlop(face) <= 100))
  t.pass('flip-flopping never leaves the d100')
})

t.test('flipping twice gives the face back, for every face 1..100 (property)', async (t) => {
  fc.assert(fc.property(fc.integer({ min: 1, max: 100 }), (face) => flipFlop(flipFlop(face)) === face))
  for (const face of allFaces) t.equal(flipFlop(flipFlop(face)), face, `${readD100(face)} flipped twice`)
})

t.test('flipFlop reads as the digits of the face reversed', async (t) => {
  for (const face of allFaces) {
    const reading = readD100(face)
    t.equal(readD100(flipFlop(face)), reading[1]! + reading[0]!, `${reading} flips to its reversed digits`)
  }
})
