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

/** Self and total time per function (same name, script and position) over the given profiles. */
export function summarizeProfiles(profiles: readonly CpuProfile[]): ProfileSummary {
  const byKey = new Map<string, FunctionTime>();
  let totalUs = 0;
  for (const profile of profiles) {
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
    const parents = new Map<number, number>();
    for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);

    const selfUsByNode = sampleTimes(profile);
    for (const selfUs of selfUsByNode.values()) totalUs += selfUs;

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

/**
 * The time sampled in each node: a sample lasts until the next one, as DevTools counts it; the last
 * lasts until the profile's end.
 */
function sampleTimes(profile: CpuProfile): Map<number, number> {
  const selfUsByNode = new Map<number, number>();
  let timestampUs = profile.startTime;
  for (let index = 0; index < profile.samples.length; index++) {
    timestampUs += profile.timeDeltas[index] ?? 0;
    const nextUs =
      index + 1 < profile.samples.length
        ? timestampUs + (profile.timeDeltas[index + 1] ?? 0)
        : profile.endTime;
    const id = profile.samples[index]!;
    selfUsByNode.set(id, (selfUsByNode.get(id) ?? 0) + Math.max(0, nextUs - timestampUs));
  }
  return selfUsByNode;
}

function entryFor(byKey: Map<string, FunctionTime>, node: CpuProfileNode): FunctionTime {
  const key = functionKey(node);
  let entry = byKey.get(key);
  if (entry === undefined) {
    entry = { ...describeFrame(node), selfUs: 0, totalUs: 0 };
    byKey.set(key, entry);
  }
  return entry;
}

function describeFrame(node: CpuProfileNode): { name: string; location: string } {
  const { functionName, url, lineNumber } = node.callFrame;
  return {
    name: functionName === '' ? '(anonymous)' : functionName,
    location: url === '' ? '' : `${url}:${lineNumber + 1}`,
  };
}

/** Where one function's self time was spent from: its callers, nearest first, and the time. */
export interface CallerChain {
  callers: string[];
  selfUs: number;
}

/**
 * The self time of every function named `functionName`, grouped by the chain of its `depth`
 * nearest callers (each as `name url:line`), largest first: which path copies, checksums or
 * allocates, when the self-time table names only the native frame.
 */
export function callerChains(
  profiles: readonly CpuProfile[],
  functionName: string,
  depth: number,
): CallerChain[] {
  const byChain = new Map<string, CallerChain>();
  for (const profile of profiles) {
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
    const parents = new Map<number, number>();
    for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
    const selfUsByNode = sampleTimes(profile);
    for (const [id, selfUs] of selfUsByNode) {
      if (nodes.get(id)?.callFrame.functionName !== functionName) continue;
      const callers: string[] = [];
      for (
        let parent = parents.get(id);
        parent !== undefined && callers.length < depth;
        parent = parents.get(parent)
      ) {
        const entry = describeFrame(nodes.get(parent)!);
        callers.push(entry.location === '' ? entry.name : `${entry.name} ${entry.location}`);
      }
      const key = callers.join('\u0000');
      const chain = byChain.get(key) ?? { callers, selfUs: 0 };
      chain.selfUs += selfUs;
      byChain.set(key, chain);
    }
  }
  return [...byChain.values()].sort((a, b) => b.selfUs - a.selfUs);
}
