import { ErrorCode } from '@weir/protocol';
import { temporaryDirectory } from '@weir/test-broker';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createStorageIo } from '../log/storage';
import { checkClusterMembership } from './cluster-membership-file';

describe('checkClusterMembership', () => {
  it('records the first cluster and refuses another cluster or node id later, naming both', async () => {
    const directory = await temporaryDirectory('weir-membership-');
    onTestFinished(() => directory.cleanup());
    const io = createStorageIo();
    const first = { clusterName: 'east', clusterId: 'id-1', nodeId: 2 };
    await checkClusterMembership(io, directory.path, first);
    await checkClusterMembership(io, directory.path, first);
    for (const other of [
      { ...first, clusterId: 'id-9' },
      { ...first, clusterName: 'west' },
      { ...first, nodeId: 3 },
    ]) {
      await expect(checkClusterMembership(io, directory.path, other)).rejects.toMatchObject({
        code: ErrorCode.INCONSISTENT_CLUSTER_ID,
        message: expect.stringMatching(/cluster "east" \(id id-1\) as node 2[\s\S]*configured for cluster/),
      });
    }
  });
});
