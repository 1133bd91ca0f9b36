import { setImmediate as nextTurn } from 'node:timers/promises'
import { TextDecoder } from 'node:util'
import sjson from 'secure-json-parse'
import type { Static, TSchema } from 'typebox'
import { Compile, type Validator } from 'typebox/compile'
import { ArchiveRefusedError, type ArchiveProblem } from '../errors.js'
import { BUILT_IN, isCampaignEvent, type RecordedEvent } from './event-types.js'
import type { Campaign, Prisma } from '../generated/prisma/client.js'
import { newId } from '../lib/ids.js'
import type { RawLine } from '../lib/ndjson.js'
import { explainIssues } from '../lib/schema-issues.js'
import { MAX_JSON_DEPTH, nestedDeeperThan, unstorable } from '../lib/json-limits.js'
import type { ImportedEvent } from '../repositories/events.js'
import type { Repositories, Store } from '../repositories/index.js'
import { RuleError } from '../rules/errors.js'
import { findRuleSet } from '../rules/index.js'
import type { RuleSet } from '../rules/rule-set.js'
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  archiveDigest,
  ArchiveCampaignSchema,
  ArchiveCharacterSchema,
  ArchiveEndSchema,
  ArchiveEventSchema,
  ArchiveHeaderSchema,
  ArchiveWebhookSchema,
  type ArchiveHeader,
  type ImportOptions,
} from './archive.js'
import { SHARED_SCHEMAS } from '../schemas/index.js'
import { checkWebhookUrl } from '../webhooks/address-guard.js'
import { generateSecret } from '../webhooks/signing.js'
import { createKey, GM_KEY } from '../services/campaigns.js'
import { publicSideOf } from '../services/public-view.js'
import { rebuildSheet, replayEvent, revealedOn, sameJson, type RevealedEvent } from '../services/replay.js'
import { campaignView } from '../schemas/campaigns.js'
import type { EventPayload } from './event.js'
import { endpointView } from '../webhooks/schemas.js'

export interface ImportContext {
  store: Store
  /** Operator setting: webhook URLs on private networks are allowed (as when creating one). */
  allowPrivate: boolean
}

/**
 * Events are written a statement per about this many bytes of archive. Kept small on purpose:
 * Prisma keeps the arguments of its last 100 debug calls, a statement's parameters among them,
 * whatever DEBUG says, so each batch stays in memory for a while after it is written.
 */
const BATCH_BYTES = 64 * 1024

/**
 * How long an import's transaction may last. The archive is on disk by then (the route spools
 * it first), so this bounds the replay and the writes only: about 1,000 events a second.
 */
const IMPORT_TRANSACTION_MS = 15 * 60 * 1000

const decoder = new TextDecoder('utf-8', { fatal: true })

// The line schemas refer to the API's shared schemas (`Event#`, `Character#`…) by $id.
const schemaContext = Object.fromEntries(
  SHARED_SCHEMAS.map((schema) => [`${(schema as { $id?: string }).$id}#`, schema]),
) as Record<string, TSchema>
const compiled = new Map<TSchema, Validator>()
function validatorOf(schema: TSchema): Validator {
  let validator = compiled.get(schema)
  if (!validator) compiled.set(schema, (validator = Compile(schemaContext, schema)))
  return validator
}

type LineKind = 'archive' | 'campaign' | 'character' | 'event' | 'webhook' | 'end'
const LINE_KINDS: readonly string[] = ['archive', 'campaign', 'character', 'event', 'webhook', 'end']

type Sheet = Record<string, unknown>

/** A character of the archive, and where its history has led so far. */
interface CharacterState {
  /** The archive's line for it, whose state the history must reach. */
  line: number
  archived: Static<typeof ArchiveCharacterSchema>['character']
  id: string
  created: boolean
  name: string
  sheet: unknown
  /** The sheet players see, or null when they see `sheet`. */
  publicSheet: Sheet | null
  version: number
  isArchived: boolean
  /** Its latest event: the one a revert may take back, with the sheets it started from. */
  latest: { archivedId: string; seq: number; type: string; sheetBefore: unknown; shownBefore: unknown } | null
}

