// Splits the busy samples of a V8 .cpuprofile into named buckets: each sample goes to the first
// bucket (in the given order) that matches any frame on its stack, so nested work is counted
// where it is most specific. Used by the execute benchmark to show where the Engine's event
// loop spends its time.

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface Bucket {
  label: string;
  /** True when this frame (function name, script URL) belongs to the bucket. */
  match(functionName: string, url: string): boolean;
}

export interface BucketShare {
  label: string;
  us: number;
  share: number;
}

/** Samples whose stack contains one of `ignore` are left out (e.g. the profiler's own IPC). */
export function bucketize(profile: CpuProfile, buckets: Bucket[], ignore: Bucket[] = []): { busyUs: number; wallUs: number; shares: BucketShare[] } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // Cache the bucket of each leaf node (its stack is fixed).
  const memo = new Map<number, number>();
  const classify = (leafId: number): number => {
    const hit = memo.get(leafId);
    if (hit !== undefined) return hit;
    const frames: { fn: string; url: string }[] = [];
    for (let id: number | undefined = leafId; id !== undefined; id = parent.get(id)) {
      const f = byId.get(id)!.callFrame;
      frames.push({ fn: f.functionName, url: f.url });
    }
    let result = buckets.length; // "other"
    if (ignore.some((b) => frames.some((f) => b.match(f.fn, f.url)))) result = -1;
    else {
      for (let i = 0; i < buckets.length; i++) {
        if (frames.some((f) => buckets[i]!.match(f.fn, f.url))) {
          result = i;
          break;
        }
      }
    }
    memo.set(leafId, result);
    return result;
  };
  const us = new Array<number>(buckets.length + 1).fill(0);
  let busy = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const leaf = byId.get(profile.samples[i]!);
    if (!leaf) continue;
    const fn = leaf.callFrame.functionName;
    if (fn === '(idle)' || fn === '(program)' || fn === '(root)') continue;
    const dt = profile.timeDeltas[i] ?? 0;
    const b = fn === '(garbage collector)' ? buckets.findIndex((x) => x.match(fn, '')) : classify(leaf.id);
    if (b === -1 && fn !== '(garbage collector)') continue;
    busy += dt;
    us[b === -1 ? buckets.length : b]! += dt;
  }
  const labels = [...buckets.map((b) => b.label), 'other'];
  return {
    busyUs: busy,
    wallUs: profile.endTime - profile.startTime,
    shares: labels.map((label, i) => ({ label, us: us[i]!, share: busy ? us[i]! / busy : NaN })),
  };
}
