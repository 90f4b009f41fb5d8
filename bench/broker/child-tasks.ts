import { probedBroker } from '../console/probed-broker';
import { groupMember } from '../groups/group-member-task';
import { floorTask } from './floor-task';
import { kafkajsConsume, kafkajsProduce } from './kafkajs-client';
import { natsConsume, natsPublish } from './nats-client';
import { redisAdd, redisRead } from './redis-client';
import { sdkConsume, sdkLatency, sdkProduce } from './sdk-client';
import { weirBroker } from './weir-broker';

/**
 * What a broker-benchmark child can be asked to run. Inputs and outputs cross the IPC channel as
 * JSON, so they hold only plain data.
 */
export const childTasks = {
  'weir-broker': weirBroker,
  'sdk-produce': sdkProduce,
  'sdk-consume': sdkConsume,
  'sdk-latency': sdkLatency,
  'kafkajs-produce': kafkajsProduce,
  'kafkajs-consume': kafkajsConsume,
  'nats-publish': natsPublish,
  'nats-consume': natsConsume,
  'redis-add': redisAdd,
  'redis-read': redisRead,
  floor: floorTask,
  'group-member': groupMember,
  'probed-broker': probedBroker,
};

export type ChildTasks = typeof childTasks;
export type ChildTaskName = keyof ChildTasks;