const withoutRoute = <T extends { route?: string }>(items: readonly T[]) =>
  items.map(({ route: _route, ...item }) => item)

/**
 * Reads an archive line by line inside the import's transaction: checks each line, replays each
 * event through the rules on the sheet the history before it led to, and writes the new campaign
 * as it goes. The first problem refuses the whole archive (`ArchiveRefusedError`), and the
 * transaction takes everything written back.
 */
type ArchivedEvent = Static<typeof ArchiveEventSchema>['event']
type ArchivedSettings = Static<typeof ArchiveEventSchema>['settings']

/** An archived event as it is appended, and what taking it changes of the import's state once it is. */
interface TakenEvent {
  characterId: string | null
  sheetBefore: Sheet | null
  sheetAfter: Sheet
  publicView: EventPayload['publicView']
  recorded(): void
}

class ArchiveImport {
  private readonly digest = archiveDigest()
  private header: ArchiveHeader | null = null
  private origin: { id: string } | null = null
  private campaign: Campaign | null = null
  private ruleSet: RuleSet | null = null
  private settings: unknown = {}
  private readonly characters = new Map<string, CharacterState>()
  private charactersWritten = false
  /** The new id of every event read so far, by its id in the archive. */
  private readonly eventIds = new Map<string, string>()
  private batch: ImportedEvent[] = []
  private batchBytes = 0
  private lastSeq = 0
  private readonly webhooks: { archivedId: string; endpoint: ReturnType<typeof endpointView>; secret: string }[] = []
  private readonly counted = { characters: 0, events: 0, webhooks: 0 }
  private endLine = 0
  private lastLine = 0

  constructor(
    private readonly tx: Repositories,
    private readonly context: ImportContext,
    private readonly options: ImportOptions,
  ) {}

  async take(line: RawLine) {
    this.lastLine = line.number
    const due = this.due()
    /** The event due here, when one is: a line at fault names it. */
    const dueSeq = due === 'event' ? this.lastSeq + 1 : null
    if (this.endLine > 0) this.refuse('ARCHIVE_OUT_OF_ORDER', line.number, null, 'nothing may follow the end line')
    const value = this.parse(line, dueSeq)
    const kind = (value as { kind?: unknown } | null)?.kind
    if (typeof kind !== 'string' || !LINE_KINDS.includes(kind)) {
      this.refuse('ARCHIVE_INVALID', line.number, dueSeq, `not an archive line: its "kind" is ${JSON.stringify(kind)}`)
    }
    if (kind !== due) {
      const seq = kind === 'event' ? this.seqIn(value) : dueSeq
      this.refuse('ARCHIVE_OUT_OF_ORDER', line.number, seq, `a ${kind} line where the ${due} line was due`)
    }
    if (!line.terminated && kind !== 'end') {
      this.refuse('ARCHIVE_TRUNCATED', line.number, dueSeq, 'the archive stops in the middle of this line')
    }
    if (kind !== 'end') this.digest.update(line.bytes).update('\n')
    switch (due) {
      case 'archive':
        return this.takeHeader(line.number, value)
      case 'campaign':
        return this.takeCampaign(line.number, value)
      case 'character':
        return this.takeCharacter(line.number, value)
      case 'event':
        return this.takeEvent(line, value)
      case 'webhook':
        return this.takeWebhook(line.number, value)
      case 'end':
        return this.takeEnd(line.number, value)
    }
  }

  /** Once the body has ended: the campaign imported, or the refusal of an archive cut short. */
  async finish() {
    if (this.endLine === 0) {
      const due = this.due()
      this.refuse(
        'ARCHIVE_TRUNCATED',
        this.lastLine + 1,
        due === 'event' ? this.lastSeq + 1 : null,
        this.lastLine === 0
          ? 'the archive is empty'
          : `the archive stops after line ${this.lastLine}, where the ${due} line was due: it is incomplete`,
      )
    }
    return this.result()
  }

