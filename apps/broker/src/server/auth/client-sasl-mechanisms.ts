import { scramNonce } from '@weir/protocol';
import type { UserStore } from '../../security/users/user-store';
import { plainMechanism } from './plain-mechanism';
import type { SaslMechanism } from './sasl-mechanism';
import { scramMechanism } from './scram-mechanism';

/** The mechanisms a SASL client listener can offer (`listeners.client.saslMechanisms`). */
export type ClientSaslMechanismName = 'PLAIN' | 'SCRAM-SHA-256' | 'SCRAM-SHA-512';

/** The configured mechanisms, in the configured order, all checking against the user store. */
export function clientSaslMechanisms(
  names: readonly ClientSaslMechanismName[],
  users: UserStore,
  randomBytes: (size: number) => Buffer,
): SaslMechanism[] {
  return names.map((name) =>
    name === 'PLAIN' ? plainMechanism(users) : scramMechanism(name, users, () => scramNonce(randomBytes)),
  );
}
