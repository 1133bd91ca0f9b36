// @ts-check
import { api, post } from './api.js'
import { characters } from './characters.js'
import { copyField } from './copy.js'
import { $, h } from './dom.js'
import { setStatus } from './status.js'
import { campaignPath, session } from './session.js'

/** The player's link: the key rides in the fragment, which never leaves the browser. */
function playerLink(characterId, key) {
  const fragment = new URLSearchParams({ view: 'player', campaign: session.campaignId, character: characterId, key })
  return `${location.origin}/dashboard#${fragment}`
}

export async function mintPlayerKey(characterId, button) {
  const character = characters.get(characterId)
  button.disabled = true
  try {
    const minted = await post(`${campaignPath()}/keys`, { label: character.name, characterIds: [characterId] })
    const link = playerLink(characterId, minted.key)
    const keyId = `minted-key-${minted.id}`
    const linkId = `minted-link-${minted.id}`
    $('minted').replaceChildren(
      h('h3', {}, `Player key for ${character.name}`),
      h(
        'p',
        {},
        'Shown once: hand it to the player now. The link opens their read-only view; the key is in its #fragment, which the browser never sends to a server.',
      ),
      copyField(linkId, 'Player link', link, `${character.name}’s player link`),
      copyField(keyId, 'Player key', minted.key, `${character.name}’s player key`),
    )
    $('minted').hidden = false
    await loadKeys()
    $(linkId).focus()
    $(linkId).select()
  } catch (error) {
    setStatus(`Could not mint a key for ${character?.name}: ${error.message}`, true)
  } finally {
    button.disabled = false
  }
}

export async function loadKeys() {
  const keys = (await api(`${campaignPath()}/keys`)).data
  const names = (ids) => ids.map((id) => characters.get(id)?.name ?? id.slice(0, 8)).join(', ')
  const rows = keys.map((key) => {
    const own = session.key.startsWith(key.prefix)
    let action = h('span', {}, key.revokedAt ? 'revoked' : own ? 'this tab' : '')
    if (!key.revokedAt && !own) {
      action = h(
        'button',
        { type: 'button', class: 'secondary small', 'aria-label': `Revoke ${key.label ?? key.prefix} (${key.role})` },
        'Revoke',
      )
      action.addEventListener('click', async () => {
        action.disabled = true
        try {
          await api(`${campaignPath()}/keys/${encodeURIComponent(key.id)}`, { method: 'DELETE' })
          setStatus(`Key ${key.label ?? key.prefix} revoked: it no longer opens anything.`)
          await loadKeys()
        } catch (error) {
          action.disabled = false
          setStatus(`Could not revoke the key: ${error.message}`, true)
        }
      })
    }
    return h(
      'tr',
      { 'data-key-id': key.id, class: key.revokedAt ? 'revoked' : undefined },
      h('th', { scope: 'row' }, key.label ?? key.prefix),
      h('td', {}, key.role === 'gm' ? 'GM' : 'player'),
      h('td', {}, key.role === 'gm' ? 'all' : names(key.characterIds)),
      h('td', {}, action),
    )
  })
  $('key-rows').replaceChildren(...rows)
}