  /** The kind of line that comes next, by the header's counts. */
  private due(): LineKind {
    if (!this.header) return 'archive'
    if (!this.campaign) return 'campaign'
    const { counts } = this.header
    if (this.counted.characters < counts.characters) return 'character'
    if (this.counted.events < counts.events) return 'event'
    if (this.counted.webhooks < counts.webhooks) return 'webhook'
    return 'end'
  }

  private refuse(code: ArchiveProblem, line: number, seq: number | null, message: string): never {
    throw new ArchiveRefusedError(code, line, seq, message)
  }

  private parse(line: RawLine, seq: number | null): unknown {
    const refuse = (code: ArchiveProblem, message: string) => this.refuse(code, line.number, seq, message)
    let text: string
    try {
      text = decoder.decode(line.bytes)
    } catch {
      return refuse('ARCHIVE_INVALID', 'not UTF-8 text')
    }
    if (text.length === 0) return refuse(line.terminated ? 'ARCHIVE_INVALID' : 'ARCHIVE_TRUNCATED', 'an empty line')
    if (nestedDeeperThan(text, MAX_JSON_DEPTH)) {
      return refuse('ARCHIVE_INVALID', `JSON nested deeper than ${MAX_JSON_DEPTH} levels`)
    }
    let value: unknown
    try {
      value = sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' })
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      return line.terminated
        ? refuse('ARCHIVE_INVALID', `not JSON: ${reason}`)
        : refuse('ARCHIVE_TRUNCATED', `the archive stops in the middle of this line (${reason})`)
    }
    if (text.includes('\\u') && unstorable(value) !== undefined) {
      return refuse('ARCHIVE_INVALID', 'text holding U+0000 (NUL) or an unpaired UTF-16 surrogate')
    }
    return value
  }

  private seqIn(value: unknown): number | null {
    const seq = (value as { event?: { seq?: unknown } }).event?.seq
    return typeof seq === 'number' && Number.isSafeInteger(seq) && seq > 0 ? seq : null
  }

  private checked<T extends TSchema>(schema: T, value: unknown, line: number, seq: number | null): Static<T> {
    const validator = validatorOf(schema)
    if (validator.Check(value)) return value as Static<T>
    const [issue] = explainIssues(validator.Errors(value), value)
    const where = issue?.path ? `${issue.path} ` : ''
    return this.refuse(
      'ARCHIVE_INVALID',
      line,
      seq,
      `not a valid ${(value as { kind: string }).kind} line: ${where}${issue?.detail ?? ''}`.trim(),
    )
  }

  private takeHeader(line: number, value: unknown) {
    const { format, version } = value as { format?: unknown; version?: unknown }
    if (format !== ARCHIVE_FORMAT) {
      this.refuse('ARCHIVE_INVALID', line, null, `not a Nerve campaign archive (format ${JSON.stringify(format)})`)
    }
    if (version !== ARCHIVE_VERSION) {
      this.refuse(
        'ARCHIVE_INVALID',
        line,
        null,
        `archive version ${JSON.stringify(version)}: this Nerve reads version ${ARCHIVE_VERSION}`,
      )
    }
    this.header = this.checked(ArchiveHeaderSchema, value, line, null)
  }

