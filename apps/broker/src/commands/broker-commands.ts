import type { ClusterCommands } from './cluster-commands';
import type { ConfigCommands } from './config-commands';
import type { DataCommands } from './data-commands';
import type { GroupCommands } from './group-commands';
import type { ProducerIdCommands } from './producer-id-commands';
import type { TopicCommands } from './topic-commands';

/**
 * The internal command boundary (ARCHITECTURE §1): every operation the broker offers, typed, in
 * one place. Kafka API handlers only translate wire ↔ command; the internal listener, the admin
 * gateway and authorization use the same commands.
 */
export interface BrokerCommands {
  cluster: ClusterCommands;
  topics: TopicCommands;
  data: DataCommands;
  producers: ProducerIdCommands;
  configs: ConfigCommands;
  groups: GroupCommands;
}
