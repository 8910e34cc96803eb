// Tenure web console: what an operator's click does around its call: the button, the toast, the
// refresh.
import { $, h } from './dom.js';
import { refreshNow } from './poll.js';

export function toast(message, kind = 'ok') {
  const box = $('toasts');
  const el = h(
    'div',
    { class: `toast toast-${kind}`, role: kind === 'error' ? 'alert' : 'status' },
    h('span', { class: 'toast-kind', text: kind === 'error' ? 'failed' : 'done' }),
    h('span', { class: 'toast-msg', text: message }),
    h('button', { type: 'button', class: 'toast-close', 'aria-label': 'dismiss', text: '×', onclick: () => el.remove() }),
  );
  box.append(el);
  while (box.children.length > 5) box.firstElementChild.remove();
  setTimeout(() => el.remove(), kind === 'error' ? 9000 : 5000);
}

/** Runs a mutating call from a button: disables it meanwhile, toasts the outcome, refreshes. */
export async function act(button, label, call, describe) {
  if (button) button.disabled = true;
  try {
    const result = await call();
    toast(describe ? describe(result) : `${label}: done`, 'ok');
  } catch (e) {
    toast(`${label}: ${e.message}`, 'error');
  } finally {
    if (button && button.isConnected) button.disabled = false;
    refreshNow();
  }
}
