import { Connection, parseBrokerAddress, type TlsOptions } from '@weir/protocol';
import type { ConsoleAuthMode } from '../../env';
import type { BrokerClients } from '../admin-client';
import type { Logger } from '../logger';
import { ConsoleAuth } from './console-auth';
import { ConsoleCredentialsStatus } from './console-credentials-status';
import { type CredentialCheckLimits, CredentialChecks } from './credential-checks';
import type { SessionLimits } from './sessions';

export interface ConsoleAuthWiring {
  readonly mode: ConsoleAuthMode;
  readonly now: () => number;
  /** The internal listener(s), `host:port`. */
  readonly bootstrap: readonly string[];
  /** The console's WEIR-TOKEN (null: no SASL, for tests that talk to a plaintext listener). */
  readonly token: () => string | null;
  readonly tls?: () => TlsOptions | undefined;
  /** The console's own broker clients: credential fingerprints are read through them. */
  readonly shared: BrokerClients;
  /** The broker clients acting for one principal (WEIR-TOKEN actAs). */
  readonly clientsFor: (principal: string) => BrokerClients;
  readonly logger: Logger;
  readonly credentialLimits?: Partial<CredentialCheckLimits>;
  readonly sessionLimits?: Partial<SessionLimits>;
  readonly credentialRecheckMs?: number;
}

/** The console's authentication with everything it needs, as the process and the tests build it. */
export interface ConsoleAuthParts {
  readonly auth: ConsoleAuth;
  readonly credentials: CredentialChecks;
  readonly credentialsStatus: ConsoleCredentialsStatus;
}

/**
 * Builds the console's authentication: credential checks on connections of their own (never the
 * shared clients', which carry everyone's requests), and fingerprints read through the shared
 * clients, which are fast.
 */
export function createConsoleAuth(wiring: ConsoleAuthWiring): ConsoleAuthParts {
  const credentialsStatus = new ConsoleCredentialsStatus(wiring.logger, wiring.now);
  const credentials = new CredentialChecks({
    addressCount: wiring.bootstrap.length,
    now: wiring.now,
    ...(wiring.credentialLimits === undefined ? {} : { limits: wiring.credentialLimits }),
    onConsoleCredentials: (accepted, error) => credentialsStatus.observe(accepted, error),
    openConnection: (index) => {
      const address = parseBrokerAddress(wiring.bootstrap[index % wiring.bootstrap.length]!);
      const token = wiring.token();
      const tls = wiring.tls?.();
      return new Connection({
        host: address.host,
        port: address.port,
        clientId: 'weir-console-login',
        ...(tls === undefined ? {} : { tls }),
        ...(token === null ? {} : { sasl: { mechanism: 'WEIR-TOKEN', token } }),
      });
    },
  });
  const auth = new ConsoleAuth({
    mode: wiring.mode,
    now: wiring.now,
    credentials,
    readFingerprints: async (usernames) =>
      new Map(
        (await wiring.shared.users().listUsers(usernames)).map((user) => [
          user.name,
          user.credentialFingerprint,
        ]),
      ),
    clientsFor: wiring.clientsFor,
    ...(wiring.sessionLimits === undefined ? {} : { limits: wiring.sessionLimits }),
    ...(wiring.credentialRecheckMs === undefined ? {} : { credentialRecheckMs: wiring.credentialRecheckMs }),
  });
  return { auth, credentials, credentialsStatus };
}
