import { createReadStream, createWriteStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Readable } from 'node:stream'

/** A request body kept in a temporary file. */
export interface Spooled {
  /** The body as received, from its start. */
  read(): Readable
  /** Removes the file; safe to call twice. */
  dispose(): Promise<void>
}

/**
 * Writes a request body to a private temporary file (under `TMPDIR`) as fast as it arrives,
 * without holding it in memory, and refuses it with `tooLarge()` once more than `limitBytes`
 * have come. The body is left unread past that point rather than destroyed, so the refusal
 * can still be answered on the connection. A client that goes away mid-body is an error too.
 */
export async function spool(
  body: Readable,
  limitBytes: number,
  tooLarge: () => Error,
  gone: (message: string) => Error,
): Promise<Spooled> {
  const dir = await mkdtemp(join(tmpdir(), 'nerve-body-'))
  const path = join(dir, 'body')
  const dispose = () => rm(dir, { recursive: true, force: true })
  try {
    await new Promise<void>((resolve, reject) => {
      const file = createWriteStream(path)
      let received = 0
      let settled = false
      const fail = (error: Error) => {
        if (settled) return
        settled = true
        body.off('data', onData)
        body.pause()
        file.destroy()
        reject(error)
      }
      const onData = (chunk: Buffer) => {
        received += chunk.length
        if (received > limitBytes) return fail(tooLarge())
        if (!file.write(chunk)) {
          body.pause()
          file.once('drain', () => body.resume())
        }
      }
      body.on('data', onData)
      body.once('error', fail)
      body.once('close', () => {
        if (!body.readableEnded) fail(gone('the client went away before the whole body arrived'))
      })
      body.once('end', () => {
        if (settled) return
        file.end(() => {
          settled = true
          resolve()
        })
      })
      file.once('error', fail)
    })
  } catch (error) {
    await dispose()
    throw error
  }
  return { read: () => createReadStream(path), dispose }
}
