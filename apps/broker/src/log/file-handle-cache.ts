import type { OpenMode, StorageFile, StorageIo } from './storage';

/** An open file borrowed from the cache; `release` (idempotent) gives it back. */
export interface FileLease {
  readonly file: StorageFile;
  release(): void;
}

interface CachedHandle {
  file: Promise<StorageFile>;
  users: number;
  /** Set when the file was closed while in use: the last user closes it. */
  closeWhenIdle: boolean;
}

/**
 * Bounds the number of open segment files across every partition. Each operation borrows a handle
 * with `use`; handles nobody is using stay open for reuse and are closed least-recently-used first
 * once more than `maxOpenFiles` are open. This is what lets ten thousand partitions, each with
 * several segments, open without running out of descriptors.
 */
export class FileHandleCache {
  // A Map iterates in insertion order; re-inserting on use keeps the least recently used first.
  readonly #handles = new Map<string, CachedHandle>();

  constructor(
    private readonly io: StorageIo,
    private readonly maxOpenFiles: number,
  ) {
    if (maxOpenFiles < 1) throw new Error(`maxOpenFiles must be at least 1, got ${maxOpenFiles}`);
  }

  get openCount(): number {
    return this.#handles.size;
  }

  /**
   * Runs `operation` with the file at `path` open for reading and writing (created if missing);
   * `mode` says how it is opened when it is not open yet (a path is always used with one mode).
   */
  async use<T>(
    path: string,
    operation: (file: StorageFile) => Promise<T>,
    mode: Extract<OpenMode, 'create' | 'create-dsync'> = 'create',
  ): Promise<T> {
    const handle = this.#borrow(path, mode);
    try {
      return await operation(await handle.file);
    } finally {
      this.#giveBack(handle);
    }
  }

  /**
   * Borrows the file at `path` until `release` is called, for reads that outlive one operation (a
   * Fetch answer streamed from its segment as the socket drains). The handle is not closed for
   * the cache's bound meanwhile, and a rename or deletion of the file (retention) leaves it
   * readable: the descriptor stays open until the lease ends.
   */
  async lease(path: string): Promise<FileLease> {
    const handle = this.#borrow(path, 'create');
    let file: StorageFile;
    try {
      file = await handle.file;
    } catch (error) {
      this.#giveBack(handle);
      throw error;
    }
    let released = false;
    return {
      file,
      release: () => {
        if (released) return;
        released = true;
        this.#giveBack(handle);
      },
    };
  }

  #borrow(path: string, mode: Extract<OpenMode, 'create' | 'create-dsync'>): CachedHandle {
    let handle = this.#handles.get(path);
    if (handle) {
      this.#handles.delete(path);
    } else {
      const file = this.io.openFile(path, mode);
      handle = { file, users: 0, closeWhenIdle: false };
      // A failed open must not stay cached; the next use tries again.
      file.catch(() => {
        if (this.#handles.get(path) === handle) this.#handles.delete(path);
      });
    }
    this.#handles.set(path, handle);
    handle.users++;
    // Room is made when a file opens, not only when a use ends: otherwise a file opened while
    // others are busy would keep one handle over the bound for as long as its use lasts.
    this.#evictIdle();
    return handle;
  }

  #giveBack(handle: CachedHandle): void {
    handle.users--;
    if (handle.closeWhenIdle && handle.users === 0) void closeQuietly(handle);
    this.#evictIdle();
  }

  /**
   * Closes the handle for `path` if it is open (before a file is renamed or deleted). A read still
   * using it finishes first: the handle leaves the cache now and closes when its last user is done.
   */
  async close(path: string): Promise<void> {
    const handle = this.#handles.get(path);
    if (!handle) return;
    this.#handles.delete(path);
    if (handle.users > 0) handle.closeWhenIdle = true;
    else await closeQuietly(handle);
  }

  async closeAll(): Promise<void> {
    const handles = [...this.#handles.values()];
    this.#handles.clear();
    await Promise.all(handles.map(closeQuietly));
  }

  #evictIdle(): void {
    if (this.#handles.size <= this.maxOpenFiles) return;
    for (const [path, handle] of this.#handles) {
      if (this.#handles.size <= this.maxOpenFiles) break;
      if (handle.users > 0) continue;
      this.#handles.delete(path);
      void closeQuietly(handle);
    }
  }
}

async function closeQuietly(handle: CachedHandle): Promise<void> {
  try {
    await (await handle.file).close();
  } catch {
    // Closing a file we no longer need cannot lose data: every write was already awaited.
  }
}
