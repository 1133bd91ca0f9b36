import type { Page } from 'playwright-core'

/** Creates a campaign from the GM console's form (unfolding it when a campaign is open) and waits for its live feed. */
export async function createCampaign(page: Page, name: string, ruleset = 'shock-meters'): Promise<void> {
  if (!(await page.locator('#new-campaign-name').isVisible())) await page.getByText('Open or create a campaign').click()
  await page.locator('#new-campaign-name').fill(name)
  await page.getByLabel('Rule set').selectOption(ruleset)
  await page.getByRole('button', { name: 'Create campaign' }).click()
  await page.locator('#stream-state[data-state="live"]').waitFor()
}