  private async takeCampaign(line: number, value: unknown) {
    const { campaign } = this.checked(ArchiveCampaignSchema, value, line, null)
    const ruleSet = findRuleSet(campaign.ruleset)
    if (!ruleSet)
      this.refuse('ARCHIVE_INVALID', line, null, `rule set "${campaign.ruleset}" is not one this Nerve knows`)
    const counted = this.header!.counts.events
    if (campaign.eventCount !== counted) {
      this.refuse(
        'ARCHIVE_INVALID',
        line,
        null,
        `the campaign counts ${campaign.eventCount} events, the archive ${counted}`,
      )
    }
    try {
      this.settings = ruleSet.normalizeSettings(campaign.settings)
    } catch (error) {
      if (!(error instanceof RuleError)) throw error
      this.refuse('ARCHIVE_INVALID', line, null, `the campaign's settings: ${error.message}`)
    }
    this.ruleSet = ruleSet
    this.origin = { id: campaign.id }
    this.campaign = await this.tx.campaigns.create({
      id: newId(),
      name: campaign.name,
      ruleset: campaign.ruleset,
      settings: this.settings as Prisma.InputJsonObject,
      lastSeq: counted,
    })
  }

  private takeCharacter(line: number, value: unknown) {
    const { character } = this.checked(ArchiveCharacterSchema, value, line, null)
    this.counted.characters++
    if (character.campaignId !== this.origin!.id || character.ruleset !== this.campaign!.ruleset) {
      this.refuse('ARCHIVE_INVALID', line, null, `character ${character.id} is not of the archive's campaign`)
    }
    if (this.characters.has(character.id)) {
      this.refuse('ARCHIVE_INVALID', line, null, `character ${character.id} is listed twice`)
    }
    this.characters.set(character.id, {
      line,
      archived: character,
      id: newId(),
      created: false,
      name: character.name,
      sheet: null,
      publicSheet: null,
      version: 0,
      isArchived: false,
      latest: null,
    })
  }

  /**
   * Characters are written as the archive lists them, before their history (which refers to
   * them); the end checks that their history leads exactly there.
   */
  private async writeCharacters() {
    if (this.charactersWritten) return
    this.charactersWritten = true
    if (this.characters.size === 0) return
    await this.tx.characters.createImported(
      [...this.characters.values()].map(({ id, archived }) => ({
        id,
        campaignId: this.campaign!.id,
        name: archived.name,
        sheet: archived.sheet,
        version: archived.version,
        createdAt: new Date(archived.createdAt),
        archivedAt: archived.archivedAt === null ? null : new Date(archived.archivedAt),
      })),
    )
  }

  private async takeEvent({ number: line, bytes }: RawLine, value: unknown) {
    await this.writeCharacters()
    const seq = this.lastSeq + 1
    const { event, settings } = this.checked(ArchiveEventSchema, value, line, this.seqIn(value) ?? seq)
    this.counted.events++
    const refuse: (code: ArchiveProblem, message: string) => never = (code, message) =>
      this.refuse(code, line, event.seq, message)
    if (event.seq !== seq) refuse('ARCHIVE_OUT_OF_ORDER', `this line holds seq ${event.seq} where seq ${seq} was due`)
    if (event.campaignId !== this.origin!.id || event.ruleset !== this.campaign!.ruleset) {
      refuse('ARCHIVE_INVALID', `event ${event.id} is not of the archive's campaign`)
    }
    if (this.eventIds.has(event.id)) refuse('ARCHIVE_INVALID', `event ${event.id} comes twice`)
    const causationId = event.causationId === null ? null : this.eventIds.get(event.causationId)
    if (causationId === undefined) {
      refuse(
        'ARCHIVE_DOES_NOT_REPLAY',
        `it follows from event ${event.causationId}, which is not earlier in the archive`,
      )
    }
    const taken = isCampaignEvent(event.type)
      ? this.campaignEvent(event, refuse)
      : this.characterEvent(event, settings, seq, refuse)
    const { sheetBefore, sheetAfter, publicView } = taken

    const newEventId = newId()
    const mapped = (id: unknown) => (typeof id === 'string' ? (this.eventIds.get(id) ?? id) : id)
    const linkField =
      event.type === BUILT_IN.revert.type ? 'reverted' : event.type === BUILT_IN.reveal.type ? 'revealed' : undefined
    const linked = linkField
      ? (event.outcome as Record<string, Record<string, unknown> | undefined> | null)?.[linkField]
      : undefined
    const payload: EventPayload = {
      characterName: event.characterName,
      // A revert or a reveal names the event it follows: by its id here.
      request:
        linkField && event.request
          ? { ...event.request, eventId: mapped((event.request as { eventId?: unknown }).eventId) }
          : event.request,
      dice: event.dice,
      unusedFaces: event.unusedFaces,
      outcome:
        linkField && linked ? { ...event.outcome, [linkField]: { ...linked, id: mapped(linked.id) } } : event.outcome,
      summary: event.summary,
      pending: withoutRoute(event.pending),
      followUps: withoutRoute(event.followUps),
      sheetBefore,
      sheetAfter,
      ...(settings === null ? {} : { settings }),
      ...(publicView ? { publicView } : {}),
    }
    this.batch.push({
      id: newEventId,
      campaignId: this.campaign!.id,
      seq,
      characterId: taken.characterId,
      type: event.type,
      ruleset: event.ruleset,
      visibility: event.visibility,
      actor: event.actor,
      payload: payload,
      causationId,
      occurredAt: event.occurredAt,
    })
    this.batchBytes += bytes.length
    if (this.batchBytes >= BATCH_BYTES) await this.flush()

    taken.recorded()
    this.eventIds.set(event.id, newEventId)
    this.lastSeq = seq
  }

