import { Readable } from 'node:stream'
import { NotFoundError } from '../errors.js'
import type { Principal } from '../lib/principal.js'
import type { Store } from '../repositories/index.js'
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, archiveDigest, type ArchiveHeader } from './archive.js'
import { campaignView } from '../schemas/campaigns.js'
import { characterView } from '../schemas/characters.js'
import { endpointView } from '../webhooks/schemas.js'

/** Events per page read from the database; a page is written out before the next is read. */
const PAGE_EVENTS = 200

/**
 * Lines are handed on in pieces of about this many characters: far below V8's large-object
 * size (128 KiB), so each piece dies young in the new space instead of waiting in the old
 * one for a full collection, which is what keeps the process's memory flat.
 */
const PIECE_CHARS = 32 * 1024

/**
 * What the archive holds besides the history, read in one transaction that keeps events from
 * being appended meanwhile: the characters are those the history up to `lastSeq` leads to.
 */
async function snapshotOf(store: Store, campaignId: string) {
  return store.transaction(async (tx) => {
    await tx.campaigns.holdSequence(campaignId)
    const campaign = await tx.campaigns.findActive(campaignId)
    if (!campaign) throw new NotFoundError(`campaign ${campaignId} not found`)
    const characters = await tx.characters.all(campaignId)
    const webhooks = await tx.webhooks.listEndpoints(campaignId)
    return { campaign, characters, webhooks, exportedAt: new Date() }
  })
}

type Snapshot = Awaited<ReturnType<typeof snapshotOf>>

/**
 * The archive's lines, page by page: the history is read in pages of `seq` as the reader takes
 * them, never held whole, and events appended after the snapshot are not part of it (they
 * have a greater `seq` than its last). Each event is the GM's history listing, copied as it was
 * stored with the event.
 */
async function* archiveLines(store: Store, { campaign, characters, webhooks, exportedAt }: Snapshot) {
  const lastSeq = Number(campaign.lastSeq)
  const digest = archiveDigest()
  const lines = (values: unknown[]) => values.map((value) => `${JSON.stringify(value)}\n`).join('')
  const hashed = (text: string) => {
    digest.update(text)
    return text
  }

  const header: ArchiveHeader = {
    kind: 'archive',
    format: ARCHIVE_FORMAT,
    version: ARCHIVE_VERSION,
    exportedAt: exportedAt.toISOString(),
    counts: { characters: characters.length, events: lastSeq, webhooks: webhooks.length },
  }
  yield hashed(
    lines([
      header,
      { kind: 'campaign', campaign: campaignView(campaign) },
      ...characters.map((character) => ({ kind: 'character', character: characterView(character, campaign, 'gm') })),
    ]),
  )
  for (let after = 0; after < lastSeq;) {
    const rows = await store.eventPages.listWithSettings(campaign.id, {
      after,
      through: lastSeq,
      limit: PAGE_EVENTS,
      publicOnly: false,
    })
    const last = rows.at(-1)
    // Sequence numbers are handed out without gaps and events are never deleted.
    if (!last) throw new Error(`campaign ${campaign.id} holds no event after seq ${after} of ${lastSeq}`)
    let piece = ''
    for (const row of rows) {
      piece += `{"kind":"event","event":${row.json},"settings":${row.settings ?? 'null'}}\n`
      if (piece.length >= PIECE_CHARS) {
        yield hashed(piece)
        piece = ''
      }
    }
    if (piece) yield hashed(piece)
    after = last.seq
  }
  const tail = hashed(lines(webhooks.map((endpoint) => ({ kind: 'webhook', webhook: endpointView(endpoint) }))))
  yield tail + lines([{ kind: 'end', events: lastSeq, lastSeq, sha256: digest.digest('hex') }])
}

/** A file name for the archive: the campaign's name in plain letters, and the day. */
function archiveFileName(name: string, at: Date) {
  const slug = name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase()
    .slice(0, 60)
  return `${slug || 'campaign'}-${at.toISOString().slice(0, 10)}.nerve.ndjson`
}

/**
 * The campaign as an archive stream (docs/guides/backups-and-moving.md), honouring the reader's
 * pace: the next page is read only once the last one was taken.
 */
export async function exportCampaign(store: Store, principal: Principal) {
  const snapshot = await snapshotOf(store, principal.campaign.id)
  return {
    fileName: archiveFileName(snapshot.campaign.name, snapshot.exportedAt),
    stream: Readable.from(archiveLines(store, snapshot), { objectMode: false }),
  }
}
