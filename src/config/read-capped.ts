import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** How long a pipe or device may stay silent before its reader gives up. */
const SILENCE_MS = 2_000;

export class CappedReadError extends Error {
  override name = 'CappedReadError';
  constructor(
    message: string,
    /** ENOENT, EACCES... when the file could not be opened or read. */
    readonly code?: string,
  ) {
    super(message);
  }
}

function units(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`;
  return bytes % 1024 === 0 ? `${bytes / 1024} KB` : `${bytes} bytes`;
}

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * A file the user named, read whole as UTF-8 but never past `maxBytes`: a device that never ends
 * (/dev/zero) stops at the cap, and a pipe or FIFO is read without blocking (a FIFO nobody writes
 * reads as empty, one that stays silent for 2 s is given up). Throws CappedReadError.
 */
export function readCapped(path: string, maxBytes: number): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CappedReadError(code === 'ENOENT' ? 'no such file' : `cannot open it (${code ?? (error as Error).message})`, code);
  }
  try {
    if (fstatSync(fd).isDirectory()) throw new CappedReadError('a directory, not a file', 'EISDIR');
    const buffer = Buffer.alloc(maxBytes + 1);
    let size = 0;
    let quietSince = performance.now();
    while (size <= maxBytes) {
      let read: number;
      try {
        read = readSync(fd, buffer, size, buffer.length - size, null);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'EAGAIN' && code !== 'EWOULDBLOCK') throw new CappedReadError(`cannot read it (${code ?? (error as Error).message})`, code);
        if (performance.now() - quietSince > SILENCE_MS) throw new CappedReadError(`nothing more to read after ${SILENCE_MS / 1000} s (a pipe or device that does not end)`, 'ETIMEDOUT');
        pause(10);
        continue;
      }
      if (read === 0) break;
      size += read;
      quietSince = performance.now();
    }
    if (size > maxBytes) throw new CappedReadError(`longer than ${units(maxBytes)}, read no further`, 'EFBIG');
    return buffer.toString('utf8', 0, size);
  } finally {
    closeSync(fd);
  }
}
