// @ts-check
// Nerve GM dashboard and console. No build step: plain ES modules, one per concern, under
// modules/ (README, "The GM console"). Keys live in sessionStorage (this tab only) and travel in
// the Authorization header, never in a URL: a player's link carries its key in the fragment,
// which browsers never send, and the page removes it from the address bar at once. EventSource
// cannot send that header, so the live stream is read with fetch() (modules/stream.js). Every
// form is drawn from the API's own schemas (modules/forms/).

import { start } from './modules/start.js'

start()
