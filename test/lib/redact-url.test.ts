import t from 'tap'
import { redactUrl } from '../../src/lib/redact-url.js'

const TICKET = 'nrv_st_3q2-7wF0xYk9mB1cR5tL8vN4hJ6pD0sA2eG7uW9zQ1o'

t.test('a URL without credentials is logged as it is', async (t) => {
  for (const url of ['/v1/rulesets', '/v1/campaigns/x/events?after=3&limit=10', '/?keyword=x', '/?a=%20'])
    t.equal(redactUrl(url), url, `${url} is unchanged`)
})

t.test(
  'the value of every credential-bearing query parameter is redacted, under any spelling of its name',
  async (t) => {
    t.equal(redactUrl(`/s?ticket=${TICKET}`), '/s?ticket=[redacted]', 'a stream ticket')
    t.equal(redactUrl(`/s?after=2&ticket=abc&sheets=none`), '/s?after=2&ticket=[redacted]&sheets=none', 'among others')
    t.equal(redactUrl('/s?ticket=a&ticket=b'), '/s?ticket=[redacted]&ticket=[redacted]', 'each repetition')
    t.equal(redactUrl('/s?Ticket=x&tick%65t=y'), '/s?Ticket=[redacted]&tick%65t=[redacted]', 'in any case or encoding')
    for (const name of ['key', 'apiKey', 'api_key', 'token', 'access_token', 'secret', 'password'])
      t.equal(redactUrl(`/s?${name}=hunter2`), `/s?${name}=[redacted]`, `?${name}=`)
  },
)

t.test('a Nerve credential is redacted wherever it appears in the URL', async (t) => {
  t.equal(redactUrl(`/v1/campaigns/${TICKET}/x`), '/v1/campaigns/nrv_st_[redacted]/x', 'in the path')
  t.equal(redactUrl('/s?q=nrv_gm_abcDEF-_123'), '/s?q=nrv_gm_[redacted]', 'under another parameter name')
  t.equal(redactUrl('/s?whsec_c2VjcmV0'), '/s?whsec_[redacted]', 'a webhook secret as a bare parameter')
})
