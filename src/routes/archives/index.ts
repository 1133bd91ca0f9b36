import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { errorCodes } from 'fastify'
import type { Socket } from 'node:net'
import { splitLines } from '../../lib/ndjson.js'
import { spool } from '../../lib/spool.js'
import {
  ARCHIVE_MEDIA_TYPE,
  ArchiveTextSchema,
  ArchiveUploadSchema,
  ImportedCampaignSchema,
  ImportQuery,
} from '../../history/archive.js'
import { ClientGoneError } from '../../errors.js'
import { CampaignParams } from '../../schemas/common.js'
import { CREATED_CAMPAIGN_LINKS } from '../../schemas/links.js'
import { created, problem, problems } from '../../schemas/ref.js'
import { exportCampaign } from '../../history/archive-export.js'
import { importCampaign } from '../../history/archive-import.js'
import { campaignUrl } from '../locations.js'
import { routeAccess } from '../../plugins/app/route-access.js'

interface ArchiveRoutesOptions {
  /** Largest archive an import reads (`IMPORT_BODY_LIMIT_BYTES`). */
  importLimitBytes: number
  /** Operator setting: webhook URLs on private networks are allowed. */
  allowPrivate: boolean
}

const archiveRoutes: FastifyPluginAsyncTypebox<ArchiveRoutesOptions> = async (app, options) => {
  routeAccess(app, 'gm')
  // This scope reads archives only, as a stream: the import takes them line by line.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser(ARCHIVE_MEDIA_TYPE, (request, payload, done) => {
    const length = Number(request.headers['content-length'])
    if (length > options.importLimitBytes) return done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE(), undefined)
    done(null, payload)
  })

  app.get(
    '/v1/campaigns/:campaignId/export',
    {
      schema: {
        tags: ['Campaigns'],
        operationId: 'exportCampaign',
        summary: 'Export the campaign as an archive',
        description:
          'GM only. The whole campaign as a versioned archive of JSON lines, streamed as it is read: the campaign, its characters, every event of its history in `seq` order as the GM reads them (GM-only ones included), its webhook endpoints without their secrets, and an end line with a SHA-256 of all the rest. The first line counts the lines that follow, for a progress bar. The archive is the campaign as it was when the export began; events recorded meanwhile belong to the next one. Keep it as a backup, or import it into another Nerve with `POST /v1/campaigns/import` (docs/guides/backups-and-moving.md). An archive without its end line was cut short: export again. Swagger UI shows the archive; `curl -OJ` saves it under its file name.',
        params: CampaignParams,
        response: {
          200: {
            description:
              'The archive, `application/x-ndjson`, with `Content-Disposition: attachment` and a file name of the campaign and the day.',
            content: { [ARCHIVE_MEDIA_TYPE]: { schema: ArchiveTextSchema } },
          },
          ...problems(401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const { fileName, stream } = await exportCampaign(app.store, request.principal)
      return reply
        .type(`${ARCHIVE_MEDIA_TYPE}; charset=utf-8`)
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        .send(stream)
    },
  )

  app.post(
    '/v1/campaigns/import',
    {
      links: { 201: CREATED_CAMPAIGN_LINKS },
      config: { access: 'admin' },
      schema: {
        tags: ['Campaigns'],
        operationId: 'importCampaign',
        summary: 'Import a campaign from an archive',
        description:
          'Creates a new campaign from an archive that `GET …/export` wrote, here or on another Nerve, and returns it with a new GM key. **The key is shown only this once.** Every event is replayed through the rules, each roll with the dice it recorded, and must lead to the very sheet it recorded, as the audit checks a character. The first line that does not fit — not JSON, out of order, a `seq` skipped, an event that does not replay, an archive cut short or altered — refuses the whole archive with 422, naming its `line` and the event’s `seq`; nothing is written. The campaign, its characters and its events get new ids; events keep their `seq`, visibility, actor and time. Player keys are not carried over: mint new ones. Webhook endpoints come back disabled, with new secrets shown once, and nothing of the imported history is sent to them. Send the archive as `application/x-ndjson`, up to `IMPORT_BODY_LIMIT_BYTES` (256 MiB by default), within `REQUEST_TIMEOUT_MS`. Like creating a campaign, this needs the admin token when the operator set `ADMIN_TOKEN`. See docs/guides/backups-and-moving.md.',
        consumes: [ARCHIVE_MEDIA_TYPE],
        querystring: ImportQuery,
        body: ArchiveUploadSchema,
        response: {
          201: created(
            ImportedCampaignSchema,
            'The new campaign, its GM key (shown once) and its new ids.',
            'the campaign',
          ),
          ...problems(400, 401),
          413: problem(
            'The archive is larger than the server accepts (`IMPORT_BODY_LIMIT_BYTES`, 256 MiB by default).',
            ['BodyTooLarge'],
          ),
          415: problem('The body is not `application/x-ndjson`, the only type this route reads.', ['NotJson']),
          422: problem('The archive cannot be imported: `line` and `seq` name the first line at fault.', [
            'ArchiveDoesNotReplay',
            'ArchiveTruncated',
          ]),
        },
      },
    },
    async (request, reply) => {
      // Without a Content-Type no parser ran: there is no archive to read.
      if (request.body === undefined) throw new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE()
      // The whole archive is on disk before the transaction opens: a slow upload holds no
      // database connection, and the request timeout bounds the upload alone.
      const archive = await spool(
        request.body,
        options.importLimitBytes,
        () => new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE(),
        (message) => new ClientGoneError(message),
      )
      // The replay may take longer than an idle connection is kept open; the client waits for
      // its GM key. Should it leave all the same, the import is taken back. (An injected request
      // has a stand-in socket without timeouts.)
      ;(request.raw.socket as Partial<Socket>).setTimeout?.(0)
      const gone = new AbortController()
      const leave = () => gone.abort(new ClientGoneError('the client went away before the import was answered'))
      if (request.raw.socket?.destroyed) leave()
      reply.raw.once('close', () => {
        if (!reply.raw.writableFinished) leave()
      })
      let result: Awaited<ReturnType<typeof importCampaign>>
      try {
        result = await importCampaign(
          { store: app.store, allowPrivate: options.allowPrivate },
          splitLines(archive.read()),
          { webhooks: request.query.webhooks ?? 'disabled' },
          gone.signal,
        )
      } finally {
        await archive.dispose()
      }
      return reply.code(201).header('location', campaignUrl(result.campaign.id)).send(result)
    },
  )
}

export default archiveRoutes
