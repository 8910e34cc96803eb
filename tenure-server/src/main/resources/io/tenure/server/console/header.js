// Tenure web console: the top bar (leader, store, database clock, serving node) and whether the
// page is live or stale.
import { $, setAttr, setClass, setText } from './dom.js';
import { fmtAge, fmtClock, fmtDate, parseTime, shortId } from './format.js';
import { ageOf, state } from './state.js';

export function renderHeader() {
  const c = state.cluster;
  if (!c) return;
  const leader = c.leader;
  const nameEl = $('leader-name');
  if (leader) {
    setText(nameEl, `♛ ${leader.name ?? shortId(leader.nodeId)}`);
    setClass(nameEl, 'leader-name');
    setText($('leader-epoch'), `epoch ${leader.epoch}`);
    const left = parseTime(leader.expiresAt) != null ? -ageOf(leader.expiresAt) : null;
    setText($('leader-expiry'), left == null ? '' : left >= 0 ? `lease ${fmtAge(left)} left` : `lease expired ${fmtAge(-left)} ago`);
  } else {
    setText(nameEl, 'no leader');
    setClass(nameEl, 'leader-name leader-none');
    setText($('leader-epoch'), '');
    setText($('leader-expiry'), 'no lease held');
  }
  const store = c.store ?? {};
  setText($('store-provider'), store.provider ?? '?');
  setText($('store-location'), store.location ?? '');
  setAttr($('store-location'), 'title', store.location ?? null);
  setText($('store-prefix'), store.prefix ? `table prefix ${store.prefix}` : '');
  setText($('db-clock'), `${fmtClock(c.now)} UTC`);
  setText($('db-date'), fmtDate(c.now));
  if (c.self) {
    setText($('self-name'), c.self.name ?? shortId(c.self.nodeId));
    setText($('self-sub'), `node ${shortId(c.self.nodeId)}`);
  } else {
    setText($('self-name'), state.demoMode ? 'demo supervisor' : 'not a node');
    setText($('self-sub'), 'agent actions go to the leader');
  }
}

export function renderLive() {
  const live = $('live');
  const err = state.fastError || state.slowError;
  const banner = $('stale-banner');
  if (!state.lastOkAt && !err) {
    setClass(live, 'live live-pending');
    setText($('live-text'), 'connecting…');
    return;
  }
  if (err) {
    setClass(live, 'live live-stale');
    setText($('live-text'), 'stale');
    const since = state.lastOkAt ? `last good poll ${fmtAge(Date.now() - state.lastOkAt)} ago` : 'no good poll yet';
    setText($('live-sub'), since);
    setAttr(live, 'title', err);
    banner.hidden = false;
    setText(banner, `Polling failed (${since}): ${err}`);
    document.body.classList.add('is-stale');
  } else {
    setClass(live, 'live live-ok');
    setText($('live-text'), 'live');
    setText($('live-sub'), `polled ${fmtAge(Date.now() - state.lastOkAt)} ago`);
    setAttr(live, 'title', null);
    banner.hidden = true;
    document.body.classList.remove('is-stale');
  }
}
