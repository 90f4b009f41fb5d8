/**
 * What the metrics of one scrape share: the first metric collected asks `collect` once, and every
 * other metric of the same synchronous collection pass reads that answer, so one scrape asks the
 * broker once and its values agree with each other. A failing `collect` counts as no rows and is
 * reported. `setSource` installs the source, which the broker supplies once it is built.
 */
export function scrapeSnapshot<Row>(onCollectError: (error: unknown) => void): {
  current: () => Row[];
  setSource: (collect: () => Row[]) => void;
} {
  let collect: () => Row[] = () => [];
  let snapshot: Row[] | undefined;
  return {
    current: () => {
      if (snapshot === undefined) {
        try {
          snapshot = collect();
        } catch (error) {
          snapshot = [];
          onCollectError(error);
        }
        queueMicrotask(() => {
          snapshot = undefined;
        });
      }
      return snapshot;
    },
    setSource: (next) => {
      collect = next;
    },
  };
}
