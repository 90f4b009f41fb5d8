import { DescribeLogDirs, ErrorCode } from '@weir/protocol';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { type ApiHandler, defineHandler } from '../handler';

const RULES = API_ACL_RULES.DescribeLogDirs;

/**
 * DescribeLogDirs up to `maxVersion`: this broker's one log directory with each partition replica's
 * size and offset lag (operator/log-dirs.ts), and from v4 the file system's total and usable bytes.
 * Weir has no future logs (it has no AlterReplicaLogDirs), so isFutureKey is always false. Without
 * DESCRIBE on the cluster the answer has no directories, and from v3 the top-level error is
 * CLUSTER_AUTHORIZATION_FAILED, as in Kafka; a directory that cannot be read is a
 * KAFKA_STORAGE_ERROR row.
 */
function describeLogDirsUpTo(maxVersion: number): ApiHandler<typeof DescribeLogDirs> {
  return defineHandler({
    api: DescribeLogDirs,
    versions: { min: 0, max: maxVersion },
    async handle(request, context, services) {
      if (!context.access.allows(RULES.cluster)) {
        return { throttleTimeMs: 0, errorCode: RULES.cluster.denied, results: [] };
      }
      const directory = await services.operator.logDirs.describe(request.topics);
      return {
        throttleTimeMs: 0,
        errorCode: ErrorCode.NONE,
        results: [
          {
            errorCode: ErrorCode.NONE,
            logDir: directory.path,
            topics: directory.topics.map((topic) => ({
              name: topic.name,
              partitions: topic.partitions.map((row) => ({
                partitionIndex: row.partition,
                partitionSize: BigInt(row.sizeBytes),
                offsetLag: BigInt(row.offsetLag),
                isFutureKey: false,
              })),
            })),
            totalBytes: BigInt(directory.totalBytes),
            usableBytes: BigInt(directory.usableBytes),
          },
        ],
      };
    },
  });
}

/** The internal listener's: v0–4 (v2 and up are flexible, which only the client listener must avoid). */
export const describeLogDirsHandler = describeLogDirsUpTo(4);

/** The client listener's: v0–1, since it advertises no flexible version but ApiVersions v3. */
export const clientDescribeLogDirsHandler = describeLogDirsUpTo(1);
