import t from 'tap'
import { parseRetrySchedule, retryDelay } from '../../src/webhooks/backoff.js'
import { parseRetryAfter } from '../../src/webhooks/http-client.js'

const DEFAULT = parseRetrySchedule('5,300,1800,7200,18000,36000,36000')

t.test('the default schedule follows Standard Webhooks: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h', async (t) => {
  t.same(DEFAULT, [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000], 'in milliseconds')
  t.same(parseRetrySchedule(' 0.05, 0.5 ,2'), [50, 500, 2_000], 'decimals and spaces are fine')
})

t.test('each wait is the scheduled one ±20 % jitter, and the schedule ends', async (t) => {
  t.equal(
    retryDelay(1, DEFAULT, null, () => 0),
    4_000,
    'lowest jitter: 80 %',
  )
  t.equal(
    retryDelay(1, DEFAULT, null, () => 1),
    6_000,
    'highest jitter: 120 %',
  )
  t.equal(
    retryDelay(2, DEFAULT, null, () => 0.5),
    300_000,
    'no jitter in the middle',
  )
  t.equal(
    retryDelay(7, DEFAULT, null, () => 0.5),
    36_000_000,
    'the seventh retry waits 10 h',
  )
  t.equal(
    retryDelay(8, DEFAULT, null, () => 0.5),
    null,
    'after the eighth attempt the delivery has failed',
  )
})

t.test('Retry-After is honoured when it asks for longer than the schedule, capped at a day', async (t) => {
  t.equal(
    retryDelay(1, DEFAULT, 60_000, () => 0.5),
    60_000,
    'a minute asked: a minute waited',
  )
  t.equal(
    retryDelay(2, DEFAULT, 1_000, () => 0.5),
    300_000,
    'asking for less does not hurry the schedule',
  )
  t.equal(
    retryDelay(1, DEFAULT, 7 * 86_400_000, () => 0.5),
    86_400_000,
    'a week asked: a day waited',
  )
  t.equal(parseRetryAfter('120'), 120_000, 'seconds')
  t.equal(
    parseRetryAfter('Wed, 21 Oct 2015 07:28:30 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT')),
    30_000,
    'an HTTP date',
  )
  t.equal(parseRetryAfter('soon'), null, 'nonsense is ignored')
  t.equal(parseRetryAfter(undefined), null, 'absent')
})
