import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { OutgoingHttpHeaders } from 'node:http'
import Type from 'typebox'
import { DiceRequestSchema } from '../../rules/dice.js'
import { CampaignParams, IdempotencyHeaders, SeqCursor, Uuid, VisibilityChoice } from '../../schemas/common.js'
import {
  CommandResultSchema,
  EventListQuery,
  EventListSchema,
  EventSchema,
  SheetsOption,
  StreamTextSchema,
  StreamTicketSchema,
  type StreamEnd,
} from '../../history/event.js'
import { COMMAND_LINKS, EVENT_LINKS } from '../../schemas/links.js'
import { created, problems, ref } from '../../schemas/ref.js'
import { settleCommand } from '../../services/commands.js'
import { revealCommand } from '../../services/reveal.js'
import { resumePoint, streamEvents } from '../../history/stream.js'
import { getEvent, listEventsJson } from '../../history/listings.js'
import { mintStreamTicket } from '../../services/stream-tickets.js'
import type { Event } from '../../history/event.js'
import { commandRoute } from '../command-reply.js'
import { routeAccess } from '../../plugins/app/route-access.js'

/** The data of a stream's last message, by its event name, which it also carries for `onmessage`. */
const endings: Record<StreamEnd['ended'], StreamEnd> = {
  revoked: { ended: 'revoked', reason: 'key revoked' },
  closed: { ended: 'closed', reason: 'campaign closed' },
}
const EventParams = Type.Object({ campaignId: Uuid('The campaign.'), eventId: Uuid('The event.') })

const DecisionBodySchema = Type.Object(
  {
    action: Type.Optional(
      Type.String({
        description:
          'Which of the event’s open decisions to settle, by its action (`pending[].action`); the first one when left out.',
        examples: ['record-disorder'],
      }),
    ),
    request: Type.Object(
      {},
      {
        additionalProperties: true,
        description: 'The request of the decision action settled (see that action’s schema).',
      },
    ),
    dice: Type.Optional(ref(DiceRequestSchema)),
    visibility: Type.Optional(VisibilityChoice),
  },
  { $id: 'DecisionBody', additionalProperties: false, examples: [{ request: { response: 'panic' } }] },
)

