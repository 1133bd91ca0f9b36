// @ts-check
/*
 * Names what Swagger UI leaves unnamed in Nerve's page at /docs (the landmarks, the logo, some
 * controls), for screen readers (docs/accessibility.md). A classic script loaded before
 * swagger-links.js, whose plugin calls these once Swagger UI is drawn.
 */
;(() => {
  /**
   * Swagger UI puts the operations in `<main>` but leaves the document's description, the
   * Authorize bar and the filter outside any landmark, and @fastify/swagger-ui's logo without a
   * text alternative: this names them once they exist (axe's `region` and `image-alt`).
   */
  function nameLandmarks() {
    /** @type {[string, string][]} */
    const regions = [
      ['#swagger-ui .information-container', 'About this API'],
      ['#swagger-ui .scheme-container', 'Authorization'],
      ['#swagger-ui .filter-container', 'Filter the operations by tag'],
    ]
    const apply = () => {
      let done = true
      for (const [selector, label] of regions) {
        const element = document.querySelector(selector)
        if (!element) done = false
        else if (!element.hasAttribute('role')) {
          element.setAttribute('role', 'region')
          element.setAttribute('aria-label', label)
        }
      }
      const logo = document.querySelector('#swagger-ui .topbar .topbar-wrapper > a.link img')
      if (!logo) done = false
      else if (!logo.hasAttribute('alt')) logo.setAttribute('alt', 'Nerve — home')
      return done
    }
    if (apply()) return
    const observer = new MutationObserver(() => {
      if (apply()) observer.disconnect()
    })
    observer.observe(document.body, { childList: true, subtree: true })
  }

  /** Controls Swagger UI draws without an accessible name as operations open (axe's `label`, `select-name`). */
  const UNNAMED_CONTROLS = [
    { selector: 'textarea.body-param__text:not([aria-label])', label: 'Request body (JSON)' },
    { selector: 'select.examples-select-element:not([aria-label])', label: 'Example' },
  ]

  /** Names those controls whenever Swagger UI draws new ones (opening an operation, a response). */
  function nameControls() {
    const apply = () => {
      for (const { selector, label } of UNNAMED_CONTROLS) {
        for (const element of document.querySelectorAll(selector)) element.setAttribute('aria-label', label)
      }
    }
    apply()
    new MutationObserver(apply).observe(document.body, { childList: true, subtree: true })
  }

  window.NerveSwaggerNames = { nameLandmarks, nameControls }
})()
