import { v7 } from 'uuid'

/** Time-ordered ids (UUIDv7): index-friendly, and their order follows creation. */
export function newId(): string {
  return v7()
}
