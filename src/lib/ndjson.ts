const NEWLINE = 0x0a

/** One line of a JSON-lines body, as bytes: decoding and checking it is the reader's business. */
export interface RawLine {
  /** 1 for the first line. */
  number: number
  /** The line without its newline. */
  bytes: Buffer
  /** False for a last line that the body ends in without a newline. */
  terminated: boolean
}

/** Splits a body into lines as it is read, holding no more than the line being read. */
export async function* splitLines(body: AsyncIterable<Buffer>): AsyncGenerator<RawLine> {
  let number = 0
  let pending: Buffer[] = []
  for await (const bytes of body) {
    let start = 0
    for (let end = bytes.indexOf(NEWLINE); end !== -1; end = bytes.indexOf(NEWLINE, start)) {
      pending.push(bytes.subarray(start, end))
      yield { number: ++number, bytes: Buffer.concat(pending), terminated: true }
      pending = []
      start = end + 1
    }
    if (start < bytes.length) pending.push(bytes.subarray(start))
  }
  if (pending.length > 0) yield { number: number + 1, bytes: Buffer.concat(pending), terminated: false }
}
