/* global document, window, EventSource */
// The preview page: channel panels filled with HTML the server rendered (and escaped), kept live over SSE.
// Text the server sends (channel and guild names) goes in with textContent, never as markup.

const channelsRoot = document.getElementById('channels');
const channelList = document.getElementById('channel-list');
const connection = document.getElementById('connection');
const panels = new Map();

const RELATIVE = new Intl.RelativeTimeFormat('en', { numeric: 'always' });
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Same thresholds as the server's formatRelative (demo/preview/timestamps.ts). */
function formatRelative(ms, now) {
  const diff = ms - now;
  const abs = Math.abs(diff);
  const sign = diff < 0 ? -1 : 1;
  if (abs < 45 * SECOND) return RELATIVE.format(sign * Math.round(abs / SECOND), 'second');
  if (abs < 45 * MINUTE) return RELATIVE.format(sign * Math.max(1, Math.round(abs / MINUTE)), 'minute');
  if (abs < 22 * HOUR) return RELATIVE.format(sign * Math.max(1, Math.round(abs / HOUR)), 'hour');
  if (abs < 26 * DAY) return RELATIVE.format(sign * Math.max(1, Math.round(abs / DAY)), 'day');
  if (abs < 320 * DAY) return RELATIVE.format(sign * Math.max(1, Math.round(abs / (30 * DAY))), 'month');
  return RELATIVE.format(sign * Math.max(1, Math.round(abs / (365 * DAY))), 'year');
}

function refreshRelativeTimes(root) {
  const now = Date.now();
  for (const element of root.querySelectorAll('time[data-style="R"]')) {
    const ms = Number(element.dataset.ms);
    if (Number.isFinite(ms)) element.textContent = formatRelative(ms, now);
  }
}

function ensurePanel(channel) {
  let entry = panels.get(channel.id);
  if (entry) return entry;
  const panel = document.createElement('section');
  panel.className = 'channel';
  panel.id = `channel-${channel.id}`;
  panel.dataset.channelName = channel.name;
  const header = document.createElement('header');
  header.className = 'channel-header';
  const hash = document.createElement('span');
  hash.className = 'hash';
  hash.textContent = '#';
  const name = document.createElement('span');
  name.className = 'channel-name';
  name.textContent = channel.name;
  const tag = document.createElement('span');
  tag.className = 'routed-tag';
  const count = document.createElement('span');
  count.className = 'channel-count';
  header.append(hash, name, tag, count);
  const messages = document.createElement('div');
  messages.className = 'messages';
  panel.append(header, messages);
  channelsRoot.append(panel);

  const link = document.createElement('a');
  link.className = 'channel-link';
  link.href = `#channel-${channel.id}`;
  const linkName = document.createElement('span');
  linkName.textContent = `# ${channel.name}`;
  const badge = document.createElement('span');
  badge.className = 'badge';
  link.append(linkName, badge);
  channelList.append(link);

  entry = { panel, messages, count, tag, badge, link, rendered: new Map(), empty: undefined };
  panels.set(channel.id, entry);
  return entry;
}

/** A message element from the HTML the server rendered and escaped (render-message.ts): the one way markup comes in. */
function fromHtml(html) {
  const template = document.createElement('template');
  template.innerHTML = html;
  return template.content.firstElementChild;
}

/**
 * Brings a channel's list in line with the server's: new messages are added, changed ones replaced, old ones
 * dropped; a message already on the page stays the same element (no flicker, no lost hover or selection).
 */
function syncMessages(entry, items) {
  const list = entry.messages;
  const wanted = new Set(items.map((item) => item.id));
  for (const [id, shown] of entry.rendered) {
    const item = items.find((candidate) => candidate.id === id);
    if (!wanted.has(id) || item.html !== shown.html) {
      shown.element.remove();
      entry.rendered.delete(id);
    }
  }
  entry.empty?.remove();
  items.forEach((item, index) => {
    let shown = entry.rendered.get(item.id);
    if (!shown) {
      shown = { element: fromHtml(item.html), html: item.html };
      entry.rendered.set(item.id, shown);
    }
    const here = list.children[index] ?? null;
    if (here !== shown.element) list.insertBefore(shown.element, here);
  });
}

function applyChannel(channel) {
  const entry = ensurePanel(channel);
  const list = entry.messages;
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  syncMessages(entry, channel.items);
  if (channel.items.length === 0) {
    entry.empty ??= document.createElement('p');
    entry.empty.className = 'empty';
    entry.empty.textContent = channel.routed ? 'No messages yet: waiting for the feed…' : 'No feed is routed here.';
    list.append(entry.empty);
  }
  entry.panel.classList.toggle('routed', channel.routed);
  entry.panel.classList.toggle('has-messages', channel.messages > 0);
  entry.tag.textContent = channel.routed ? 'feed' : '';
  entry.count.textContent = `${channel.messages} message${channel.messages === 1 ? '' : 's'} · ${channel.embeds} embed${channel.embeds === 1 ? '' : 's'}`;
  entry.badge.textContent = channel.messages > 0 ? String(channel.messages) : '';
  entry.link.classList.toggle('has-messages', channel.messages > 0);
  refreshRelativeTimes(list);
  if (atBottom) list.scrollTop = list.scrollHeight;
}

function applyStatus(status) {
  document.body.classList.toggle('flowing', status.flowing === true);
  connection.textContent = status.flowing ? 'live · feed flowing' : 'live · waiting for the feed';
}

const events = new EventSource('/api/events');
events.addEventListener('guild', (event) => {
  const guild = JSON.parse(event.data);
  document.getElementById('guild-name').textContent = guild.name;
  document.title = `${guild.name} · feed preview`;
});
events.addEventListener('channel', (event) => applyChannel(JSON.parse(event.data)));
events.addEventListener('status', (event) => applyStatus(JSON.parse(event.data)));
events.addEventListener('error', () => {
  connection.textContent = 'reconnecting… (is the demo still running?)';
});

window.setInterval(() => refreshRelativeTimes(document), 10_000);
