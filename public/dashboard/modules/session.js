// @ts-check
/**
 * The campaign this tab has open, and with which key. Only connect.js writes it (when a campaign
 * is opened or left), and campaign-title.js follows the campaign's renames; every other module
 * reads it.
 */
export const session = {
  campaignId: '',
  key: '',
  /** `gm` runs the console; `player` is the read-only view of one player's characters. */
  mode: 'gm',
  /** In the player view from a link: the one character shown. */
  only: null,
  campaign: null,
  ruleset: null,
  openapi: null,
  resolve: null,
}

export const campaignPath = () => `/v1/campaigns/${encodeURIComponent(session.campaignId)}`