  /**
   * An event of a character, replayed on the character's sheet as rebuilt up to it (its registry
   * entry's replay), and what players see of it worked out as the command that recorded it did.
   */
  private characterEvent(
    event: ArchivedEvent,
    settings: ArchivedSettings,
    seq: number,
    refuse: (code: ArchiveProblem, message: string) => never,
  ): TakenEvent {
    const character = event.characterId === null ? undefined : this.characters.get(event.characterId)
    if (!character) refuse('ARCHIVE_DOES_NOT_REPLAY', `its character ${event.characterId} is not among the archive's`)

    const creation = event.type === BUILT_IN.created.type
    if (creation && character.created) refuse('ARCHIVE_DOES_NOT_REPLAY', `${character.name} was already created`)
    if (!creation && !character.created) refuse('ARCHIVE_DOES_NOT_REPLAY', 'it comes before its character was created')
    if (character.isArchived && event.type !== BUILT_IN.revert.type) {
      refuse('ARCHIVE_DOES_NOT_REPLAY', `${character.name} was archived: only a revert may follow`)
    }
    const named = (event.request as { name?: unknown } | null)?.name
    const name =
      creation || (event.type === BUILT_IN.updated.type && typeof named === 'string') ? String(named) : character.name
    if (event.characterName !== name) {
      refuse(
        'ARCHIVE_DOES_NOT_REPLAY',
        `it names its character ${JSON.stringify(event.characterName)}, the history up to it ${JSON.stringify(name)}`,
      )
    }

    const ruleSet = this.ruleSet!
    const recorded: RecordedEvent = { ...event, settings: settings ?? undefined }
    const latest = character.latest
    const step = replayEvent(ruleSet, recorded, character.sheet, (id) =>
      id === latest?.archivedId ? latest.sheetBefore : undefined,
    )
    if ('divergence' in step) refuse('ARCHIVE_DOES_NOT_REPLAY', step.divergence)
    const resolvedWith = ruleSet.normalizeSettings(settings ?? this.settings) as unknown
    const waitsFor = ruleSet.pendingOf(step.sheet, resolvedWith).map((decision) => decision.action)
    if (
      !sameJson(
        waitsFor,
        event.pending.map((decision) => decision.action),
      )
    ) {
      refuse(
        'ARCHIVE_DOES_NOT_REPLAY',
        `it leaves open ${JSON.stringify(event.pending.map((d) => d.action))}, its sheet after waits for ${JSON.stringify(waitsFor)}`,
      )
    }

    const sheetBefore = event.sheetBefore
    const sheetAfter = event.sheetAfter as Sheet
    // What players see of it, worked out as the command that recorded it did (src/services/public-view.ts).
    const { publicSheet, publicView } = publicSideOf(
      { ruleset: ruleSet.id, settings: resolvedWith },
      {
        requested: event.visibility,
        follows: null,
        publicSheet: character.publicSheet,
        sheetBefore,
        sheetAfter,
        outcome: event.outcome,
        summary: event.summary,
        followUps: withoutRoute(event.followUps),
        type: event.type,
        characterName: name,
        restoresPlayersSheet: event.type === BUILT_IN.revert.type,
        replay: (shown) => {
          if (event.type !== BUILT_IN.reveal.type) {
            return rebuildSheet(ruleSet, { ...recorded, settings: resolvedWith }, shown, (id) =>
              id === latest?.archivedId ? latest.shownBefore : undefined,
            )
          }
          const revealed = (event.outcome as { revealed: RevealedEvent }).revealed
          const replayed = revealedOn(ruleSet, revealed, resolvedWith, shown)
          if (!replayed) throw new RuleError('REVEAL_DOES_NOT_REPLAY', 'the revealed event does not replay', 'conflict')
          return replayed
        },
      },
    )

    return {
      characterId: character.id,
      sheetBefore,
      sheetAfter,
      publicView,
      recorded: () => {
        if (event.type === BUILT_IN.archived.type) character.isArchived = true
        if (event.type === BUILT_IN.revert.type && latest?.type === BUILT_IN.archived.type) character.isArchived = false
        character.latest = {
          archivedId: event.id,
          seq,
          type: event.type,
          sheetBefore: character.sheet,
          shownBefore: publicView?.sheetBefore ?? sheetBefore,
        }
        character.created = true
        character.name = name
        character.sheet = step.sheet
        character.publicSheet = publicSheet
        character.version++
      },
    }
  }

