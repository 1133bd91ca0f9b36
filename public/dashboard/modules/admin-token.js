// @ts-check
import { ApiError } from './api.js'
import { $ } from './dom.js'
import { setStatus } from './status.js'

/**
 * The server's admin token, for a server whose operator set one: only creating or importing a
 * campaign needs it, so only those two requests send it, in place of the open campaign's key.
 * It is read from its field each time and kept nowhere else (no storage): it goes with the tab.
 */
export function adminHeaders() {
  const token = $('admin-token').value.trim()
  return { authorization: token ? `Bearer ${token}` : null }
}

/**
 * Says why creating or importing a campaign failed; when the server wants its admin token, tells
 * the GM where to enter it and takes them there.
 * @param {unknown} error
 * @param {string} what  what failed, as "Could not …" goes on ("create the campaign")
 */
export function campaignRefused(error, what) {
  if (!(error instanceof ApiError) || error.status !== 401) {
    setStatus(`Could not ${what}: ${error instanceof Error ? error.message : String(error)}`, true)
    return
  }
  const field = $('admin-token')
  setStatus(
    field.value.trim()
      ? `Could not ${what}: this server did not accept that admin token. Check it with the server’s operator and enter it again in “Server admin token”.`
      : `Could not ${what}: this server asks for its admin token first. Enter it in “Server admin token” (the server’s operator has it), then try again.`,
    true,
  )
  field.focus()
}
