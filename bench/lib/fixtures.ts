import type autocannon from 'autocannon'
import { exampleCharacter } from '../../src/rules/shock-meters/examples.js'

/** One character the load picks from, with the key that may act for it. */
export interface Target {
  campaignId: string
  characterId: string
  key: string
}

export interface Party {
  campaignId: string
  key: string
  characterIds: string[]
  endpointId: string | null
}

async function post(url: string, body: unknown, key?: string): Promise<any> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify(body),
  })
  if (res.status !== 201) throw new Error(`POST ${url}: ${res.status} ${await res.text()}`)
  return res.json()
}

/**
 * Campaigns of the `shock-meters` rule set, each with `characters` copies of the sample
 * character and, when `webhookUrl` is given, one webhook endpoint — all made through the API.
 */
export async function createParties(
  baseUrl: string,
  options: { campaigns: number; characters: number; webhookUrl?: string },
): Promise<Party[]> {
  const parties: Party[] = []
  for (let c = 0; c < options.campaigns; c++) {
    const created = await post(`${baseUrl}/v1/campaigns`, { name: `Bench campaign ${c + 1}`, ruleset: 'shock-meters' })
    const campaignId: string = created.campaign.id
    const key: string = created.gmKey.key
    const characterIds: string[] = []
    for (let i = 0; i < options.characters; i++) {
      const result = await post(
        `${baseUrl}/v1/campaigns/${campaignId}/characters`,
        { name: `Investigator ${i + 1}`, sheet: exampleCharacter },
        key,
      )
      characterIds.push(result.character.id)
    }
    const endpoint = options.webhookUrl
      ? await post(`${baseUrl}/v1/campaigns/${campaignId}/webhooks`, { url: options.webhookUrl }, key)
      : null
    parties.push({ campaignId, key, characterIds, endpointId: endpoint?.id ?? null })
  }
  return parties
}

export const targetsOf = (parties: Party[]): Target[] =>
  parties.flatMap((party) =>
    party.characterIds.map((characterId) => ({ campaignId: party.campaignId, characterId, key: party.key })),
  )

const METERS = ['helplessness', 'isolation', 'self', 'unnatural', 'violence'] as const

/**
 * A rank-10 check on a random meter with the VTT's own die, a 01: every check is rolled
 * and passes (a failed one would leave the meter stressed and every later check on it
 * avoided, a cheaper path), and hardening never reaches rank 10, so the same request stays
 * a full check forever.
 */
export function rollBody(): string {
  const meter = METERS[Math.floor(Math.random() * METERS.length)]
  return JSON.stringify({ request: { meter, rank: 10 }, dice: { source: 'provided', faces: [1] } })
}

export const rollPath = (target: Target) =>
  `/v1/campaigns/${target.campaignId}/characters/${target.characterId}/stress-check`

/** Autocannon's requests for rolls (`rollBody`) on random characters of the targets. */
export const rollRequests = (targets: Target[]): autocannon.Request[] => [
  {
    method: 'POST',
    setupRequest: (request) => {
      const target = targets[Math.floor(Math.random() * targets.length)]!
      return {
        ...request,
        method: 'POST',
        path: rollPath(target),
        headers: { 'content-type': 'application/json', authorization: `Bearer ${target.key}` },
        body: rollBody(),
      }
    },
  },
]
