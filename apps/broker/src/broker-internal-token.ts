import type { Logger } from './logger';
import { loadOrCreateInternalToken } from './server/auth/internal-token-file';

/** The internal listener's token: configured, or read or generated at start. */
export class InternalTokenSource {
  #token: string | undefined;

  constructor(
    configured: string | undefined,
    private readonly dataDir: string,
    private readonly logger: Logger,
  ) {
    this.#token = configured;
  }

  /** The token the internal listener accepts now; undefined until `resolve` when none is configured. */
  get current(): string | undefined {
    return this.#token;
  }

  /**
   * Without a configured token the internal listener uses the one in the data directory, generated
   * on first start. The file's path is logged so operators can find it; the token never is. This
   * also happens when trusted certificates can stand in for the token: the CLI and scripts on this
   * machine still find the token there, and whoever can read the data directory can read the data.
   */
  async resolve(): Promise<void> {
    if (this.#token !== undefined) return;
    const file = await loadOrCreateInternalToken(this.dataDir);
    this.#token = file.token;
    const { logger } = this;
    logger.info(
      { path: file.path },
      file.created ? 'internal listener token generated' : 'internal listener token read',
    );
    if (file.readableByOthers) {
      logger.warn(
        { path: file.path },
        'the internal listener token file is readable by others; chmod 600 it',
      );
    }
  }
}