  /**
   * An event about the campaign itself (`campaign.updated`): no character, no sheets, nothing
   * hidden. Its replay changes no sheet; the archive's campaign line holds where its changes led.
   */
  private campaignEvent(event: ArchivedEvent, refuse: (code: ArchiveProblem, message: string) => never): TakenEvent {
    if (
      event.characterId !== null ||
      event.characterName !== null ||
      event.causationId !== null ||
      event.sheetBefore !== null ||
      !sameJson(event.sheetAfter, {}) ||
      event.pending.length > 0
    ) {
      refuse(
        'ARCHIVE_DOES_NOT_REPLAY',
        `a ${event.type} event is about the campaign: it has no character and no sheets`,
      )
    }
    const { publicView } = publicSideOf(
      { ruleset: this.ruleSet!.id, settings: this.settings },
      {
        requested: event.visibility,
        follows: null,
        publicSheet: null,
        sheetBefore: null,
        sheetAfter: {},
        outcome: event.outcome,
        summary: event.summary,
        followUps: [],
        type: event.type,
        characterName: null,
      },
    )
    return { characterId: null, sheetBefore: null, sheetAfter: {}, publicView, recorded: () => undefined }
  }

  private async flush() {
    if (this.batch.length === 0) return
    await this.tx.events.appendImported(this.batch)
    this.batch = []
    this.batchBytes = 0
  }

  private async takeWebhook(line: number, value: unknown) {
    const { webhook } = this.checked(ArchiveWebhookSchema, value, line, null)
    this.counted.webhooks++
    if (webhook.campaignId !== this.origin!.id) {
      this.refuse('ARCHIVE_INVALID', line, null, `webhook ${webhook.id} is not of the archive's campaign`)
    }
    if (this.options.webhooks === 'none') return
    const refused = await checkWebhookUrl(webhook.url, this.context.allowPrivate)
    if (refused) {
      this.refuse(
        'ARCHIVE_WEBHOOK_REFUSED',
        line,
        null,
        `this Nerve refuses the webhook URL ${webhook.url}: it ${refused}. Import with ?webhooks=none and create the endpoint anew`,
      )
    }
    const secret = generateSecret()
    const endpoint = await this.tx.webhooks.createEndpoint({
      id: newId(),
      campaignId: this.campaign!.id,
      url: webhook.url,
      description: webhook.description,
      eventTypes: webhook.eventTypes,
      includeGmEvents: webhook.includeGmEvents,
      secret,
      enabled: false,
      disabledReason: 'imported: give the receiver the new signing secret, then enable it',
    })
    this.webhooks.push({ archivedId: webhook.id, endpoint: endpointView(endpoint), secret })
  }

