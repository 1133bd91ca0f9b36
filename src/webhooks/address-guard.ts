import { lookup as lookupCallback, type LookupAddress } from 'node:dns'
import { lookup } from 'node:dns/promises'
import { BlockList, isIP, type LookupFunction } from 'node:net'

type Family = 'ipv4' | 'ipv6'

function blockList(entries: [address: string, prefix: number, family: Family][]): BlockList {
  const list = new BlockList()
  for (const [address, prefix, family] of entries) list.addSubnet(address, prefix, family)
  return list
}

/**
 * Cloud metadata services hand out credentials to whoever asks from inside the instance: they
 * are refused even when an operator allows private addresses.
 */
const METADATA = blockList([
  ['169.254.169.254', 32, 'ipv4'],
  ['169.254.170.2', 32, 'ipv4'],
  ['100.100.100.200', 32, 'ipv4'],
  ['fd00:ec2::254', 128, 'ipv6'],
])

/** Where a server-side request must not go by default (SSRF): this host, its networks, and reserved space. */
const REFUSED: [kind: string, list: BlockList][] = [
  [
    'loopback',
    blockList([
      ['127.0.0.0', 8, 'ipv4'],
      ['0.0.0.0', 8, 'ipv4'],
      ['::1', 128, 'ipv6'],
      ['::', 128, 'ipv6'],
    ]),
  ],
  [
    'private',
    blockList([
      ['10.0.0.0', 8, 'ipv4'],
      ['172.16.0.0', 12, 'ipv4'],
      ['192.168.0.0', 16, 'ipv4'],
      ['100.64.0.0', 10, 'ipv4'],
      ['fc00::', 7, 'ipv6'],
    ]),
  ],
  [
    'link-local',
    blockList([
      ['169.254.0.0', 16, 'ipv4'],
      ['fe80::', 10, 'ipv6'],
    ]),
  ],
  [
    'reserved',
    blockList([
      ['192.0.0.0', 24, 'ipv4'],
      ['192.0.2.0', 24, 'ipv4'],
      ['198.18.0.0', 15, 'ipv4'],
      ['198.51.100.0', 24, 'ipv4'],
      ['203.0.113.0', 24, 'ipv4'],
      ['224.0.0.0', 4, 'ipv4'],
      ['240.0.0.0', 4, 'ipv4'],
      ['2001:db8::', 32, 'ipv6'],
      ['ff00::', 8, 'ipv6'],
    ]),
  ],
]

/** Why a webhook may not be sent to this IP address, or null when it may. */
export function refusedAddress(address: string, allowPrivate: boolean): string | null {
  const family: Family = isIP(address) === 6 ? 'ipv6' : 'ipv4'
  if (METADATA.check(address, family)) return `${address} is a cloud metadata address`
  if (allowPrivate) return null
  for (const [kind, list] of REFUSED) {
    // BlockList also matches IPv4-mapped IPv6 addresses (::ffff:10.0.0.1) against the IPv4 ranges.
    if (list.check(address, family)) return `${address} is a ${kind} address`
  }
  return null
}

export class RefusedAddressError extends Error {
  override readonly name = 'RefusedAddressError'
  readonly code = 'ERR_WEBHOOK_ADDRESS_REFUSED'
}

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1')
}

/**
 * Checks a webhook URL before it is stored: http(s) only, and every address its host resolves
 * to must be public (unless private ones are allowed). Returns why it is refused, or null.
 */
export async function checkWebhookUrl(text: string, allowPrivate: boolean): Promise<string | null> {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return 'is not a valid absolute URL'
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http:// or https:// URL'
  const host = hostOf(url)
  if (isIP(host)) {
    const refused = refusedAddress(host, allowPrivate)
    return refused ? `must not point at ${refused}` : null
  }
  let addresses: LookupAddress[]
  try {
    addresses = await lookup(host, { all: true, verbatim: true })
  } catch {
    return `has a host (${host}) that does not resolve`
  }
  for (const { address } of addresses) {
    const refused = refusedAddress(address, allowPrivate)
    if (refused) return `has a host (${host}) that resolves to ${refused}`
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
      const list = addresses as LookupAddress[]
      for (const { address } of list) {
        const refused = refusedAddress(address, allowPrivate)
        if (refused) return callback(new RefusedAddressError(`${hostname} resolves to ${refused}`), '', 0)
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
