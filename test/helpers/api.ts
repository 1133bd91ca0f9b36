import type { Static } from 'typebox'
import type { App } from '../../src/app.js'
import type { CampaignSchema, MintedKeySchema } from '../../src/schemas/campaigns.js'
import type { CharacterSchema } from '../../src/schemas/characters.js'
import type { EventSchema } from '../../src/history/event.js'

type CampaignView = Static<typeof CampaignSchema>
export type MintedKeyView = Static<typeof MintedKeySchema>
/** A sheet's shape depends on the rule set; tests read into it freely. */
export type Sheet = Record<string, any>
export type CharacterView = Omit<Static<typeof CharacterSchema>, 'sheet'> & { sheet: Sheet }
export type EventView = Omit<Static<typeof EventSchema>, 'sheetBefore' | 'sheetAfter'> & {
  sheetBefore: Sheet | null
  sheetAfter: Sheet
}

/** Request headers carrying a bearer key. */
export type Auth = { authorization: string }

export interface TestCampaign {
  campaign: CampaignView
  gmKey: MintedKeyView
  /** Headers that authenticate as the campaign's GM. */
  auth: Auth
}

export const PROBLEM = 'application/problem+json'

export const bearer = (key: string): Auth => ({ authorization: `Bearer ${key}` })

/** Helpers set up state a test is not about; an unexpected status stops the test with the response body. */
function expectStatus(res: { statusCode: number; body: string }, status: number, what: string) {
  if (res.statusCode !== status) {
    throw new Error(`${what}: expected ${status}, got ${res.statusCode}: ${res.body.slice(0, 500)}`)
  }
}

/** `POST /v1/campaigns`; pass `headers` when the app has an ADMIN_TOKEN. */
export async function createCampaign(
  app: App,
  ruleset = 'shock-meters',
  body: { name?: string; settings?: Record<string, unknown> } = {},
  headers: Record<string, string> = {},
): Promise<TestCampaign> {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/campaigns',
    headers,
    payload: { name: `A ${ruleset} campaign`, ruleset, ...body },
  })
  expectStatus(res, 201, 'creating a campaign')
  const created = res.json<{ campaign: CampaignView; gmKey: MintedKeyView }>()
  return { ...created, auth: bearer(created.gmKey.key) }
}

/** `POST …/characters` as the GM; returns the character and its `character.created` event. */
export async function createCharacter(
  app: App,
  campaign: { id: string },
  auth: Auth,
  body: { name: string; sheet?: Record<string, unknown> } = { name: 'Vera Okafor' },
): Promise<{ character: CharacterView; event: EventView }> {
  const res = await app.inject({
    method: 'POST',
    url: `/v1/campaigns/${campaign.id}/characters`,
    headers: auth,
    payload: body,
  })
  expectStatus(res, 201, 'creating a character')
  return res.json()
}

/** `POST …/keys` as the GM: a player key bound to the given characters, with headers that use it. */
export async function mintPlayerKey(
  app: App,
  campaign: { id: string },
  auth: Auth,
  characterIds: string[],
  label = 'A player',
): Promise<{ key: MintedKeyView; auth: Auth }> {
  const res = await app.inject({
    method: 'POST',
    url: `/v1/campaigns/${campaign.id}/keys`,
    headers: auth,
    payload: { label, characterIds },
  })
  expectStatus(res, 201, 'minting a player key')
  const key = res.json<MintedKeyView>()
  return { key, auth: bearer(key.key) }
}
