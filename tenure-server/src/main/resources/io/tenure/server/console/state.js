// Tenure web console: what the page last read from the API, and what the operator chose; the polls
// write it, every view reads it.
import * as model from './model.js'; // the pure decisions
import { parseTime } from './format.js';

/** The most dead letters one poll reads for the chosen queue, and so the most the panel lists. */
export const DEAD_LIMIT = 50;

/** A page of the Messages panel: the most messages one poll reads for it. */
export const MESSAGES_LIMIT = 50;

export const state = {
  cluster: null,
  agents: null,
  queues: null,
  demo: null,
  demoMode: undefined, // undefined: not known yet, true: /api/demo answers, false: 404
  events: null,
  locks: null,
  schedules: null,
  dead: null, // {queue, messages}
  messages: null, // {path, messages}: the Messages panel's page as last read
  messagesError: null,
  // The Messages panel's choice: a queue, a filter, and the page (the ids after `after`; `pages`
  // holds the `after` of each page before it, for "previous").
  msgView: { queue: null, filter: { status: 'PENDING' }, after: 0, pages: [] },
  deadError: null,
  deadQueue: null,
  deadQueueChosen: false,
  chartQueue: null,
  history: new Map(), // queue name -> [{t, pending, inflight, oldest}]
  fastError: null,
  slowError: null,
  lastOkAt: 0,
  expanded: new Set(), // dead letter ids shown in full
  showDead: new Set(), // node names whose dead incarnations are unfolded
  seenEvents: null,
};

/** Age of an instant relative to the database clock of the last cluster poll. */
export function ageOf(iso) {
  const t = parseTime(iso);
  const now = parseTime(state.cluster?.now);
  if (t == null || now == null) return null;
  return now - t;
}

/** A queue's dead-letter count: the same number in the table, the tab, the note and the buttons. */
export function deadCountOf(q) {
  return model.deadCount(q, state.dead && state.dead.queue === q.name ? state.dead.messages : null, DEAD_LIMIT);
}

/** The Messages panel's read for its queue, filter and page; null while it has no queue. */
export function messagesPath() {
  const v = state.msgView;
  if (!v.queue) return null;
  return `api/queues/${encodeURIComponent(v.queue)}/messages?${model.messagesQuery(v.filter, v.after, MESSAGES_LIMIT)}`;
}
