import { isAbsolute, relative, sep } from 'node:path';
import { LogManager, type LogManagerOptions, type LogManagerStartReport } from '../src/log/log-manager';
import { createStorageIo, type FaultInjector, type StorageFile, type StorageIo } from '../src/log/storage';

/** Asked before each atomic file write: a hold it returns makes the write wait for `released`. */
export type AtomicWriteHook = (path: string) => { released: Promise<void>; finished: () => void } | undefined;

/**
 * The real storage of one test manager, with a switch that cuts it off as a process's death does:
 * after `cut()` every operation fails (EIO) except closing files, and `closeOpenFiles` closes what
 * the manager still had open, as the kernel closes a dead process's descriptors.
 */
class CuttableStorage {
  readonly io: StorageIo;
  readonly #openFiles = new Set<StorageFile>();
  #cut = false;

  constructor(faults: FaultInjector | undefined, beforeAtomicWrite: AtomicWriteHook | undefined) {
    const base = createStorageIo({
      faults: (operation, path) => (this.#cut && operation !== 'close' ? 'EIO' : faults?.(operation, path)),
    });
    this.io = {
      ...base,
      openFile: async (path, mode) => {
        const file = await base.openFile(path, mode);
        const tracked: StorageFile = {
          ...file,
          close: () => {
            this.#openFiles.delete(tracked);
            return file.close();
          },
        };
        this.#openFiles.add(tracked);
        return tracked;
      },
      writeFileAtomic: async (path, data) => {
        const hold = beforeAtomicWrite?.(path);
        try {
          await hold?.released;
          await base.writeFileAtomic(path, data);
        } finally {
          hold?.finished();
        }
      },
    };
  }

  cut(): void {
    this.#cut = true;
  }

  async closeOpenFiles(): Promise<void> {
    const files = [...this.#openFiles];
    this.#openFiles.clear();
    await Promise.all(files.map((file) => file.close().catch(() => undefined)));
  }
}

/** Managers that were started and have neither shut down nor crashed: they may still write. */
const liveManagers = new Set<CrashableLogManager>();
/** Temporary directories already removed; no manager may start in them again. */
const removedDirectories = new Set<string>();

function isInside(path: string, directory: string): boolean {
  const rest = relative(directory, path);
  return rest !== '..' && !rest.startsWith(`..${sep}`) && !isAbsolute(rest);
}

/**
 * A real {@link LogManager} that a test can also crash. Tests that stand for a killed broker used
 * to drop the manager without stopping it, and its timers went on writing checkpoints into the
 * directory (next to the manager that replaced it, and while the directory was being removed).
 */
export class CrashableLogManager extends LogManager {
  readonly #storage: CuttableStorage;
  #crashed = false;

  constructor(
    options: Omit<LogManagerOptions, 'io'>,
    faults?: FaultInjector,
    beforeAtomicWrite?: AtomicWriteHook,
  ) {
    const storage = new CuttableStorage(faults, beforeAtomicWrite);
    super({ ...options, io: storage.io });
    this.#storage = storage;
  }

  override async start(): Promise<LogManagerStartReport> {
    for (const removed of removedDirectories) {
      if (isInside(this.dataDirectory, removed)) {
        throw new Error(`${this.dataDirectory}: its temporary directory was already removed`);
      }
    }
    liveManagers.add(this);
    return super.start();
  }

  override async shutdown(): Promise<void> {
    // A crashed manager is gone, like the process it stands for: nothing of it may write again.
    if (this.#crashed) return;
    try {
      await super.shutdown();
    } finally {
      liveManagers.delete(this);
    }
  }

  /**
   * Stops the manager as SIGKILL stops a broker: nothing more reaches the disk (no flush, no
   * indexes, no checkpoints, no clean-shutdown marker), its timers stop, the work they had under
   * way has failed by the time this resolves, and its files are closed.
   */
  async crash(): Promise<void> {
    if (this.#crashed) return;
    this.#crashed = true;
    this.#storage.cut();
    try {
      // On the cut storage every write shutdown tries fails; it is called for what it stops.
      await super.shutdown();
    } catch {
      // Expected: the checkpoints and the marker cannot be written any more.
    }
    await this.#storage.closeOpenFiles();
    liveManagers.delete(this);
  }
}

/**
 * Crashes every manager still live in `directory` and refuses new ones there: called before the
 * directory is removed, so nothing writes into it while `rm` walks it.
 */
export async function stopManagersIn(directory: string): Promise<void> {
  removedDirectories.add(directory);
  const live = [...liveManagers].filter((manager) => isInside(manager.dataDirectory, directory));
  await Promise.all(live.map((manager) => manager.crash()));
}
