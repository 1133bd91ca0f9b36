/**
 * `@nerve/client`: a typed client of Nerve's API, from its OpenAPI document (`openapi/openapi.json`).
 * Every path, parameter, body and answer is typed; a character narrows to its rule set's sheet
 * after `character.ruleset === 'shock-meters'`, and an event to its type's request and outcome
 * after `event.type === 'stress-check'`.
 *
 *   const nerve = createNerveClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: gmKey })
 *   const { data, error } = await nerve.GET('/v1/campaigns/{campaignId}/characters', {
 *     params: { path: { campaignId } },
 *   })
 *
 * A thin wrapper of openapi-fetch (https://openapi-ts.dev/openapi-fetch/): each call answers
 * `{ data }` or `{ error }` (an RFC 9457 problem), with the `response`.
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch'
import type { components, paths } from './schema.js'

export type { components, paths }

type Schemas = components['schemas']
/** A campaign: one type per rule set, told apart by `ruleset`. */
export type Campaign = Schemas['Campaign']
/** A character: one type per rule set, told apart by `ruleset`. */
export type Character = Schemas['Character']
/** An event of the history: one type per event type, told apart by `type`. */
export type Event = Schemas['Event']
/** An event in a history page (`sheetBefore`/`sheetAfter` absent with `sheets: 'none'`). */
export type ListedEvent = Schemas['ListedEvent']
/** What a command answers: the event it recorded and the character after it. */
export type CommandResult = Schemas['CommandResult']
export type StreamTicket = Schemas['StreamTicket']
/**
 * The `data` of an event stream's message, parsed: an event as the history lists it, or, last,
 * why the stream ended (`'ended' in message`).
 */
export type StreamMessage = ListedEvent | Schemas['StreamEnd']
/** An RFC 9457 problem: what every error answers. */
export type Problem = Schemas['Problem']
/** `shock-meters`, `trauma-table` or `reaction-rolls`. */
export type RuleSetId = Character['ruleset']
/** Every event type: the built-in ones and each rule set's actions. */
export type EventType = Event['type']
/** The character type of one rule set: `CharacterOf<'shock-meters'>`. */
export type CharacterOf<R extends RuleSetId> = Extract<Character, { ruleset: R }>
/** The event type of one type: `EventOf<'stress-check'>`. */
export type EventOf<T extends EventType> = Extract<Event, { type: T }>

export type NerveClient = Client<paths>

export interface NerveClientOptions extends Omit<ClientOptions, 'baseUrl' | 'headers'> {
  /** Where Nerve answers, e.g. `http://127.0.0.1:3000` (no trailing `/v1`). */
  baseUrl: string
  /** A campaign key (GM or player), sent as `Authorization: Bearer <key>`; leave it out for public routes. */
  apiKey?: string
  /** More headers for every request. */
  headers?: Record<string, string>
}

export function createNerveClient({ baseUrl, apiKey, headers, ...options }: NerveClientOptions): NerveClient {
  return createClient<paths>({
    ...options,
    baseUrl,
    headers: { ...headers, ...(apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` }) },
  })
}

/** The error `data()` throws: the problem Nerve answered, with its status. */
export class NerveError extends Error {
  override readonly name = 'NerveError'

  constructor(
    readonly status: number,
    readonly problem: Partial<Problem> | undefined,
  ) {
    super(`${status} ${problem?.code ?? ''} ${problem?.detail ?? problem?.title ?? ''}`.replace(/\s+/g, ' ').trim())
  }
}

/**
 * A call's `data`, or a `NerveError` with the problem Nerve answered:
 * `const { character } = data(await nerve.POST('/v1/campaigns/{campaignId}/characters', …))`.
 */
export function data<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data !== undefined) return result.data
  throw new NerveError(result.response.status, result.error as Partial<Problem> | undefined)
}
