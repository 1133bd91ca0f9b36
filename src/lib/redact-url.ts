/**
 * Query parameters whose value is a credential. Nerve reads only `ticket` (a stream ticket acts
 * as the key that minted it until it is used), but a client may put a key in the URL by
 * mistake under any of the usual names: a log must not keep it either way.
 */
const CREDENTIAL_PARAMETERS = new Set([
  'ticket',
  'key',
  'apikey',
  'api_key',
  'token',
  'access_token',
  'secret',
  'password',
  'authorization',
])

/** Nerve's own credentials, recognisable by their prefixes wherever they appear in a URL. */
const CREDENTIAL_SHAPE = /(nrv_(?:gm|pl|st)_|whsec_)[A-Za-z0-9_-]+/g

const REDACTED = '[redacted]'

/** Most URLs hold nothing to redact: they are returned as they are, without being taken apart. */
const MAY_HOLD_CREDENTIALS = new RegExp(`nrv_|whsec_|[?&](?:[^&=]*%|${[...CREDENTIAL_PARAMETERS].join('|')})`, 'i')

/** The URL as it may be logged: every credential-bearing query value, and any Nerve credential, replaced. */
export function redactUrl(url: string): string {
  if (!MAY_HOLD_CREDENTIALS.test(url)) return url
  const query = url.indexOf('?')
  const path = url.slice(0, query === -1 ? url.length : query).replace(CREDENTIAL_SHAPE, `$1${REDACTED}`)
  if (query === -1) return path
  const parameters = url
    .slice(query + 1)
    .split('&')
    .map((parameter) => {
      const equals = parameter.indexOf('=')
      if (equals === -1) return parameter.replace(CREDENTIAL_SHAPE, `$1${REDACTED}`)
      const name = parameter.slice(0, equals)
      return CREDENTIAL_PARAMETERS.has(decodedName(name).toLowerCase())
        ? `${name}=${REDACTED}`
        : `${name}=${parameter.slice(equals + 1).replace(CREDENTIAL_SHAPE, `$1${REDACTED}`)}`
    })
  return `${path}?${parameters.join('&')}`
}

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '))
  } catch {
    return name
  }
}
