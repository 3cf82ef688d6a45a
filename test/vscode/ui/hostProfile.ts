// A CPU profile of a running Node process (the extension host) for the UI test's diagnostics:
// SIGUSR1 opens its inspector, the Chrome DevTools Protocol's Profiler samples it, and the
// functions with the most self time are returned (CHAIN_EXPLORER_PROFILE_HOST=1 prints them).
import WebSocket from 'ws';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

const frameName = (node: ProfileNode): string => {
  const frame = node.callFrame;
  return `${frame.functionName || '(anonymous)'} ${frame.url.split('/').slice(-2).join('/')}:${frame.lineNumber + 1}`;
};

/**
 * The busiest call stacks (samples of a node and its callees, outermost frames first), so a cost
 * can be traced to the timer, socket or event that started it: "share% a < b < c".
 */
function busiestStacks(nodes: ProfileNode[], total: number, top: number): string[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const stacks = new Map<string, number>();
  for (const node of nodes) {
    const hits = node.hitCount ?? 0;
    if (hits === 0 || ['(idle)', '(program)', '(root)'].includes(node.callFrame.functionName)) continue;
    const frames: string[] = [];
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const n = byId.get(id)!;
      if (n.callFrame.functionName !== '(root)') frames.push(frameName(n));
    }
    // The innermost frame and the six outermost ones: what ran, and what started it.
    const shown = frames.length > 8 ? [frames[0], '…', ...frames.slice(-6)] : frames;
    const key = shown.join(' < ');
    stacks.set(key, (stacks.get(key) ?? 0) + hits);
  }
  return [...stacks].sort((a, b) => b[1] - a[1]).slice(0, top)
    .map(([key, hits]) => `${((hits / Math.max(1, total)) * 100).toFixed(1)}% ${key}`);
}

/** The inspector's WebSocket URL once the process listens (after SIGUSR1), on `port`. */
async function inspectorUrl(pid: number, port: number): Promise<string> {
  process.kill(pid, 'SIGUSR1');
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      const list = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json() as { webSocketDebuggerUrl: string }[];
      if (list[0]?.webSocketDebuggerUrl) return list[0].webSocketDebuggerUrl;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no inspector on port ${port} after SIGUSR1`);
}

/** Samples `pid` for `ms`; the `top` functions by self time, as "share% function url:line". */
export async function profileProcess(pid: number, ms: number, top = 25, port = 9229): Promise<string[]> {
  const socket = new WebSocket(await inspectorUrl(pid, port));
  await new Promise<void>((resolve, reject) => { socket.once('open', () => resolve()); socket.once('error', reject); });
  let next = 1;
  const answers = new Map<number, (result: unknown) => void>();
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as { id?: number; result?: unknown };
    if (message.id !== undefined) answers.get(message.id)?.(message.result);
  });
  const call = (method: string, params: unknown = {}): Promise<unknown> => new Promise((resolve) => {
    const id = next++;
    answers.set(id, resolve);
    socket.send(JSON.stringify({ id, method, params }));
  });
  try {
    await call('Profiler.enable');
    await call('Profiler.setSamplingInterval', { interval: 1000 });
    await call('Profiler.start');
    await new Promise((resolve) => setTimeout(resolve, ms));
    const { profile } = await call('Profiler.stop') as { profile: { nodes: ProfileNode[] } };
    const self = new Map<string, number>();
    let total = 0;
    for (const node of profile.nodes) {
      const hits = node.hitCount ?? 0;
      total += hits;
      const key = frameName(node);
      self.set(key, (self.get(key) ?? 0) + hits);
    }
    return [
      ...[...self].sort((a, b) => b[1] - a[1]).slice(0, top).map(([key, hits]) => `${((hits / Math.max(1, total)) * 100).toFixed(1)}% ${key}`),
      'busiest stacks (innermost < … < outermost):',
      ...busiestStacks(profile.nodes, total, top),
    ];
  } finally {
    await call('Profiler.disable').catch(() => undefined);
    socket.close();
  }
}
