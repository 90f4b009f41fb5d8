import { constants as fsConstants } from 'node:fs';
import { type FileHandle, mkdir, open, readdir, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';

/** A disk operation, named so errors and injected faults can say which one failed. */
export type StorageOperation =
  | 'open'
  | 'read'
  | 'write'
  | 'datasync'
  | 'truncate'
  | 'allocate'
  | 'close'
  | 'stat'
  | 'rename'
  | 'unlink'
  | 'mkdir'
  | 'readdir'
  | 'rm';

/**
 * A failed disk operation. Every disk call of the log goes through {@link StorageIo}, which turns
 * whatever the file system threw into this one type, so a partition can be taken offline on an
 * I/O failure instead of the error escaping as a crash.
 */
export class StorageError extends Error {
  override readonly name = 'StorageError';

  constructor(
    readonly operation: StorageOperation,
    readonly path: string,
    /** The errno code, such as EIO or ENOSPC, or UNKNOWN when there was none. */
    readonly errno: string,
    options?: { cause?: unknown },
  ) {
    super(`${operation} ${path} failed: ${errno}`, options);
  }

  /** True when the file or directory did not exist; callers often treat that as "empty". */
  get isNotFound(): boolean {
    return this.errno === 'ENOENT';
  }

  /**
   * True when the file system refused for want of space or quota (ENOSPC, EDQUOT): a condition
   * that passes once space is freed, unlike a failing disk. A failed fdatasync never counts, even
   * with ENOSPC: after it the kernel may have dropped the written pages, so what was written is no
   * longer known to be on disk (docs/architecture.md §4).
   */
  get isOutOfSpace(): boolean {
    return (this.errno === 'ENOSPC' || this.errno === 'EDQUOT') && this.operation !== 'datasync';
  }
}

/**
 * Decides whether an operation should fail as if the disk had refused it. Tests use it to inject
 * EIO or ENOSPC for one partition's files; production passes none.
 */
export type FaultInjector = (operation: StorageOperation, path: string) => string | undefined;

/** An open file. Positions are byte offsets from the start of the file. */
export interface StorageFile {
  readonly path: string;
  /** Writes the buffers at `position` in one system call where the OS allows it. */
  writev(buffers: readonly Buffer[], position: number): Promise<number>;
  /** Reads up to `length` bytes at `position` into `target`; returns how many were read. */
  read(target: Buffer, targetOffset: number, length: number, position: number): Promise<number>;
  datasync(): Promise<void>;
  truncate(sizeBytes: number): Promise<void>;
  sizeBytes(): Promise<number>;
  close(): Promise<void>;
}

export type OpenMode = 'read' | 'read-write' | 'create' | 'create-dsync';

export interface StorageIo {
  /**
   * Opens a file. `create-dsync` also opens it with O_DSYNC: each write returns once it is on disk,
   * one system call instead of a write and an fdatasync, for small files written often.
   */
  openFile(path: string, mode: OpenMode): Promise<StorageFile>;
  readWholeFile(path: string): Promise<Buffer>;
  /**
   * Replaces a small file atomically: write a temporary file, fsync it, rename it over the target
   * and fsync the directory, so a crash leaves either the old or the new content, never a mix.
   */
  writeFileAtomic(path: string, data: Buffer): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  removeTree(path: string): Promise<void>;
  makeDirectory(path: string): Promise<void>;
  listDirectory(path: string): Promise<string[]>;
  fileSizeBytes(path: string): Promise<number>;
  syncDirectory(path: string): Promise<void>;
}

function errnoOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : 'UNKNOWN';
}

/**
 * The single choke point for the log's disk I/O. Each call checks the fault injector first, then
 * runs the real operation and converts any failure into a {@link StorageError}.
 */
