// One @platformatic/kafka consumer with the consumer group protocol (groupProtocol: 'consumer',
// KIP-848), run by the Node 22 of this folder's package (kip848-platformatic.test.ts). It reads
// the topic from its group's committed offsets (earliest without one), commits each record as it
// is handled, and prints one JSON line per event on stdout: "record" (with the commit done),
// "assignment" after each change of its partitions, "settled" once a fetch begun after that change
// has finished, "closed". A line "close" on stdin makes it leave the group (ConsumerGroupHeartbeat
// with epoch -1) and exit.
//
// Why "settled": the client hands over the records of a fetch that was in flight when some of its
// partitions were revoked (it does not drop them as the Java client does), so a record produced
// during that window could be consumed by the old owner too. The stream fetches from one broker
// one request at a time, so the second fetch to finish after a change was begun after it.
import { createInterface } from 'node:readline';
import { Consumer, stringDeserializers } from '@platformatic/kafka';

const [bootstrap, groupId, topic, clientId] = process.argv.slice(2);

function emit(event) {
  process.stdout.write(`${JSON.stringify(event)}\n`);
}

function fail(error) {
  emit({ event: 'error', message: String(error?.stack ?? error) });
  process.exit(1);
}

const consumer = new Consumer({
  groupId,
  clientId,
  bootstrapBrokers: [bootstrap],
  groupProtocol: 'consumer',
  deserializers: stringDeserializers,
  retries: 20,
  retryDelay: 250,
  // Short long-polls, so a fetch begun before an assignment change is soon over.
  maxWaitTime: 300,
});

let lastAssignment = '';
let fetchesSinceChange = 0;
function reportAssignment() {
  const partitions = (consumer.assignments ?? [])
    .filter((assignment) => assignment.topic === topic)
    .flatMap((assignment) => assignment.partitions)
    .sort((left, right) => left - right);
  const key = JSON.stringify(partitions);
  if (key === lastAssignment) return;
  lastAssignment = key;
  fetchesSinceChange = 0;
  emit({ event: 'assignment', memberId: consumer.memberId, partitions });
}
// The client has no event for a finished reconciliation; its assignment is read as it changes.
const assignmentPoll = setInterval(reportAssignment, 100);

const stream = await consumer
  .consume({ topics: [topic], autocommit: false, mode: 'committed', fallbackMode: 'earliest' })
  .catch(fail);

stream.on('data', (message) => {
  message
    .commit()
    .then(() =>
      emit({
        event: 'record',
        memberId: consumer.memberId,
        partition: message.partition,
        offset: Number(message.offset),
        value: message.value,
      }),
    )
    .catch(fail);
});
stream.on('error', fail);
stream.on('fetch', () => {
  fetchesSinceChange += 1;
  if (fetchesSinceChange === 2) emit({ event: 'settled', partitions: JSON.parse(lastAssignment || '[]') });
});

createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() !== 'close') return;
  clearInterval(assignmentPoll);
  consumer
    .close(true)
    .then(() => {
      emit({ event: 'closed' });
      process.exit(0);
    })
    .catch(fail);
});
