/** The parts of a V8 `.cpuprofile` (the Chrome DevTools Profiler.Profile format) read here. */
export interface CpuProfile {
  nodes: CpuProfileNode[];
  startTime: number;
  endTime: number;
  /** The node each sample hit, in order. */
  samples: number[];
  /** Microseconds from the previous sample (from startTime for the first) to this one. */
  timeDeltas: number[];
}

export interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

/** One function's share of one or more profiles. */
export interface FunctionTime {
  name: string;
  /** `url:line` (1-based), or empty for V8's own entries such as "(garbage collector)". */
  location: string;
  selfUs: number;
  /** Time with the function anywhere on the stack, counted once however deep it recurses. */
  totalUs: number;
}

export interface ProfileSummary {
  /** Every sampled microsecond, idle included. */
  totalUs: number;
  functions: FunctionTime[];
}

function functionKey(node: CpuProfileNode): string {
  const { functionName, url, lineNumber, columnNumber } = node.callFrame;
  return `${functionName}\u0000${url}\u0000${lineNumber}\u0000${columnNumber}`;
}

/**
 * Self and total time per function (same name, script and position) over the given profiles. A
 * sample lasts until the next one, as DevTools counts it; the last lasts until the profile's end.
 */
export function summarizeProfiles(profiles: readonly CpuProfile[]): ProfileSummary {
  const byKey = new Map<string, FunctionTime>();
  let totalUs = 0;
  for (const profile of profiles) {
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
    const parents = new Map<number, number>();
    for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);

    const selfUsByNode = new Map<number, number>();
    let timestampUs = profile.startTime;
    for (let index = 0; index < profile.samples.length; index++) {
      timestampUs += profile.timeDeltas[index] ?? 0;
      const nextUs =
        index + 1 < profile.samples.length
          ? timestampUs + (profile.timeDeltas[index + 1] ?? 0)
          : profile.endTime;
      const durationUs = Math.max(0, nextUs - timestampUs);
      const id = profile.samples[index]!;
      selfUsByNode.set(id, (selfUsByNode.get(id) ?? 0) + durationUs);
      totalUs += durationUs;
    }

    for (const [id, selfUs] of selfUsByNode) {
      const leaf = nodes.get(id);
      if (leaf === undefined) continue;
      entryFor(byKey, leaf).selfUs += selfUs;
      // Each function on this sample's stack gets the time once, recursion or not.
      const onStack = new Set<string>();
      for (let node: CpuProfileNode | undefined = leaf; node !== undefined; ) {
        const key = functionKey(node);
        if (!onStack.has(key)) {
          onStack.add(key);
          entryFor(byKey, node).totalUs += selfUs;
        }
        const parent = parents.get(node.id);
        node = parent === undefined ? undefined : nodes.get(parent);
      }
    }
  }
  return { totalUs, functions: [...byKey.values()] };
}

function entryFor(byKey: Map<string, FunctionTime>, node: CpuProfileNode): FunctionTime {
  const key = functionKey(node);
  let entry = byKey.get(key);
  if (entry === undefined) {
    const { functionName, url, lineNumber } = node.callFrame;
    entry = {
      name: functionName === '' ? '(anonymous)' : functionName,
      location: url === '' ? '' : `${url}:${lineNumber + 1}`,
      selfUs: 0,
      totalUs: 0,
    };
    byKey.set(key, entry);
  }
  return entry;
}