export function createStorageIo(options: { faults?: FaultInjector } = {}): StorageIo {
  const { faults } = options;

  async function guard<T>(operation: StorageOperation, path: string, run: () => Promise<T>): Promise<T> {
    const injected = faults?.(operation, path);
    if (injected) throw new StorageError(operation, path, injected);
    try {
      return await run();
    } catch (error) {
      if (error instanceof StorageError) throw error;
      throw new StorageError(operation, path, errnoOf(error), { cause: error });
    }
  }

  function wrapHandle(path: string, handle: FileHandle): StorageFile {
    return {
      path,
      writev: (buffers, position) =>
        guard('write', path, async () => {
          let written = 0;
          // writev may write less than asked (a full disk, a signal); finish the rest or fail.
          let pending = buffers.filter((buffer) => buffer.length > 0);
          while (pending.length > 0) {
            const { bytesWritten } = await handle.writev(pending, position + written);
            if (bytesWritten === 0) throw new StorageError('write', path, 'ENOSPC');
            written += bytesWritten;
            pending = dropWritten(pending, bytesWritten);
          }
          return written;
        }),
      read: (target, targetOffset, length, position) =>
        guard(
          'read',
          path,
          async () => (await handle.read(target, targetOffset, length, position)).bytesRead,
        ),
      datasync: () => guard('datasync', path, () => handle.datasync()),
      truncate: (sizeBytes) => guard('truncate', path, () => handle.truncate(sizeBytes)),
      sizeBytes: () => guard('stat', path, async () => (await handle.stat()).size),
      close: () => guard('close', path, () => handle.close()),
    };
  }

  const flagsFor = {
    read: fsConstants.O_RDONLY,
    'read-write': fsConstants.O_RDWR,
    create: fsConstants.O_RDWR | fsConstants.O_CREAT,
    'create-dsync': fsConstants.O_RDWR | fsConstants.O_CREAT | fsConstants.O_DSYNC,
  } as const;

  const io: StorageIo = {
    openFile: (path, mode) =>
      guard('open', path, async () => wrapHandle(path, await open(path, flagsFor[mode], 0o644))),
    readWholeFile: (path) =>
      guard('read', path, async () => {
        const data = await readFile(path);
        // For an empty file Node returns a zero-length view of a 64 KiB pooled buffer; keeping it
        // (empty indexes of thousands of partitions) would pin all that memory.
        return data.length === 0 ? Buffer.alloc(0) : data;
      }),
    async writeFileAtomic(path, data) {
      const temporaryPath = `${path}.tmp`;
      const file = await io.openFile(temporaryPath, 'create');
      try {
        try {
          await file.truncate(0);
          await file.writev([data], 0);
          await file.datasync();
        } finally {
          await file.close();
        }
      } catch (error) {
        // A half-written temporary file would hold on to space a full disk needs back.
        await io.unlink(temporaryPath).catch(() => undefined);
        throw error;
      }
      await io.rename(temporaryPath, path);
      await io.syncDirectory(dirname(path));
    },
    rename: (from, to) => guard('rename', from, () => rename(from, to)),
    unlink: (path) => guard('unlink', path, () => unlink(path)),
    removeTree: (path) => guard('rm', path, () => rm(path, { recursive: true, force: true })),
    makeDirectory: (path) => guard('mkdir', path, async () => void (await mkdir(path, { recursive: true }))),
    listDirectory: (path) => guard('readdir', path, () => readdir(path)),
    fileSizeBytes: (path) => guard('stat', path, async () => (await stat(path)).size),
    syncDirectory: (path) =>
      guard('datasync', path, async () => {
        const handle = await open(path, fsConstants.O_RDONLY);
        try {
          await handle.sync();
        } finally {
          await handle.close();
        }
      }),
  };
  return io;
}

/** The buffers still to write after `byteCount` bytes of them were written. */
function dropWritten(buffers: Buffer[], byteCount: number): Buffer[] {
  let remaining = byteCount;
  let index = 0;
  while (index < buffers.length && remaining >= buffers[index]!.length) {
    remaining -= buffers[index]!.length;
    index++;
  }
  const rest = buffers.slice(index);
  if (rest.length > 0 && remaining > 0) rest[0] = rest[0]!.subarray(remaining);
  return rest;
}
