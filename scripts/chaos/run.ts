import { ResumingClient } from '../../apps/server/src/testing/resuming-client.js';
import { seeded, sleep } from '../../apps/server/src/testing/seeded.js';
import { guestLogin, joinRoom } from '../../bench/lib/guest.js';
import { Cluster } from './cluster.js';
import { judge, type StoredMessage } from './verdict.js';

/*
 * `npm run test:chaos`: a seeded schedule of faults against two server processes on PostgreSQL and Redis
 * while scripted clients chat and resume (node SIGKILLs, Redis restarts, dropped sockets, slow readers,
 * reconnects to a node whose clock is off). It prints the seed and how many acknowledged messages were
 * lost, doubled or out of order, and exits non-zero unless all are 0. CHAOS_CYCLES (default 50) and
 * CHAOS_SEED (default: a new one, printed) repeat a run.
 */

const CYCLES = Number(process.env.CHAOS_CYCLES ?? 50);
const SEED = Number(process.env.CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31));
const CLIENTS = 5;
const MESSAGES_PER_CYCLE = 8;
/** How long the clients get, once the faults stop, to empty their outboxes and catch up. */
const SETTLE_MS = 60_000;
const PROGRESS_EVERY = 100;

const FAULTS = ['kill', 'skewed-restart', 'redis', 'drop', 'slow'] as const;
type Fault = (typeof FAULTS)[number];
/** How often each fault comes, out of the weights' sum. */
const WEIGHTS: Record<Fault, number> = { kill: 2, 'skewed-restart': 1, redis: 2, drop: 3, slow: 2 };

const random = seeded(SEED);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const between = (low: number, high: number) => low + random() * (high - low);

function nextFault(): Fault {
  let roll = random() * FAULTS.reduce((sum, fault) => sum + WEIGHTS[fault], 0);
  for (const fault of FAULTS) {
    roll -= WEIGHTS[fault];
    if (roll < 0) return fault;
  }
  return 'drop';
}

async function main(): Promise<number> {
  console.log(`chaos: seed ${SEED}, ${CYCLES} cycles (CHAOS_SEED=${SEED} repeats this run)`);
  const cluster = new Cluster();
  const clients: ResumingClient[] = [];
  try {
    await cluster.start();
    const first = cluster.up()[0]!;
    const logins = [];
    for (let i = 0; i < CLIENTS; i++) logins.push(await guestLogin(cluster.up()[i % 2]!.baseUrl));
    const { roomId } = await joinRoom(first.baseUrl, logins[0]!.token, null);
    for (const login of logins) clients.push(new ResumingClient(login, roomId, () => cluster.up(), random));
    await Promise.all(clients.map((client) => client.connect()));

    let said = 0;
    const chat = async (count: number) => {
      for (let n = 0; n < count; n++) {
        pick(clients).say(`message ${++said}`);
        await sleep(between(20, 90));
      }
    };
    const counts: Record<Fault, number> = { kill: 0, 'skewed-restart': 0, redis: 0, drop: 0, slow: 0 };
    const started = Date.now();
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      await chat(MESSAGES_PER_CYCLE / 2);
      await cluster.reap();
      const fault = nextFault();
      counts[fault]++;
      await inject(fault, cluster, clients, () => chat(MESSAGES_PER_CYCLE / 2));
      // a long run shows it is alive
      if ((cycle + 1) % PROGRESS_EVERY === 0 && cycle + 1 < CYCLES) {
        console.log(
          `chaos: ${cycle + 1} cycles, ${said} messages, ${Math.round((Date.now() - started) / 1000)} s`,
        );
      }
    }
    const faultsMs = Date.now() - started;

    const settled = await cluster.settle(clients, roomId, SETTLE_MS);
    await cluster.reap();
    for (const crash of cluster.crashes)
      console.error(`chaos: a node exited by itself; its last lines:\n${crash}`);
    const stored = await cluster.query<{ client_id: string; seq: string }>(
      'select client_id, seq from messages where room_id = $1 order by seq',
      [roomId],
    );
    const verdict = judge(
      clients,
      stored.map((row): StoredMessage => ({ clientId: row.client_id, seq: Number(row.seq) })),
      said,
    );
    const faults = FAULTS.map((fault) => `${fault} ${counts[fault]}`).join(', ');
    const reconnects = clients.reduce((sum, client) => sum + client.connects - 1, 0);
    console.log(
      `chaos: seed ${SEED}, cycles ${CYCLES} in ${(faultsMs / 1000).toFixed(0)} s [${faults}], ` +
        `messages ${verdict.messages}, stored ${stored.length}, acknowledged ${verdict.acknowledged}, ` +
        `reconnects ${reconnects}${settled ? '' : ', DID NOT SETTLE'}`,
    );
    console.log(
      `chaos: lost ${verdict.lost}, doubled ${verdict.doubled}, out of order ${verdict.outOfOrder}, ` +
        `unacknowledged ${verdict.unacknowledged}, nodes crashed ${cluster.crashes.length}`,
    );
    const failed =
      verdict.lost + verdict.doubled + verdict.outOfOrder + verdict.unacknowledged + cluster.crashes.length >
        0 || verdict.acknowledged !== said;
    if (failed) console.error(`chaos: FAILED (repeat with CHAOS_SEED=${SEED})`);
    return failed ? 1 : 0;
  } finally {
    for (const client of clients) client.stop();
    await cluster.stop();
  }
}

/** One fault, with the clients chatting through it (`chat`). */
async function inject(
  fault: Fault,
  cluster: Cluster,
  clients: ResumingClient[],
  chat: () => Promise<void>,
): Promise<void> {
  const slot = Math.floor(random() * cluster.slots.length);
  switch (fault) {
    case 'kill':
    case 'skewed-restart': {
      // one node at a time: the other keeps serving the room meanwhile
      if (cluster.up().length < cluster.slots.length) return chat();
      await cluster.kill(slot);
      const skewMs = fault === 'kill' ? 0 : Math.round(between(5_000, 90_000)) * pick([-1, 1]);
      await Promise.all([chat(), cluster.boot(slot, skewMs)]);
      // reconnects that land on the skewed node too
      if (fault === 'skewed-restart') for (const client of clients) if (random() < 0.5) client.drop();
      return;
    }
    case 'redis':
      return cluster.restartRedis(between(300, 2500), chat);
    case 'drop':
      for (let n = Math.ceil(random() * 3); n > 0; n--) pick(clients).drop();
      return chat();
    case 'slow':
      for (let n = Math.ceil(random() * 2); n > 0; n--) pick(clients).stall(between(500, 3000));
      return chat();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('chaos: the run itself failed', error);
    process.exit(2);
  },
);
