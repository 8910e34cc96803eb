// Tenure web console: the two polls. They fetch and store into the state; what to render after
// each is handed in by app.js, so the views can ask for a poll without this module knowing them.
import { getJson, enc } from './api.js';
import { DEAD_LIMIT, messagesPath, state } from './state.js';
import { sampleQueues } from './charts.js';

const FAST_MS = 1000; // cluster, agents, queues, the chosen queue's dead letters, a page of messages, demo
const SLOW_MS = 3000; // events, locks, schedules
const EVENT_LIMIT = 100;

/** {fast, slow, live}: what each poll renders when it is done; set by startPolling. */
let render = null;

let fastBusy = false;
let slowBusy = false;
let fastAgain = false;
let slowAgain = false;

export async function fastTick(forced = false) {
  if (fastBusy) {
    if (forced) fastAgain = true;
    return; // never overlap: skip this tick
  }
  fastBusy = true;
  try {
    // The chosen queue's dead letters are read with the queue counts and rendered with them, so
    // the dead-letter count and the rows listed always come from the same poll (issue 15, item 15).
    const deadQueue = state.deadQueue;
    const askDemo = state.demoMode !== false;
    const msgPath = messagesPath();
    const [c, a, q, dl, d, ms] = await Promise.allSettled([
      getJson('api/cluster'),
      getJson('api/agents'),
      getJson('api/queues'),
      // 404: the queue has no messages at all (it exists while it has some), so no dead letters
      deadQueue ? getJson(`api/queues/${enc(deadQueue)}/dead?limit=${DEAD_LIMIT}`, { allow404: true }) : Promise.resolve(null),
      askDemo ? getJson('api/demo', { allow404: true }) : Promise.resolve(null),
      // 404 here too: a queue without messages has none to list
      msgPath ? getJson(msgPath, { allow404: true }) : Promise.resolve(null),
    ]);
    const errors = [];
    if (c.status === 'fulfilled') state.cluster = c.value;
    else errors.push(c.reason.message);
    if (a.status === 'fulfilled') state.agents = a.value;
    else errors.push(a.reason.message);
    if (q.status === 'fulfilled') {
      state.queues = q.value;
      sampleQueues(q.value);
    } else errors.push(q.reason.message);
    if (deadQueue && deadQueue === state.deadQueue) {
      if (dl.status === 'fulfilled') {
        state.dead = { queue: deadQueue, messages: dl.value?.messages ?? [] };
        state.deadError = null;
      } else state.deadError = dl.reason.message;
    }
    // Kept only if the panel still asks for the same page: a click meanwhile asked for another.
    if (msgPath && msgPath === messagesPath()) {
      if (ms.status === 'fulfilled') {
        state.messages = { path: msgPath, messages: ms.value?.messages ?? [] };
        state.messagesError = null;
      } else state.messagesError = ms.reason.message;
    }
    if (askDemo) {
      if (d.status === 'fulfilled') {
        state.demo = d.value;
        state.demoMode = d.value != null;
      } else if (state.demoMode) {
        errors.push(d.reason.message); // known demo went away: keep the last state, say so
      }
    }
    state.fastError = errors.length ? joinErrors(errors) : null;
    if (!errors.length) state.lastOkAt = Date.now();
    render.fast();
  } finally {
    fastBusy = false;
    render.live();
    if (fastAgain) {
      fastAgain = false;
      setTimeout(() => fastTick(true), 0);
    }
  }
}

async function slowTick(forced = false) {
  if (slowBusy) {
    if (forced) slowAgain = true;
    return;
  }
  slowBusy = true;
  try {
    const [e, l, s] = await Promise.allSettled([
      getJson(`api/events?limit=${EVENT_LIMIT}`),
      getJson('api/locks'),
      getJson('api/schedules'),
    ]);
    if (e.status === 'fulfilled') state.events = e.value;
    if (l.status === 'fulfilled') state.locks = l.value;
    if (s.status === 'fulfilled') state.schedules = s.value;
    const failed = [e, l, s].filter((r) => r.status === 'rejected').map((r) => r.reason.message);
    state.slowError = failed.length ? joinErrors(failed) : null;
    render.slow();
  } finally {
    slowBusy = false;
    render.live();
    if (slowAgain) {
      slowAgain = false;
      setTimeout(() => slowTick(true), 0);
    }
  }
}

/** "GET a: x", "GET b: x" -> "GET a, b: x": one failure cause is usually shared by every poll. */
function joinErrors(list) {
  const byCause = new Map();
  for (const e of list) {
    const m = /^(GET|POST) (\S+): ([\s\S]*)$/.exec(e);
    const [what, cause] = m ? [m[2], m[3]] : ['', e];
    if (!byCause.has(cause)) byCause.set(cause, []);
    if (what) byCause.get(cause).push(what);
  }
  return [...byCause].map(([cause, paths]) => (paths.length ? `GET ${paths.join(', ')}: ${cause}` : cause)).join(' · ');
}

export function refreshNow() {
  fastTick(true);
  slowTick(true);
}

/** Starts both polls, each once now and then on its interval. */
export function startPolling(renderers) {
  render = renderers;
  fastTick();
  slowTick();
  setInterval(fastTick, FAST_MS);
  setInterval(slowTick, SLOW_MS);
}
