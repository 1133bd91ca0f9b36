import { lookup as lookupCallback, type LookupAddress } from 'node:dns'
import { lookup } from 'node:dns/promises'
import { isIP, type LookupFunction } from 'node:net'
import ipaddr from 'ipaddr.js'

type Address = ipaddr.IPv4 | ipaddr.IPv6

const METADATA = 'cloud metadata'

/**
 * Where a server-side request must not go (SSRF): this host, its networks, and reserved space,
 * refused unless the operator allows private addresses; and the cloud metadata services, which
 * hand out credentials to whoever asks from inside the instance, refused even then.
 */
const REFUSED = (
  [
    ['169.254.169.254/32', METADATA], // AWS, Google Cloud, Azure and most others
    ['169.254.170.2/32', METADATA], // AWS ECS task credentials
    ['100.100.100.200/32', METADATA], // Alibaba Cloud
    ['192.0.0.192/32', METADATA], // Oracle Cloud
    ['fd00:ec2::254/128', METADATA], // AWS over IPv6
    ['127.0.0.0/8', 'loopback'],
    ['0.0.0.0/8', 'loopback'],
    ['::1/128', 'loopback'],
    ['::/128', 'loopback'],
    ['10.0.0.0/8', 'private'],
    ['172.16.0.0/12', 'private'],
    ['192.168.0.0/16', 'private'],
    ['100.64.0.0/10', 'private'],
    ['fc00::/7', 'private'],
    ['fec0::/10', 'private'],
    ['64:ff9b:1::/48', 'private'], // local-use NAT64 (RFC 8215), not globally reachable
    ['169.254.0.0/16', 'link-local'],
    ['fe80::/10', 'link-local'],
    ['224.0.0.0/4', 'multicast'],
    ['ff00::/8', 'multicast'],
    ['192.0.0.0/24', 'reserved'],
    ['192.0.2.0/24', 'reserved'],
    ['198.18.0.0/15', 'reserved'],
    ['198.51.100.0/24', 'reserved'],
    ['203.0.113.0/24', 'reserved'],
    ['240.0.0.0/4', 'reserved'],
    ['100::/64', 'reserved'],
    ['2001:db8::/32', 'reserved'],
  ] as const
).map(([range, kind]) => ({ range: ipaddr.parseCIDR(range), kind }))

/** RFC 6052 §2.2: the IPv4 address follows a prefix of this length, skipping bits 64–71. */
function afterPrefix(bytes: number[], prefixLength: number): number[] {
  const start = prefixLength / 8
  return bytes
    .filter((_, index) => index !== 8)
    .slice(start > 8 ? start - 1 : start)
    .slice(0, 4)
}

/** IPv6 ranges that carry IPv4 addresses, and where: such an address is refused for what it embeds too. */
const EMBEDDING = (
  [
    ['::ffff:0:0/96', 'IPv4-mapped', (b) => [b.slice(12)]],
    ['::ffff:0:0:0/96', 'IPv4-translated', (b) => [b.slice(12)]],
    ['::/96', 'IPv4-compatible', (b) => [b.slice(12)]],
    ['64:ff9b::/96', 'NAT64', (b) => [b.slice(12)]],
    // A local-use NAT64 prefix may have any RFC 6052 length, so every place the IPv4 address can sit counts.
    ['64:ff9b:1::/48', 'NAT64', (b) => [48, 56, 64, 96].map((length) => afterPrefix(b, length))],
    ['2002::/16', '6to4', (b) => [b.slice(2, 6)]],
    // Teredo: the server, and the client with every bit flipped.
    ['2001::/32', 'Teredo', (b) => [b.slice(4, 8), b.slice(12).map((byte) => byte ^ 0xff)]],
  ] as [range: string, form: string, ipv4: (bytes: number[]) => number[][]][]
).map(([range, form, ipv4]) => ({ range: ipaddr.IPv6.parseCIDR(range), form, ipv4 }))

