import { connect, type Socket } from 'node:net';
import { ApiVersions, encodeRequestFrame, FrameDecoder, Metadata } from '@weir/protocol';

/**
 * The noisy neighbours of the fairness benchmark, in their own process: `count` connections, each
 * looping ApiVersions then Metadata (all topics) as fast as the broker answers. Prints the number
 * of answers it got when told to stop (SIGTERM), as one JSON line on stdout.
 */
const [host, portText, countText] = process.argv.slice(2);
const port = Number(portText);
const count = Number(countText);
let answers = 0;
const sockets: Socket[] = [];

function loop(socket: Socket): void {
  const decoder = new FrameDecoder();
  let correlationId = 0;
  const next = () => {
    correlationId++;
    const frame =
      correlationId % 2 === 1
        ? encodeRequestFrame(ApiVersions, 0, correlationId, 'metadata-looper', {
            clientSoftwareName: '',
            clientSoftwareVersion: '',
          })
        : encodeRequestFrame(Metadata, 1, correlationId, 'metadata-looper', {
            topics: null,
            allowAutoTopicCreation: false,
            includeClusterAuthorizedOperations: false,
            includeTopicAuthorizedOperations: false,
          });
    socket.write(frame);
  };
  socket.on('data', (chunk: Buffer) => {
    const { frames } = decoder.push(chunk);
    for (const _frame of frames) {
      answers++;
      next();
    }
  });
  next();
}

for (let index = 0; index < count; index++) {
  const socket = connect({ host, port }, () => loop(socket));
  socket.on('error', () => {});
  sockets.push(socket);
}

process.on('SIGTERM', () => {
  for (const socket of sockets) socket.destroy();
  process.stdout.write(`${JSON.stringify({ answers })}\n`);
  process.exit(0);
});