const eventRoutes: FastifyPluginAsyncTypebox = async (app) => {
  routeAccess(app, 'member')
  const context = { store: app.store, feed: app.eventFeed, metrics: app.metrics }
  const runAndReply = commandRoute(context)
  const openStreams = new Set<AbortController>()
  // Streams never end on their own: close them so shutdown is not held up by listeners.
  app.addHook('preClose', async () => {
    for (const stream of openStreams) stream.abort()
  })
  app.addSchema(DecisionBodySchema)

  app.get(
    '/v1/campaigns/:campaignId/events',
    {
      schema: {
        tags: ['History'],
        operationId: 'listEvents',
        summary: 'Read the campaign’s history',
        description:
          'Every event in sequence order, a page at a time (`after` = the last `seq` you have). Filter by character and type. Player keys see public events only, with the sheets and decisions players see: what GM-only events did is left out (docs/guides/hidden-rolls.md); the gaps they leave in `seq` stay.\n\n`sheets=none` leaves `sheetBefore` and `sheetAfter` out of every event: a page is then about a third of the bytes (100 events of a typical campaign: 96 KB instead of 330 KB) and quicker to read. Use it to list or sync the history, and get one event or the character when you need a sheet. Example: `limit=100&sheets=none` (the default, `sheets=full`, keeps the sheets).',
        params: CampaignParams,
        querystring: EventListQuery,
        response: {
          200: ref(EventListSchema, { description: 'A page of events, oldest first.' }),
          ...problems(400, 401, 404, 422),
        },
      },
    },
    async (request, reply) =>
      reply
        .type('application/json; charset=utf-8')
        .send(await listEventsJson(app.store, request.principal, request.query)),
  )

  app.post(
    '/v1/campaigns/:campaignId/events/stream-tickets',
    {
      schema: {
        tags: ['History'],
        operationId: 'mintStreamTicket',
        summary: 'Mint a ticket to open the event stream from a browser',
        description:
          'A browser’s `EventSource` cannot send `Authorization`, and a key in a URL would end up in browser history and server logs. Mint a ticket with the key instead, then open `new EventSource(url)` with the `url` returned: the stream then runs as this key (a player key’s ticket sees what the player sees), and ends like the key’s own stream when the key is revoked or the campaign closed. A ticket opens **one** stream, **once**, within **60 s**: a second use, a late use, or a use after the key was revoked is 401. To reconnect, mint a new ticket and add `&after=<the last id received>`. No body.',
        params: CampaignParams,
        response: {
          201: created(
            StreamTicketSchema,
            'The ticket and the stream URL that carries it.',
            'the event stream this ticket opens (the same as `url`)',
          ),
          ...problems(401, 404),
        },
      },
    },
    async (request, reply) => {
      const { ticket, expiresAt } = await mintStreamTicket(app.store, request.principal)
      const path = `/v1/campaigns/${request.params.campaignId}/events/stream?ticket=${encodeURIComponent(ticket)}`
      const url = `${request.protocol}://${request.host}${path}`
      return reply.code(201).header('location', url).send({ ticket, expiresAt, url })
    },
  )

  app.get(
    '/v1/campaigns/:campaignId/events/stream',
    {
      config: { streamTicket: true },
      schema: {
        tags: ['History'],
        operationId: 'streamEvents',
        summary: 'Follow new events live (Server-Sent Events)',
        description:
          'A `text/event-stream` of the campaign’s events as they are recorded: each message has `id` = the event’s `seq`, `event` = its type and `data` = the event as JSON. **Named messages do not reach `EventSource.onmessage`**: listen with `addEventListener(type, …)` per type, or open the stream with `named=false`, whose messages have no `event:` line, so `onmessage` gets every one (the type is in `data.type`). Reconnect with `Last-Event-ID` (or `?after=`) to resume without a gap; without either, the stream starts with the next new event. An `after` beyond the campaign’s last `seq` names no event of this campaign: 422, rather than a stream that stays silent. Player keys see public events only, as players see them. When the key is revoked or the campaign closed, the stream sends within a second a last message, `event: revoked` or `event: closed` (unnamed with `named=false`) with data such as `{"ended":"revoked","reason":"key revoked"}` and no `id`, then ends; nothing recorded after the revocation is sent. Do not reconnect: the key now gets 401. `sheets=none` leaves `sheetBefore` and `sheetAfter` out of each message, as in the history. Swagger UI cannot display a stream: use `curl -N` or `EventSource`.\n\nIn a browser, `EventSource` cannot send the key: mint a stream ticket (`POST …/events/stream-tickets`) and open the `url` it returns, which carries `?ticket=`. A ticket is single-use and lives 60 s; a used, expired or revoked one is 401. The key itself is never accepted in the URL.',
        params: CampaignParams,
        querystring: Type.Object({
          after: Type.Optional(SeqCursor('Resume after this `seq`.')),
          sheets: Type.Optional(SheetsOption),
          named: Type.Optional(
            Type.Boolean({
              default: true,
              description:
                '`false`: messages without an `event:` line, so `EventSource.onmessage` receives them all; the type is in `data.type`, and the last message’s `data.ended` says why the stream ended.',
            }),
          ),
          ticket: Type.Optional(
            Type.String({
              minLength: 1,
              description:
                'A stream ticket from `POST …/events/stream-tickets`, for browsers, whose `EventSource` cannot send `Authorization`. Used up by this request.',
              examples: ['nrv_st_3q2-7wF0xYk9mB1cR5tL8vN4hJ6pD0sA2eG7uW9zQ1o'],
            }),
          ),
        }),
        headers: Type.Object({
          'last-event-id': Type.Optional(
            Type.String({ pattern: '^[0-9]{1,15}$', description: 'Resume after this `seq`.' }),
          ),
        }),
        response: {
          200: {
            description: 'The stream.',
            content: { 'text/event-stream': { schema: StreamTextSchema } },
          },
          ...problems(400, 401, 404, 422),
        },
      },
    },
    async (request, reply) => {
      const lastEventId = request.headers['last-event-id']
      const after = await resumePoint(
        app.store,
        request.principal,
        lastEventId === undefined
          ? request.query.after === undefined
            ? undefined
            : { seq: request.query.after, pointer: '/querystring/after', name: 'after' }
          : { seq: Number(lastEventId), pointer: '/headers/last-event-id', name: 'Last-Event-ID' },
      )
      const name = (type: string) => (request.query.named === false ? '' : `event: ${type}\n`)
      const render =
        request.query.sheets === 'none'
          ? (event: Event) => JSON.stringify({ ...event, sheetBefore: undefined, sheetAfter: undefined })
          : (event: Event) => JSON.stringify(event)
      const controller = new AbortController()
      openStreams.add(controller)
      request.raw.on('close', () => controller.abort())

      reply.hijack()
      reply.raw.writeHead(200, {
        // Headers the onRequest hooks set (CORS, rate limit) would be lost with the hijacked reply.
        ...(reply.getHeaders() as OutgoingHttpHeaders),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        'x-request-id': String(request.id),
      })
      reply.raw.write(': connected\n\n')
      try {
        await streamEvents(
          app.store,
          app.eventFeed,
          request.principal,
          after,
          {
            event: (event) => reply.raw.write(`id: ${event.seq}\n${name(event.type)}data: ${render(event)}\n\n`),
            heartbeat: () => reply.raw.write(': keep-alive\n\n'),
            ended: (standing) => reply.raw.write(`${name(standing)}data: ${JSON.stringify(endings[standing])}\n\n`),
          },
          controller.signal,
        )
      } catch (err) {
        request.log.warn({ err }, 'event stream ended by an error')
      } finally {
        openStreams.delete(controller)
        reply.raw.end()
      }
    },
  )

  app.get(
    '/v1/campaigns/:campaignId/events/:eventId',
    {
      links: { 200: EVENT_LINKS },
      schema: {
        tags: ['History'],
        operationId: 'getEvent',
        summary: 'Get one event',
        description:
          'The event with its request, every die, the outcome and the sheet before and after. GM-only events are not found for player keys, and public ones show them the sheets and decision players see.',
        params: EventParams,
        response: { 200: ref(EventSchema, { description: 'The event.' }), ...problems(400, 401, 404) },
      },
    },
    async (request) => getEvent(app.store, request.principal, request.params.eventId),
  )

  app.post(
    '/v1/campaigns/:campaignId/events/:eventId/decision',
    {
      links: { 201: COMMAND_LINKS },
      schema: {
        tags: ['History'],
        operationId: 'settleDecision',
        summary: 'Settle the decision an event left pending',
        description:
          'When a roll leaves decisions open (`pending`: a stress response, a disorder to name, a trauma to accept or answer, a retrieval…), each is made here: name it with `action` (the first open one by default) and send that action’s request. The same is done by `POST`ing the request to the decision’s `route`. The settlement is its own event with `causationId` = this event. It settles this event’s decision only: settling twice is 409, and so is settling an event whose decision is no longer the character’s open one (reverted, or cleared by the GM before a newer roll left a new one open), which names the event to settle instead. A decision that a GM-only roll opened is the GM’s to settle: a player key gets 404 for the GM-only event and 403 for a public event still showing that decision. Who sees the settlement: leave `visibility` out and it is GM-only when the roll it settles is GM-only and not revealed, or when its result reads what GM-only events did; `visibilityReason` says why.',
        params: EventParams,
        headers: IdempotencyHeaders,
        body: ref(DecisionBodySchema),
        response: {
          201: created(
            CommandResultSchema,
            'The settlement event and the character after it.',
            'the settlement event',
            {
              replayable: true,
            },
          ),
          ...problems(400, 401, 403, 404, 409, 422),
        },
      },
    },
    async (request, reply) =>
      runAndReply(request, reply, {
        command: settleCommand(request.principal, request.params.eventId, request.body),
        fingerprint: { decision: request.params.eventId, body: request.body },
      }),
  )

  app.post(
    '/v1/campaigns/:campaignId/events/:eventId/reveal',
    {
      links: { 201: COMMAND_LINKS },
      config: { access: 'gm' },
      schema: {
        tags: ['History'],
        operationId: 'revealEvent',
        summary: 'Reveal a GM-only event to players',
        description:
          'GM only. Lifts the screen off a GM-only event after the fact: appends a public `reveal` event (the history stays append-only) whose `outcome.revealed` is the revealed event as recorded — its request, dice, outcome and summary — and after which players see what it did to the sheet. The stream and webhooks without GM events deliver the reveal; the revealed event itself stays out of the players’ history (they read it in the reveal). 409 when the event is public, already revealed, reverted, or has nothing of its own to show (a revert, a creation); and when its result read what other GM-only events did (a settlement of a hidden roll, say): the answer names those to reveal first. A reveal is undone like any event, by reverting it. No body.',
        params: EventParams,
        headers: IdempotencyHeaders,
        response: {
          201: created(CommandResultSchema, 'The reveal event and the character after it.', 'the reveal event', {
            replayable: true,
          }),
          ...problems(400, 401, 403, 404, 409, 422),
        },
      },
    },
    async (request, reply) =>
      runAndReply(request, reply, {
        command: revealCommand(request.principal, request.params.eventId),
        fingerprint: { reveal: request.params.eventId },
      }),
  )
}

export default eventRoutes
