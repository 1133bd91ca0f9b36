import { createHmac, randomBytes } from 'node:crypto'

/** Standard Webhooks secrets: `whsec_` and base64 of the key bytes (the spec asks for 24 to 64). */
const SECRET_PREFIX = 'whsec_'
const SECRET_BYTES = 32

export function generateSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`
}

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64')
}

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, as the Standard Webhooks spec defines it. */
export function sign(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64')
  return `v1,${mac}`
}

/**
 * The `webhook-signature` header: one signature per live secret, space-separated, so during a
 * rotation's grace period a consumer holding either the old or the new secret can verify.
 */
export function signatureHeader(
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: string,
): string {
  return secrets.map((secret) => sign(secret, id, timestampSeconds, body)).join(' ')
}
