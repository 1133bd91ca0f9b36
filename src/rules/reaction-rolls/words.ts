export function capitalise(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1)
}

/** "anger, fear or guilt" */
export function listOr(items: readonly string[]): string {
  if (items.length <= 1) return items.join('')
  return `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`
}
