import type { Locator, Page } from 'playwright-core'

// These run inside Chromium (page.evaluate); the project's type check has no DOM library.
declare const document: any

/** A character's card. */
export const article = (page: Page, name: string): Locator => page.getByRole('article', { name })

/** The fields of the action chosen in the console's form. */
export const fields = (page: Page): Locator => page.locator('#action-fields')

/** The seq of the newest entry in the feed. */
export const newestSeq = async (page: Page): Promise<number> =>
  Number(await page.locator('#feed li').first().getAttribute('data-seq'))

/**
 * Creates a campaign from the GM console's form (unfolding it when a campaign is open) and waits
 * until it is the one shown, with its live feed.
 */
export async function createCampaign(page: Page, name: string, ruleset = 'shock-meters'): Promise<void> {
  if (!(await page.locator('#new-campaign-name').isVisible())) await page.getByText('Open or create a campaign').click()
  await page.locator('#new-campaign-name').fill(name)
  await page.getByLabel('Rule set').selectOption(ruleset)
  await page.getByRole('button', { name: 'Create campaign' }).click()
  // The campaign open before stays live until the new one is shown: wait for the new one's name.
  await page.locator('#campaign-title', { hasText: name }).waitFor()
  await page.locator('#stream-state[data-state="live"]').waitFor()
}

/** Opens a campaign with its id and key (unfolding the form when a campaign is open) and waits for its live feed. */
export async function openCampaign(page: Page, campaignId: string, key: string): Promise<void> {
  if (!(await page.locator('#campaign-id').isVisible())) await page.getByText('Open or create a campaign').click()
  await page.getByLabel('Campaign id', { exact: true }).fill(campaignId)
  await page.getByLabel('GM key', { exact: true }).fill(key)
  // Showing a campaign first stops the feed of the one open, so "live" below is the new campaign's.
  await page.getByRole('button', { name: 'Show campaign' }).click()
  await page.locator('#stream-state[data-state="live"]').waitFor()
}

/** Adds a character from the console's form and waits for its card. */
export async function addCharacter(page: Page, name: string): Promise<void> {
  await page.getByLabel('Character name').fill(name)
  await page.getByRole('button', { name: 'Add character' }).click()
  await article(page, name).waitFor()
  // The card may come from the live feed before the answer, which then picks the new character
  // in the form and clears the name: wait for that, or it may undo the test's next choice.
  await page.waitForFunction(() => document.getElementById('new-name').value === '')
}

/** Picks the character and the action in the console's form. */
export async function choose(page: Page, character: string, action: string): Promise<void> {
  await page.getByLabel('Character', { exact: true }).selectOption({ label: character })
  await page.getByLabel('Action', { exact: true }).selectOption(action)
}

/** Presses the form's send button (the last answer cleared first), without waiting: a dialog may ask first. */
export async function press(page: Page): Promise<void> {
  await page.evaluate(() => {
    document.getElementById('action-result').textContent = ''
  })
  await page.locator('#action-submit').click()
}

/** Waits for the answer under the form: the roll's summary, or why it was refused or not sent. */
export async function answer(page: Page): Promise<string> {
  await page.waitForFunction(() => {
    const text = document.getElementById('action-result').textContent
    return text && text !== 'Sending…'
  })
  return (await page.locator('#action-result').textContent()) ?? ''
}

/** Sends the console's form; the answer's summary, or the refusal, is returned. */
export async function send(page: Page): Promise<string> {
  await press(page)
  return answer(page)
}
