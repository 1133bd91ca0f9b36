// @ts-check
import { adminHeaders, campaignRefused } from './admin-token.js'
import { api, request } from './api.js'
import { $, h } from './dom.js'
import { setStatus } from './status.js'
import { campaignPath } from './session.js'
import { showSecrets } from './webhook-secrets.js'

/** The archive panel (GM only) exports the open campaign; the import form beside "Create a campaign" brings one back. */

const ARCHIVE_TYPE = 'application/x-ndjson'

/** A downloaded archive's address stays valid this long: the browser reads the file from it after the click. */
const DOWNLOAD_URL_LIFETIME_MS = 60_000

/**
 * The export needs the GM key in its Authorization header, which a plain link cannot send: the
 * page reads the archive itself and hands it to the browser as a file (a `blob:` address, which
 * the CSP does not govern: it is a download, not something the page loads).
 */
async function exportArchive() {
  const button = $('export-button')
  button.disabled = true
  setStatus('Writing the archive…')
  try {
    const response = await request(`${campaignPath()}/export`, {
      headers: { accept: `${ARCHIVE_TYPE}, application/problem+json` },
    })
    const fileName =
      /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'campaign.nerve.ndjson'
    const url = URL.createObjectURL(await response.blob())
    const link = h('a', { href: url, download: fileName, hidden: true })
    document.body.append(link)
    link.click()
    link.remove()
    setTimeout(() => URL.revokeObjectURL(url), DOWNLOAD_URL_LIFETIME_MS)
    setStatus(`Downloaded ${fileName}: keep it safe, it holds the GM-only rolls too.`)
  } catch (error) {
    setStatus(`Could not export the campaign: ${error.message}`, true)
  } finally {
    button.disabled = false
  }
}

/**
 * @param {(campaign: { id: string, name: string }, gmKey: string) => Promise<void>} openNew
 *   opens a campaign just made, with its GM key on show once (as "Create a campaign" does)
 */
async function importArchive(openNew) {
  const file = $('import-file').files?.[0]
  if (!file) {
    setStatus('Choose the archive file to import.', true)
    $('import-file').focus()
    return
  }
  const webhooks = $('import-webhooks').checked ? 'disabled' : 'none'
  $('import-button').disabled = true
  setStatus(`Importing ${file.name}: every roll is checked again, which takes a while for a long campaign…`)
  try {
    /** @type {import('./api-types.js').ImportedCampaign} */
    const imported = await api(`/v1/campaigns/import?webhooks=${webhooks}`, {
      method: 'POST',
      body: file,
      headers: { 'content-type': ARCHIVE_TYPE, ...adminHeaders() },
    })
    $('import-form').reset()
    await openNew(imported.campaign, imported.gmKey.key)
    // The campaign did not open (connect says why on the status line).
    if ($('board').hidden) return
    showSecrets(
      imported.webhooks.map((entry) => entry.endpoint),
      'Its webhooks came back disabled, each with a new secret shown only this once: give each to its receiver, then enable the webhook.',
    )
    setStatus(
      `Imported ${imported.campaign.name} as a new campaign: ${imported.characters.length} character(s) and ${imported.events.count} event(s), every one checked. Copy its GM key now: it is shown only once.`,
    )
  } catch (error) {
    campaignRefused(error, `import ${file.name}`)
  } finally {
    $('import-button').disabled = false
  }
}

/** @param {(campaign: { id: string, name: string }, gmKey: string) => Promise<void>} openNew */
export function setupArchives(openNew) {
  $('export-button').addEventListener('click', exportArchive)
  $('import-form').addEventListener('submit', (submitEvent) => {
    submitEvent.preventDefault()
    importArchive(openNew)
  })
}