  private async takeEnd(line: number, value: unknown) {
    const end = this.checked(ArchiveEndSchema, value, line, null)
    this.endLine = line
    if (end.events !== this.counted.events || end.lastSeq !== this.lastSeq) {
      this.refuse(
        'ARCHIVE_INVALID',
        line,
        null,
        `the end line counts ${end.events} events up to seq ${end.lastSeq}; the archive holds ${this.counted.events} up to seq ${this.lastSeq}`,
      )
    }
    if (end.sha256 !== this.digest.digest('hex')) {
      this.refuse(
        'ARCHIVE_ALTERED',
        line,
        null,
        'the SHA-256 of the lines before the end line is not the one it gives: the archive was altered or damaged',
      )
    }
    await this.writeCharacters()
    await this.flush()
    for (const character of this.characters.values()) {
      const { archived } = character
      const fault = !character.created
        ? 'has no character.created event'
        : character.name !== archived.name
          ? `is called ${JSON.stringify(archived.name)}, but its history leads to ${JSON.stringify(character.name)}`
          : character.version !== archived.version
            ? `is at version ${archived.version}, but its history has ${character.version} events`
            : character.isArchived !== (archived.archivedAt !== null)
              ? `is ${archived.archivedAt === null ? 'not ' : ''}archived, but its history says otherwise`
              : !sameJson(character.sheet, archived.sheet)
                ? 'has a sheet its history does not lead to'
                : null
      if (fault) {
        this.refuse(
          'ARCHIVE_DOES_NOT_REPLAY',
          character.line,
          character.latest?.seq ?? null,
          `character ${archived.id} ${fault}`,
        )
      }
      if (character.publicSheet !== null) await this.tx.characters.setPublicSheet(character.id, character.publicSheet)
    }
  }

  private async result() {
    const campaign = this.campaign!
    return {
      campaign: campaignView(campaign),
      gmKey: await createKey(this.tx, campaign.id, GM_KEY),
      importedFrom: { campaignId: this.origin!.id, exportedAt: this.header!.exportedAt },
      characters: [...this.characters.entries()].map(([importedFrom, character]) => ({
        id: character.id,
        importedFrom,
        name: character.name,
      })),
      events: { count: this.counted.events, lastSeq: this.lastSeq },
      webhooks: this.webhooks.map(({ archivedId, endpoint, secret }) => ({
        importedFrom: archivedId,
        endpoint: { ...endpoint, secret },
      })),
    }
  }
}

/**
 * Creates a campaign from an archive (docs/guides/backups-and-moving.md), in one transaction:
 * new ids, the same history replayed event by event, a new GM key. Any problem refuses the
 * archive and nothing is written; so does `signal` aborting (the client went away, and would
 * never learn the new GM key).
 */
export async function importCampaign(
  context: ImportContext,
  lines: AsyncIterable<RawLine>,
  options: ImportOptions,
  signal: AbortSignal,
) {
  return context.store.transaction(
    async (tx) => {
      const archive = new ArchiveImport(tx, context, options)
      for await (const line of lines) {
        // The embedded PGlite answers without a turn of the event loop: without one here, no
        // other request, nor the client's going away, would be seen until the import is done.
        await nextTurn()
        signal.throwIfAborted()
        await archive.take(line)
      }
      await nextTurn()
      signal.throwIfAborted()
      return archive.finish()
    },
    { timeoutMs: IMPORT_TRANSACTION_MS },
  )
}
