// @ts-check
import { $ } from './dom.js'
import { rememberCampaign } from './remembered.js'
import { session } from './session.js'

/** The open campaign's name and rule set, in the page's heading and the tab's title. */
export function showCampaignTitle() {
  const heading = $('campaign-title')
  heading.textContent = `${session.campaign.name} · ${rulesetName()}`
  heading.hidden = false
  document.title = `${session.campaign.name} — Nerve ${session.mode === 'gm' ? 'GM console' : 'player view'}`
}

const rulesetName = () => session.ruleset?.title ?? session.campaign.ruleset

/**
 * Remembers the open campaign in this browser's list, with its key only when `keepKey` (or when
 * the key was kept already).
 */
export const rememberOpenCampaign = (keepKey = false) =>
  rememberCampaign(
    { id: session.campaignId, name: session.campaign.name, ruleset: rulesetName() },
    session.key,
    keepKey,
  )

/**
 * A rename or a change of settings, from any client, shows at once: the heading, the tab and
 * the list of campaigns take the new name, and the forms read the new settings.
 * @param {import('./api-types.js').Event} event
 */
export function followCampaignUpdate(event) {
  if (event.type !== 'campaign.updated' || !session.campaign) return
  Object.assign(session.campaign, event.outcome.after)
  showCampaignTitle()
  if (session.mode === 'gm') rememberOpenCampaign()
}
