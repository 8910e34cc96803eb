// Tenure web console: building and updating the DOM. Every string from the API reaches the page
// through textContent or an attribute (never innerHTML), so a hostile agent URI or error text stays
// text.

export const $ = (id) => document.getElementById(id);

export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  if (props) {
    for (const [k, v] of Object.entries(props)) {
      if (v == null || v === false) continue;
      if (k === 'class') el.className = v;
      else if (k === 'text') el.textContent = String(v);
      else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, v === true ? '' : String(v));
    }
  }
  for (const c of children.flat(Infinity)) {
    if (c == null || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

export function setText(el, text) {
  const s = text == null ? '' : String(text);
  if (el.textContent !== s) el.textContent = s;
}

export function setAttr(el, name, value) {
  if (value == null || value === false) {
    if (el.hasAttribute(name)) el.removeAttribute(name);
  } else {
    const s = value === true ? '' : String(value);
    if (el.getAttribute(name) !== s) el.setAttribute(name, s);
  }
}

export function setClass(el, cls) {
  if (el.className !== cls) el.className = cls;
}

/** Rebuilds el's children only when sig changed (keeps focus and hover otherwise). */
export function fillIfChanged(el, sig, build) {
  if (el._sig === sig) return;
  el._sig = sig;
  el.replaceChildren(...[build()].flat(Infinity).filter((c) => c != null && c !== false));
}

/** Keyed update of container's children: existing elements are updated in place. */
export function reconcile(container, items, keyOf, create, update) {
  const old = new Map();
  for (const el of container.children) old.set(el._key, el);
  let prev = null;
  for (const item of items) {
    const key = String(keyOf(item));
    let el = old.get(key);
    if (el) old.delete(key);
    else {
      el = create(item);
      el._key = key;
    }
    update(el, item);
    const want = prev ? prev.nextElementSibling : container.firstElementChild;
    if (want !== el) container.insertBefore(el, want);
    prev = el;
  }
  for (const el of old.values()) el.remove();
}
