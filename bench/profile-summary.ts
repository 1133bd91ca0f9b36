// Summarises a V8 CPU profile (`node --cpu-prof`): self time by area (Prisma's client runtime,
// pg, Fastify, pino, Ajv, GC, Nerve's own code…) and the heaviest functions.
// Usage: tsx bench/profile-summary.ts FILE.cpuprofile [top]
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}

interface Profile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}

const AREAS: [RegExp, string][] = [
  [/node_modules\/@prisma\/client\b|generated\/prisma/, 'Prisma client runtime'],
  [/node_modules\/@prisma\/adapter-pg/, 'Prisma pg adapter'],
  [/node_modules\/@prisma\//, 'Prisma (other)'],
  [/node_modules\/pg(-[a-z]+)?\//, 'pg driver'],
  [/node_modules\/(fastify|find-my-way|light-my-request|avvio|@fastify\/(?!ajv))/, 'Fastify'],
  [/node_modules\/(fast-json-stringify|json-schema-ref-resolver)/, 'fast-json-stringify'],
  [/node_modules\/(ajv|ajv-formats|@fastify\/ajv-compiler)/, 'Ajv'],
  [/node_modules\/(pino|sonic-boom|thread-stream|fast-redact|quick-format-unescaped)/, 'pino'],
  [/node_modules\/typebox/, 'TypeBox (Value)'],
  [/node_modules\/uuid/, 'uuid'],
  [/node_modules\/undici\//, 'undici'],
  [/node_modules\/(tsx|esbuild|get-tsconfig)/, 'tsx loader'],
  [/\/(src|dist)\/rules\//, 'Nerve rules'],
  [/\/(src|dist)\//, 'Nerve (other)'],
  [/node_modules\//, 'other packages'],
  [/^node:|^internal|^$/, 'Node.js core'],
]

export function areaOf(node: ProfileNode): string {
  const { functionName, url } = node.callFrame
  if (functionName === '(garbage collector)') return 'GC'
  if (functionName === '(idle)' || functionName === '(program)') return functionName
  // Code built with `new Function` (TypeBox's compiled checks, Ajv's validators) has no URL
  // but a line; native functions have neither.
  if (url === '' && node.callFrame.lineNumber >= 0) return 'compiled schema checks (TypeBox, Ajv)'
  for (const [pattern, area] of AREAS) if (pattern.test(url)) return area
  return url ? 'other' : 'Node.js core / native'
}

export function summarise(file: string, top = 15) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const self = new Map<number, number>()
  profile.samples.forEach((id, index) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)))
  const total = [...self.entries()].reduce(
    (sum, [id, us]) => (byId.get(id)?.callFrame.functionName === '(idle)' ? sum : sum + us),
    0,
  )
  const areas = new Map<string, number>()
  const functions = new Map<string, number>()
  for (const [id, us] of self) {
    const node = byId.get(id)!
    const area = areaOf(node)
    if (area === '(idle)') continue
    areas.set(area, (areas.get(area) ?? 0) + us)
    const name = `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/.*node_modules\//, '').replace(/.*\/work\/[^/]+\//, '')}:${node.callFrame.lineNumber + 1}`
    functions.set(name, (functions.get(name) ?? 0) + us)
  }
  const share = (us: number) => `${((100 * us) / total).toFixed(1)}%`
  return {
    busyMs: Math.round(total / 1000),
    areas: [...areas.entries()].sort((a, b) => b[1] - a[1]).map(([area, us]) => ({ area, share: share(us) })),
    functions: [...functions.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, share: share(us) })),
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const [file, top] = process.argv.slice(2)
  if (!file) throw new Error('usage: tsx bench/profile-summary.ts FILE.cpuprofile [top]')
  const summary = summarise(file, Number(top ?? 15))
  console.log(`busy ${summary.busyMs} ms`)
  for (const { area, share } of summary.areas) console.log(`  ${share.padStart(6)}  ${area}`)
  console.log('heaviest functions (self time):')
  for (const { name, share } of summary.functions) console.log(`  ${share.padStart(6)}  ${name}`)
}