interface Reading {
  address: Address
  /** How an IPv6 address embeds this IPv4 one; null for the address itself. */
  form: string | null
}

/** The address itself, then every IPv4 address it embeds. */
function readings(address: Address): Reading[] {
  const own = { address, form: null }
  if (address.kind() !== 'ipv6') return [own]
  const bytes = address.toByteArray()
  const embedded = EMBEDDING.filter(({ range }) => address.match(range)).flatMap(({ form, ipv4 }) =>
    ipv4(bytes).map((octets) => ({ address: new ipaddr.IPv4(octets), form })),
  )
  return [own, ...embedded]
}

function firstRefused(readings: Reading[], ranges: typeof REFUSED) {
  for (const reading of readings) {
    const refused = ranges.find(
      ({ range }) => reading.address.kind() === range[0].kind() && reading.address.match(range),
    )
    if (refused) return { ...reading, kind: refused.kind }
  }
  return null
}

const ALWAYS_REFUSED = REFUSED.filter(({ kind }) => kind === METADATA)

/** Why a webhook may not be sent to this IP address, or null when it may. */
export function refusedAddress(text: string, allowPrivate: boolean): string | null {
  const candidates = readings(ipaddr.parse(text))
  const refused = firstRefused(candidates, ALWAYS_REFUSED) ?? (allowPrivate ? null : firstRefused(candidates, REFUSED))
  if (!refused) return null
  const what =
    refused.form === null
      ? `${text} is a ${refused.kind} address`
      : `${text} is the ${refused.form} form of ${refused.address.toString()}, a ${refused.kind} address`
  return refused.kind === METADATA
    ? what
    : `${what}; set WEBHOOK_ALLOW_PRIVATE=true to allow private and loopback webhook URLs (cloud metadata addresses stay refused)`
}

class RefusedAddressError extends Error {
  override readonly name = 'RefusedAddressError'
  readonly code = 'ERR_WEBHOOK_ADDRESS_REFUSED'
}

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1')
}

/**
 * Checks a webhook URL before it is stored: http(s) only, no credentials, and every address its
 * host resolves to must be public (unless private ones are allowed). Returns why it is refused, or null.
 */
export async function checkWebhookUrl(text: string, allowPrivate: boolean): Promise<string | null> {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return 'is not a valid absolute URL'
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http:// or https:// URL'
  if (url.username !== '' || url.password !== '') {
    return "must not contain credentials (user:pass@): they would be stored and shown in plain text; verify each delivery's Standard Webhooks signature with the endpoint's signing secret instead"
  }
  const host = hostOf(url)
  if (isIP(host)) {
    const refused = refusedAddress(host, allowPrivate)
    return refused ? `host is refused: ${refused}` : null
  }
  let addresses: LookupAddress[]
  try {
    addresses = await lookup(host, { all: true, verbatim: true })
  } catch {
    return `has a host (${host}) that does not resolve`
  }
  for (const { address } of addresses) {
    const refused = refusedAddress(address, allowPrivate)
    if (refused) return `host ${host} resolves to a refused address: ${refused}`
  }
  return null
}

/**
 * A DNS lookup for outgoing webhook requests that refuses forbidden addresses at connect time,
 * so a host that re-resolves to a private address after it was checked (DNS rebinding) is
 * still refused.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    lookupCallback(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0)
      const list = addresses
      for (const { address } of list) {
        const refused = refusedAddress(address, allowPrivate)
        if (refused) {
          return callback(new RefusedAddressError(`${hostname} resolves to a refused address: ${refused}`), '', 0)
        }
      }
      if (options.all) return callback(null, list)
      const [first] = list
      if (!first) return callback(new RefusedAddressError(`${hostname} has no address`), '', 0)
      callback(null, first.address, first.family)
    })
  }
}

/** Refuses an IP-literal URL host, which never goes through a DNS lookup. */
export function refusedLiteralHost(url: URL, allowPrivate: boolean): string | null {
  const host = hostOf(url)
  return isIP(host) ? refusedAddress(host, allowPrivate) : null
}
