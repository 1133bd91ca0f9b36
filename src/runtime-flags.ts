import { setFlagsFromString } from 'node:v8'

// V8 "pretenures" an allocation site once enough of its objects outlive a young-generation
// collection: it allocates that site's later objects straight in the old generation. Under
// load the database driver's row objects get pretenured this way, and every young string they
// point to (a history page's events, 100 KB and more) then survives young collections until
// the next full one, which comes every few hundred milliseconds and stalls requests 10–20 ms.
// Nerve's allocations live for one request, so it runs without pretenuring: a page's p99 went
// from ~20 ms to under 5 (docs/BENCHMARKS.md, target 3). NODE_OPTIONS cannot carry this flag.
// Imported first by each entry point, before anything has allocated much.
setFlagsFromString('--no-allocation-site-pretenuring')
