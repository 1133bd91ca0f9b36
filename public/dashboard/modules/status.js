// @ts-check
/**
 * Every message of the console, a refusal or what a button did, shows in one place: a box fixed
 * at the foot of the window (above the docked feed on a phone), so it is in view wherever the
 * button was, however far down the page. The box is the page's live region, so a screen reader
 * reads each message once. A message fades after a while; one that says something went wrong
 * stays until the GM dismisses it or the next message takes its place. (It finds its elements
 * without dom.js, which uses it.)
 */
const FADE_AFTER_MS = 12_000

let fading = null

function dismissStatus() {
  clearTimeout(fading)
  setText('', false)
}

function setText(text, isError) {
  const status = document.getElementById('status')
  status.textContent = text
  status.classList.toggle('error', isError)
  document.getElementById('status-dismiss').hidden = !text
}

/** Shows the message in view; `isError` when something was refused or went wrong. */
export function setStatus(text, isError = false) {
  clearTimeout(fading)
  setText(text, isError)
  if (text && !isError) fading = setTimeout(dismissStatus, FADE_AFTER_MS)
}

export function setupStatus() {
  document.getElementById('status-dismiss').addEventListener('click', dismissStatus)
}
