// The web client: a Discord member's view of the local server, kept live over one WebSocket.
// Plain DOM code, no framework and no build step: the server sends messages with their markdown already rendered
// (safe HTML), and this file draws them, their embeds and components, the command box and forms.
"use strict";

const $ = (id) => document.getElementById(id);
const S = {
  ws: null,
  seq: 0,
  me: null,
  bot: null,
  members: [],
  channels: [],
  commands: [],
  entries: [],
  hosting: false,
  channel: sessionStorage.getItem("ld.channel"),
  historyKey: null,
  messages: new Map(),
  pending: new Map(),
  command: null,
  active: -1,
  modal: null,
  autocomplete: null,
  unread: new Set(),
  dismissed: new Set(JSON.parse(sessionStorage.getItem("ld.dismissed") || "[]")),
  retry: 0,
  pinned: true,
};
const BUTTON_STYLES = { 1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link", 6: "premium" };

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "html") node.innerHTML = value; // only ever HTML the server rendered from markdown (escaped)
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) if (child !== null && child !== undefined) node.append(child);
  return node;
}

// -- connection -------------------------------------------------------------------------------------------------

function connect() {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/client/ws`);
  S.ws = ws;
  ws.onopen = () => {
    S.retry = 0;
    status("");
    send({ op: "hello", member: sessionStorage.getItem("ld.member") });
  };
  ws.onmessage = (event) => handle(JSON.parse(event.data));
  ws.onclose = () => {
    if (S.ws !== ws) return;
    S.historyKey = null;
    status("Reconnecting to the local server…");
    setTimeout(connect, Math.min(5000, 250 * 2 ** S.retry++));
  };
}

function send(frame) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send(JSON.stringify(frame));
  else notice("Not connected to the local server; try again in a moment.");
}

function request(frame, pending = {}) {
  const seq = ++S.seq;
  S.pending.set(seq, pending);
  send({ ...frame, seq });
  return seq;
}

function status(text, retry) {
  const again = retry ? el("button", { type: "button", class: "link-button", onclick: retry }, "Try again") : null;
  $("connection").replaceChildren(text, ...(again ? [" ", again] : []));
  $("connection").hidden = !text;
}

function handle(frame) {
  switch (frame.op) {
    case "need_join":
      S.ws = null;
      showJoin(frame.code, true);
      break;
    case "too_many_tabs":
      S.ws = null; // not reconnecting by itself: one of this browser's other tabs must close first
      status(frame.text, () => connect());
      break;
    case "state":
      onState(frame);
      break;
    case "history":
      onHistory(frame);
      break;
    case "message":
      onMessage(frame.message);
      break;
    case "channel":
      upsertChannel(frame.channel);
      drawChannels();
      break;
    case "member":
      upsertMember(frame.member);
      break;
    case "modal":
      openModal(frame.interaction, frame.modal);
      break;
    case "choices":
      showChoices(frame.seq, frame.choices);
      break;
    case "done":
    case "failed":
    case "refused":
      settle(frame);
      break;
  }
}

function settle(frame) {
  const pending = S.pending.get(frame.seq) || {};
  S.pending.delete(frame.seq);
  if (pending.control) {
    pending.control.removeAttribute("aria-busy");
    pending.control.classList.remove("busy");
  }
  if (frame.op === "done") {
    if (pending.kind === "modal") closeModal();
    return;
  }
  if (pending.kind === "modal" && $("modal").open) {
    $("modal-error").textContent = frame.text;
    $("modal-submit").disabled = false;
  } else if (pending.kind === "join") {
    $("join-error").textContent = frame.text;
  } else if (pending.kind === "slash" && frame.op === "refused") {
    $("composer-error").textContent = frame.text;
  } else if (pending.kind !== "autocomplete") {
    notice(frame.text, pending.after);
  }
}

// -- joining and members -----------------------------------------------------------------------------------------

function showJoin(needsCode, admitting) {
  S.admitting = admitting;
  $("join-code-row").hidden = !needsCode;
  const mine = S.members.filter((m) => m.mine);
  $("join-mine-intro").hidden = mine.length === 0;
  $("join-mine").replaceChildren(
    ...mine.map((m) =>
      el("li", {}, el("button", { type: "button", class: "secondary", onclick: () => switchTo(m.id) }, m.name)),
    ),
  );
  if (!$("join").open) $("join").showModal();
  (needsCode ? $("join-code") : $("join-name")).focus();
}

async function submitJoin(event) {
  event.preventDefault();
  $("join-error").textContent = "";
  const name = $("join-name").value.trim();
  if (S.admitting) {
    const response = await fetch("/client/join", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ code: $("join-code").value }),
    });
    const body = await response.json();
    if (!body.ok) {
      $("join-error").textContent = body.error;
      return;
    }
    S.admitting = false;
    sessionStorage.setItem("ld.pendingName", name);
    connect();
    return;
  }
  if (!name) {
    $("join-error").textContent = "Type the name others will see.";
    return;
  }
  request({ op: "join", name }, { kind: "join" });
}

function switchTo(memberId) {
  send({ op: "switch", member: memberId });
}

function onState(frame) {
  const changedMember = !S.me || !frame.me || S.me.id !== frame.me.id;
  Object.assign(S, {
    me: frame.me,
    bot: frame.bot,
    members: frame.members,
    channels: frame.channels,
    commands: frame.commands,
    hosting: frame.hosting,
  });
  S.entries = commandEntries(frame.commands);
  $("guild-name").textContent = frame.guild.name;
  document.title = frame.guild.name;
  if (!S.me) {
    sessionStorage.removeItem("ld.member");
    const pendingName = sessionStorage.getItem("ld.pendingName");
    if (pendingName) {
      sessionStorage.removeItem("ld.pendingName");
      request({ op: "join", name: pendingName }, { kind: "join" });
      return;
    }
    showJoin(false, false);
    return;
  }
  if ($("join").open) $("join").close();
  sessionStorage.setItem("ld.member", S.me.id);
  if (!S.channels.some((c) => c.id === S.channel)) S.channel = S.channels[0]?.id;
  drawMe();
  drawMembers();
  drawChannels();
  if (changedMember || S.historyKey !== `${S.me.id}:${S.channel}`) openChannel(S.channel);
  if (S.command && !S.entries.some((e) => e.path === S.command.path)) clearCommand();
}

function drawMe() {
  $("me-name").textContent = S.me.name + (S.me.manager ? " · server manager" : "");
  const select = $("switch-member");
  const mine = S.members.filter((m) => m.mine);
  select.replaceChildren(
    ...mine.map((m) => el("option", { value: m.id, selected: m.id === S.me.id }, m.name)),
    el("option", { value: "new" }, "Someone new…"),
  );
}

// Someone joined (their browser's own tabs get a whole new state instead).
function upsertMember(member) {
  const index = S.members.findIndex((m) => m.id === member.id);
  if (index >= 0) S.members[index] = { ...member, mine: S.members[index].mine };
  else S.members.push(member);
  drawMembers();
}

function drawMembers() {
  const list = $("member-list");
  const iManage = S.me && S.me.manager;
  list.replaceChildren(
    ...S.members.map((m) => {
      const id = `manager-${m.id}`;
      const toggle = el("input", {
        type: "checkbox",
        id,
        checked: m.manager,
        disabled: !iManage || m.owner,
        onchange: (e) => request({ op: "manager", member: m.id, on: e.target.checked }, { kind: "manager" }),
      });
      return el(
        "li",
        { class: "member" },
        el("span", { class: "member-name" }, m.name, m.owner ? el("span", { class: "badge", text: "owner" }) : null),
        el("label", { class: "manager-toggle", for: id }, toggle, " Server manager"),
      );
    }),
  );
}

// -- channels and messages ---------------------------------------------------------------------------------------

function upsertChannel(channel) {
  const index = S.channels.findIndex((c) => c.id === channel.id);
  if (index >= 0) S.channels[index] = channel;
  else S.channels.push(channel);
}

function channelLabel(c) {
  if (c.type === 1) return `@${c.name}`;
  return c.type === 11 || c.type === 12 ? c.name : `# ${c.name}`;
}

function drawChannels() {
  const top = S.channels.filter((c) => c.type === 0);
  const item = (c) => {
    const current = c.id === S.channel;
    const threads = S.channels.filter((t) => (t.type === 11 || t.type === 12) && t.parent_id === c.id && !t.archived);
    return el(
      "li",
      { class: c.type === 0 ? "channel" : "channel thread" },
      el(
        "a",
        {
          href: `#${c.id}`,
          "aria-current": current ? "page" : null,
          class: S.unread.has(c.id) ? "unread" : null,
          onclick: (e) => {
            e.preventDefault();
            openChannel(c.id);
            closeSidebar();
          },
        },
        channelLabel(c),
        S.unread.has(c.id) ? el("span", { class: "visually-hidden" }, " (new messages)") : null,
      ),
      threads.length ? el("ul", { class: "threads", "aria-label": `Threads in ${c.name}` }, threads.map(item)) : null,
    );
  };
  const dms = S.channels.filter((c) => c.type === 1);
  $("channels").replaceChildren(
    ...top.map(item),
    ...(dms.length ? [el("li", { class: "heading" }, "Direct messages"), ...dms.map(item)] : []),
  );
}

function openChannel(id) {
  if (!id) return;
  S.channel = id;
  sessionStorage.setItem("ld.channel", id);
  S.unread.delete(id);
  S.messages.clear();
  S.pinned = true;
  $("message-list").replaceChildren();
  const channel = S.channels.find((c) => c.id === id);
  $("channel-name").textContent = channel ? channelLabel(channel) : "";
  S.historyKey = `${S.me.id}:${id}`;
  send({ op: "history", channel: id });
  drawChannels();
}

function onHistory(frame) {
  if (frame.channel !== S.channel) return;
  const list = $("message-list");
  const box = $("messages");
  const fromBottom = box.scrollHeight - box.scrollTop; // earlier messages go above what the reader is reading
  const older = list.querySelector(".load-older");
  if (older) older.remove();
  const first = list.firstChild;
  for (const m of frame.messages) {
    if (S.dismissed.has(m.id)) continue;
    S.messages.set(m.id, m);
    list.insertBefore(drawMessage(m), first);
  }
  if (!frame.complete && frame.messages.length) {
    const before = frame.messages[0].id;
    list.prepend(
      el("button", { type: "button", class: "load-older secondary",
        onclick: () => send({ op: "history", channel: S.channel, before }) }, "Load earlier messages"),
    );
  }
  if (!first || S.pinned) stickToBottom();
  else box.scrollTop = box.scrollHeight - fromBottom;
}

function onMessage(m) {
  if (m.channel_id !== S.channel) {
    if (!m.deleted && !S.messages.has(m.id)) {
      S.unread.add(m.channel_id);
      drawChannels();
    }
    return;
  }
  const list = $("message-list");
  const existing = list.querySelector(`[data-id="${m.id}"]`);
  if (m.deleted || S.dismissed.has(m.id)) {
    S.messages.delete(m.id);
    if (existing) existing.remove();
    return;
  }
  S.messages.set(m.id, m);
  const node = drawMessage(m);
  if (existing) {
    const focused = existing.contains(document.activeElement) ? document.activeElement : null;
    existing.replaceWith(node);
    if (focused) refocus(node, focused);
  } else list.append(node);
  // As in Discord: the view follows new messages while the reader is at the bottom, and always shows the answer
  // to their own command; a reader who scrolled up to read stays where they are.
  if (S.pinned || (!existing && S.me && m.invoker === S.me.name)) stickToBottom();
}

// Whether the reader is at the bottom is decided by their own scrolling; while they are, every change of size
// (a message drawn, a picture loaded, the window resized) keeps the newest message in view.
function followScrolling() {
  const box = $("messages");
  box.addEventListener("scroll", () => {
    S.pinned = box.scrollHeight - box.scrollTop - box.clientHeight < 24;
  });
  const follow = new ResizeObserver(() => {
    if (S.pinned) box.scrollTop = box.scrollHeight;
  });
  follow.observe(box);
  follow.observe($("message-list"));
}

function stickToBottom() {
  const box = $("messages");
  S.pinned = true;
  box.scrollTop = box.scrollHeight;
}

function refocus(node, old) {
  // After an edit, keep the keyboard on the same control (same custom id), or the message itself; the view stays
  // where the reader has it (focusing must not scroll it, which would read as the reader scrolling away).
  const id = old.dataset && old.dataset.customId;
  const again = id ? node.querySelector(`[data-custom-id="${CSS.escape(id)}"]`) : null;
  (again && !again.disabled ? again : node).focus({ preventScroll: true });
}

function memberName(id) {
  if (S.bot && id === S.bot.id) return S.bot.name;
  const found = S.members.find((m) => m.id === id);
  return found ? found.name : "Someone";
}

function when(iso) {
  const date = new Date(iso);
  const today = new Date().toDateString() === date.toDateString();
  const time = date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  return today ? `Today at ${time}` : `${date.toLocaleDateString()} ${time}`;
}

function drawMessage(m) {
  const mentioned = S.me && m.mentions.includes(S.me.id);
  const node = el("article", {
    class: `message${mentioned ? " mentioned" : ""}${m.ephemeral ? " ephemeral" : ""}`,
    "data-id": m.id,
    tabindex: "-1",
    "aria-label": `${m.author.name}${m.invoked ? `, answering ${m.invoker} (${m.invoked})` : ""}`,
  });
  if (m.invoked) node.append(el("div", { class: "invoked" }, `${m.invoker} used `, el("code", {}, m.invoked)));
  node.append(
    el(
      "header",
      {},
      el("span", { class: "author" }, m.author.name),
      el("span", { class: "app-tag", "aria-label": "app" }, "APP"),
      el("time", { datetime: m.timestamp, class: "sent" }, when(m.timestamp)),
      m.edited ? el("span", { class: "edited" }, "(edited)") : null,
    ),
  );
  if (m.loading) node.append(el("div", { class: "thinking" }, `${m.author.name} is thinking…`));
  if (m.html) node.append(el("div", { class: "content markdown", html: m.html }));
  for (const embed of m.embeds) node.append(drawEmbed(embed, m.id));
  for (const file of m.attachments) node.append(drawAttachment(file));
  if (m.components.length) node.append(drawComponents(m));
  if (m.thread) {
    node.append(
      el("button", { type: "button", class: "thread-link secondary", onclick: () => openChannel(m.thread.id) },
        `🧵 ${m.thread.name}`),
    );
  }
  if (m.ephemeral) {
    node.append(
      el(
        "div",
        { class: "ephemeral-note" },
        el("span", { "aria-hidden": "true" }, "👁 "),
        "Only you can see this · ",
        el("button", { type: "button", class: "link-button", onclick: () => dismiss(m.id) }, "Dismiss message"),
      ),
    );
  }
  decorate(node);
  return node;
}

function dismiss(id) {
  S.dismissed.add(id);
  sessionStorage.setItem("ld.dismissed", JSON.stringify([...S.dismissed].slice(-500)));
  const node = $("message-list").querySelector(`[data-id="${id}"]`);
  if (node) node.remove();
}

function drawEmbed(e, messageId) {
  const color = e.color === null || e.color === undefined ? null : `#${e.color.toString(16).padStart(6, "0")}`;
  const descId = `embed-desc-${messageId}-${Math.random().toString(36).slice(2, 8)}`;
  const title = e.title ? el("div", { class: "embed-title markdown", html: e.title }) : null;
  return el(
    "section",
    { class: "embed", style: color ? `border-left-color: ${color}` : null, "aria-label": "Embed" },
    el(
      "div",
      { class: "embed-body" },
      e.author ? el("div", { class: "embed-author" }, e.author) : null,
      title,
      e.description ? el("div", { class: "embed-description markdown", id: descId, html: e.description }) : null,
      e.fields.length
        ? el(
            "dl",
            { class: "embed-fields" },
            e.fields.map((f) =>
              el(
                "div",
                { class: f.inline ? "field inline" : "field" },
                el("dt", { class: "markdown", html: f.name }),
                el("dd", { class: "markdown", html: f.value }),
              ),
            ),
          )
        : null,
      e.image ? picture(e.image, e, e.description ? descId : null, "embed-image") : null,
      e.footer || e.timestamp
        ? el("div", { class: "embed-footer" }, e.footer || "", e.timestamp ? ` · ${when(e.timestamp)}` : "")
        : null,
    ),
    e.thumbnail ? picture(e.thumbnail, e, null, "embed-thumbnail") : null,
  );
}

function picture(file, embed, describedBy, cls) {
  // Alt text: the file's own description (what Discord calls it), else the embed's title; the embed's text,
  // which says the same as the picture, is linked as its longer description.
  const title = embed && embed.title ? el("div", { html: embed.title }).textContent : "";
  const alt = file.alt || (title ? `Picture: ${title}` : `Picture ${file.filename || ""}`.trim());
  return el(
    "a",
    { href: file.url, target: "_blank", rel: "noopener", class: cls },
    el("img", { src: file.url, alt, "aria-describedby": describedBy, loading: "lazy", style: pictureSize(file, cls) }),
  );
}

// The room a picture takes, known before it loads (the attachment's width and height, as Discord's client uses
// them): scaled down to fit the largest box it is shown in, and narrower still when the message is.
const PICTURE_BOX = [520, 420]; // a thumbnail has a fixed box of its own (app.css)

function pictureSize(file, cls) {
  const { width, height } = file;
  if (cls === "embed-thumbnail" || !(width > 0 && height > 0)) return null;
  const [wide, high] = PICTURE_BOX;
  const scale = Math.min(1, wide / width, high / height);
  return `width: ${Math.round(width * scale)}px; aspect-ratio: ${width} / ${height}`;
}

function drawAttachment(file) {
  if (file.image) return picture(file, null, null, "attachment-image");
  return el("a", { class: "attachment-file", href: file.url, download: file.filename }, `📄 ${file.filename}`);
}

function decorate(node) {
  for (const t of node.querySelectorAll("time[data-style]")) formatTime(t);
  for (const s of node.querySelectorAll(".spoiler")) {
    const reveal = () => {
      s.classList.add("revealed");
      s.setAttribute("aria-expanded", "true");
    };
    s.addEventListener("click", reveal);
    s.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        reveal();
      }
    });
  }
  if (S.me) for (const u of node.querySelectorAll(`.mention.user[data-user="${S.me.id}"]`)) u.classList.add("me");
  for (const c of node.querySelectorAll(".mention.channel")) {
    c.tabIndex = 0;
    c.setAttribute("role", "link");
    c.addEventListener("click", () => openChannel(c.dataset.channel));
  }
}

const RELATIVE = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
const TIME_STYLES = {
  t: { timeStyle: "short" },
  T: { timeStyle: "medium" },
  d: { dateStyle: "short" },
  D: { dateStyle: "long" },
  f: { dateStyle: "long", timeStyle: "short" },
  F: { dateStyle: "full", timeStyle: "short" },
};

function formatTime(t) {
  const date = new Date(t.getAttribute("datetime"));
  t.title = date.toLocaleString();
  if (t.dataset.style !== "R") {
    t.textContent = date.toLocaleString(undefined, TIME_STYLES[t.dataset.style] || TIME_STYLES.f);
    return;
  }
  const seconds = (date - Date.now()) / 1000;
  const units = [["year", 31536000], ["month", 2592000], ["day", 86400], ["hour", 3600], ["minute", 60]];
  const [unit, size] = units.find(([, s]) => Math.abs(seconds) >= s) || ["second", 1];
  t.textContent = RELATIVE.format(Math.round(seconds / size), unit);
}

setInterval(() => document.querySelectorAll('time[data-style="R"]').forEach(formatTime), 1000);

function notice(text, after) {
  const node = el(
    "div",
    { class: "notice", role: "alert" },
    el("span", {}, text),
    el("button", { type: "button", class: "link-button", onclick: () => node.remove() }, "Dismiss"),
  );
  const anchor = after && after.isConnected ? after : null;
  if (anchor) anchor.after(node);
  else $("message-list").append(node);
  if (!anchor) stickToBottom();
}

// -- components --------------------------------------------------------------------------------------------------

function emojiText(emoji) {
  if (!emoji) return "";
  return emoji.id ? `:${emoji.name}:` : emoji.name;
}

function drawComponents(m) {
  const box = el("div", { class: "components" });
  for (const row of m.components) {
    if (row.type !== 1) continue;
    box.append(el("div", { class: "component-row" }, (row.components || []).map((c) => drawComponent(c, m, box))));
  }
  return box;
}

function drawComponent(c, m, box) {
  if (c.type === 2) {
    const label = [emojiText(c.emoji), c.label || ""].filter(Boolean).join(" ");
    if (c.style === 5) {
      return el("a", { class: "button button-link", href: c.url, target: "_blank", rel: "noopener" }, `${label} ↗`);
    }
    const button = el(
      "button",
      { type: "button", class: `button button-${BUTTON_STYLES[c.style] || "secondary"}`, disabled: c.disabled,
        "data-custom-id": c.custom_id },
      label,
    );
    button.addEventListener("click", () => {
      button.setAttribute("aria-busy", "true");
      button.classList.add("busy");
      request({ op: "click", message: m.id, custom_id: c.custom_id }, { kind: "click", control: button, after: box });
    });
    return button;
  }
  if ([3, 5, 6, 7, 8].includes(c.type)) return drawSelect(c, m, box);
  return null;
}

function selectOptions(c) {
  if (c.type === 3) return c.options || [];
  if (c.type === 5 || c.type === 7) return S.members.map((u) => ({ label: u.name, value: u.id }));
  if (c.type === 8) {
    return S.channels
      .filter((ch) => ch.type !== 1 && (!c.channel_types || c.channel_types.includes(ch.type)))
      .map((ch) => ({ label: channelLabel(ch), value: ch.id }));
  }
  return [];
}

function drawSelect(c, m, box) {
  const options = selectOptions(c);
  const low = c.min_values ?? 1;
  const high = Math.min(c.max_values ?? 1, options.length || 1);
  const multi = high > 1;
  const chosen = options.filter((o) => o.default).map((o) => o.label);
  const menuId = `menu-${m.id}-${c.custom_id}`.replace(/[^\w-]/g, "_");
  const toggle = el(
    "button",
    { type: "button", class: "select-toggle", "aria-haspopup": "true", "aria-expanded": "false",
      "aria-controls": menuId, disabled: c.disabled, "data-custom-id": c.custom_id },
    el("span", {}, chosen.length ? chosen.join(", ") : c.placeholder || "Make a selection"),
    el("span", { "aria-hidden": "true" }, " ▾"),
  );
  const menu = el("div", { class: "select-menu", id: menuId, role: "group", "aria-label": c.placeholder || "Options",
    hidden: true });
  const pick = (values, control) => {
    close();
    request({ op: "select", message: m.id, custom_id: c.custom_id, values },
      { kind: "select", control: control || toggle, after: box });
  };
  const close = () => {
    menu.hidden = true;
    toggle.setAttribute("aria-expanded", "false");
  };
  const describe = (o) => [
    el("span", { class: "option-label" }, [emojiText(o.emoji), o.label].filter(Boolean).join(" ")),
    o.description ? el("span", { class: "option-description" }, o.description) : null,
  ];
  if (multi) {
    const apply = el("button", { type: "button", class: "apply" }, "Choose");
    const boxes = options.map((o) => el("input", { type: "checkbox", value: o.value, checked: o.default }));
    const update = () => {
      const n = boxes.filter((b) => b.checked).length;
      apply.disabled = n < low || n > high;
      apply.textContent = `Choose (${n})`;
    };
    boxes.forEach((b) => b.addEventListener("change", update));
    menu.append(
      el("p", { class: "select-hint" }, low === high ? `Pick ${low}.` : `Pick ${low} to ${high}.`),
      ...options.map((o, i) => el("label", { class: "option" }, boxes[i], el("span", {}, describe(o)))),
      apply,
    );
    apply.addEventListener("click", () => pick(boxes.filter((b) => b.checked).map((b) => b.value)));
    update();
  } else {
    menu.append(
      ...options.map((o) =>
        el("button", { type: "button", class: "option", role: "menuitem", onclick: () => pick([o.value]) }, describe(o)),
      ),
    );
  }
  menu.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      close();
      toggle.focus();
    }
  });
  toggle.addEventListener("click", () => {
    const open = menu.hidden;
    menu.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
    if (open) menu.querySelector("button, input")?.focus();
  });
  return el("div", { class: "select" }, toggle, menu);
}

// -- the slash command box ---------------------------------------------------------------------------------------

function commandEntries(commands) {
  const entries = [];
  const walk = (path, options, description) => {
    const subs = (options || []).filter((o) => o.type === 1 || o.type === 2);
    if (subs.length === 0) entries.push({ path: path.join(" "), description, options: options || [] });
    for (const sub of subs) walk([...path, sub.name], sub.options, sub.description);
  };
  for (const c of commands) walk([c.name], c.options, c.description);
  return entries.sort((a, b) => a.path.localeCompare(b.path));
}

// As Discord's picker: what is typed matches the start of any word of a command's full name ("/v" finds /vic …,
// /vv … and /dice verify; "/turn e" finds /vic turn end); names that start with it come first, each command's
// subcommands together, and the list scrolls to every one of them.
function matchCommands(query) {
  const q = query.toLowerCase().replace(/\s+/g, " ").trim();
  const starts = [];
  const within = [];
  for (const e of S.entries) {
    if (e.path.startsWith(q)) starts.push(e);
    else if ([...e.path.matchAll(/ /g)].some((space) => e.path.startsWith(q, space.index + 1))) within.push(e);
  }
  return [...starts, ...within];
}

function onComposerInput() {
  const input = $("composer-input");
  const text = input.value;
  if (S.command && !text.startsWith(`/${S.command.path}`)) clearCommand(false);
  $("composer-error").textContent = "";
  if (S.command || !text.startsWith("/")) {
    hideList();
    return;
  }
  // A space after a whole command's name picks it, as Discord's box does: what follows fills its options.
  const named = S.entries.find((e) => text === `/${e.path} `);
  if (named) {
    pickCommand(named);
    return;
  }
  showList(matchCommands(text.slice(1)));
}

function showList(matches) {
  const list = $("command-list");
  S.matches = matches;
  S.active = matches.length ? 0 : -1;
  const app = S.bot ? S.bot.name : "Commands";
  const items = matches.map((e, i) =>
    el(
      "li",
      { id: `cmd-${i}`, role: "option", "aria-selected": String(i === S.active),
        class: i > 0 && topName(matches[i - 1]) !== topName(e) ? "command-group-start" : null,
        onmousedown: (ev) => {
          ev.preventDefault();
          pickCommand(e);
        } },
      el("span", { class: "command-path" }, `/${e.path}`), " ",
      el("span", { class: "command-description" }, e.description),
    ),
  );
  list.replaceChildren(
    ...(matches.length
      ? [el("li", { role: "group", "aria-labelledby": "command-app" },
          el("div", { id: "command-app", class: "command-app" }, app),
          el("ul", { role: "none", class: "command-items" }, items))]
      : []),
  );
  list.hidden = matches.length === 0;
  $("composer-input").setAttribute("aria-expanded", String(!list.hidden));
  markActive();
}

function topName(entry) {
  return entry.path.split(" ", 1)[0];
}

function hideList() {
  $("command-list").hidden = true;
  $("composer-input").setAttribute("aria-expanded", "false");
  $("composer-input").removeAttribute("aria-activedescendant");
}

function markActive() {
  const items = $("command-list").querySelectorAll('[role="option"]');
  for (let i = 0; i < items.length; i++) items[i].setAttribute("aria-selected", String(i === S.active));
  if (S.active >= 0) {
    $("composer-input").setAttribute("aria-activedescendant", `cmd-${S.active}`);
    items[S.active].scrollIntoView({ block: "nearest" });
  }
}

function onComposerKey(e) {
  const open = !$("command-list").hidden;
  if (open && (e.key === "ArrowDown" || e.key === "ArrowUp")) {
    e.preventDefault();
    const n = S.matches.length;
    S.active = (S.active + (e.key === "ArrowDown" ? 1 : n - 1)) % n;
    markActive();
  } else if (open && (e.key === "Enter" || e.key === "Tab") && S.active >= 0) {
    const entry = S.matches[S.active];
    // The whole name typed, and nothing more needed: Enter sends it; otherwise it picks the command to fill in.
    const ready = e.key === "Enter" && e.target.value.trim() === `/${entry.path}` && !entry.options.some((o) => o.required);
    if (ready) return;
    e.preventDefault();
    pickCommand(entry);
  } else if (e.key === "Escape") {
    if (open) hideList();
    else clearCommand();
  }
}

function pickCommand(entry) {
  S.command = entry;
  hideList();
  const input = $("composer-input");
  input.value = `/${entry.path} `;
  drawOptions(entry);
  const first = $("command-options").querySelector("input, select, textarea");
  (first || input).focus();
}

function clearCommand(clearText = true) {
  S.command = null;
  $("command-options").replaceChildren();
  if (clearText) $("composer-input").value = "";
  hideList();
}

const OPTION_KINDS = { 3: "text", 4: "whole number", 5: "yes or no", 6: "member", 7: "channel", 8: "role",
  9: "member", 10: "number", 11: "file" };

function drawOptions(entry) {
  const box = $("command-options");
  box.replaceChildren(
    ...entry.options.map((o) => {
      const id = `opt-${o.name}`;
      const hint = `${o.description}${o.required ? "" : " (optional)"}`;
      return el(
        "div",
        { class: `option-field${o.required ? " required" : ""}` },
        el("label", { for: id }, o.name, o.required ? el("span", { class: "req", "aria-hidden": "true" }, " *") : null),
        optionControl(o, id),
        el("small", { id: `${id}-hint` }, hint),
      );
    }),
  );
}

function optionControl(o, id) {
  const common = { id, name: o.name, "aria-describedby": `${id}-hint`, required: o.required };
  if (o.choices && o.choices.length) {
    return el("select", common, el("option", { value: "" }, "Choose…"),
      o.choices.map((c) => el("option", { value: JSON.stringify(c.value) }, c.name)));
  }
  if (o.type === 5) {
    return el("select", common, el("option", { value: "" }, "Choose…"), el("option", { value: "true" }, "True"),
      el("option", { value: "false" }, "False"));
  }
  if (o.type === 6 || o.type === 9) {
    return el("select", common, el("option", { value: "" }, "Choose a member…"),
      S.members.map((m) => el("option", { value: m.id }, m.name)));
  }
  if (o.type === 7) {
    const kinds = o.channel_types;
    return el("select", common, el("option", { value: "" }, "Choose a channel…"),
      S.channels.filter((c) => c.type !== 1 && (!kinds || kinds.includes(c.type)))
        .map((c) => el("option", { value: c.id }, channelLabel(c))));
  }
  if (o.type === 11) return el("input", { ...common, type: "file" });
  if (o.type === 4 || o.type === 10) {
    return el("input", { ...common, type: "number", step: o.type === 4 ? "1" : "any", min: o.min_value,
      max: o.max_value });
  }
  const input = el("input", { ...common, type: "text", minlength: o.min_length, maxlength: o.max_length });
  if (o.autocomplete) return autocompleteField(input, o);
  return input;
}

function autocompleteField(input, o) {
  const listId = `${input.id}-choices`;
  input.setAttribute("role", "combobox");
  input.setAttribute("aria-autocomplete", "list");
  input.setAttribute("aria-controls", listId);
  input.setAttribute("aria-expanded", "false");
  const list = el("ul", { id: listId, class: "choices", role: "listbox", "aria-label": `Choices for ${o.name}`,
    hidden: true });
  const state = { input, list, option: o, choices: [], active: -1, timer: null };
  const ask = () => {
    clearTimeout(state.timer);
    state.timer = setTimeout(() => {
      if (!S.command || !input.isConnected) return; // sent or dropped meanwhile: nothing to complete
      S.autocomplete = state;
      state.seq = request(
        { op: "autocomplete", channel: S.channel, command: S.command.path, focused: o.name,
          options: { ...rawOptions(), [o.name]: input.value } },
        { kind: "autocomplete" },
      );
    }, 150);
  };
  input.addEventListener("input", () => {
    delete input.dataset.value;
    ask();
  });
  input.addEventListener("focus", ask);
  input.addEventListener("blur", () => setTimeout(() => document.activeElement !== input && closeChoices(state), 150));
  input.addEventListener("keydown", (e) => {
    if (list.hidden) return;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const n = state.choices.length;
      state.active = (state.active + (e.key === "ArrowDown" ? 1 : n - 1)) % n;
      markChoice(state);
    } else if (e.key === "Enter" && state.active >= 0) {
      e.preventDefault();
      takeChoice(state, state.choices[state.active]);
    } else if (e.key === "Escape") {
      closeChoices(state);
    }
  });
  return el("div", { class: "autocomplete" }, input, list);
}

function showChoices(seq, choices) {
  const state = S.autocomplete;
  if (!state || state.seq !== seq || document.activeElement !== state.input) return;
  state.choices = choices;
  state.active = choices.length ? 0 : -1;
  state.list.replaceChildren(
    ...choices.map((c, i) =>
      el("li", { id: `${state.input.id}-choice-${i}`, role: "option", onmousedown: (e) => {
        e.preventDefault();
        takeChoice(state, c);
      } }, c.name),
    ),
  );
  if (!choices.length) state.list.append(el("li", { class: "empty", role: "option", "aria-disabled": "true" }, "No matches"));
  state.list.hidden = false;
  state.input.setAttribute("aria-expanded", "true");
  markChoice(state);
}

function markChoice(state) {
  [...state.list.children].forEach((li, i) => li.setAttribute("aria-selected", String(i === state.active)));
  if (state.active >= 0) state.input.setAttribute("aria-activedescendant", `${state.input.id}-choice-${state.active}`);
}

function takeChoice(state, choice) {
  state.input.value = choice.name;
  state.input.dataset.value = JSON.stringify(choice.value);
  state.input.dataset.label = choice.name;
  closeChoices(state);
}

function closeChoices(state) {
  state.list.hidden = true;
  state.input.setAttribute("aria-expanded", "false");
  state.input.removeAttribute("aria-activedescendant");
}

function rawOptions() {
  const values = {};
  for (const field of $("command-options").querySelectorAll("[name]")) {
    if (field.type !== "file" && field.value !== "") values[field.name] = field.value;
  }
  return values;
}

async function optionValues() {
  const values = {};
  for (const o of S.command.options) {
    const field = $(`opt-${o.name}`);
    if (!field) continue;
    let value;
    if (o.type === 11) {
      const file = field.files[0];
      if (file) value = { upload: await upload(file) };
    } else if (field.dataset.value && field.value === field.dataset.label) {
      value = JSON.parse(field.dataset.value);
    } else if (field.tagName === "SELECT" && o.choices && field.value) {
      value = JSON.parse(field.value);
    } else if (field.value !== "") {
      value = field.value;
    }
    if (value === undefined) {
      if (o.required) throw new Error(`Fill in ${o.name}: ${o.description}`);
      continue;
    }
    if ((o.type === 4 || o.type === 10) && typeof value === "string") {
      const number = Number(value);
      if (!Number.isFinite(number) || (o.type === 4 && !Number.isInteger(number))) {
        throw new Error(`${o.name} must be a ${OPTION_KINDS[o.type]}.`);
      }
      if ((o.min_value != null && number < o.min_value) || (o.max_value != null && number > o.max_value)) {
        throw new Error(`${o.name} must be between ${o.min_value ?? "−∞"} and ${o.max_value ?? "∞"}.`);
      }
    }
    if (typeof value === "string" && o.type === 3 && o.min_length && value.length < o.min_length) {
      throw new Error(`${o.name} needs at least ${o.min_length} characters.`);
    }
    values[o.name] = value;
  }
  return values;
}

// A file goes up on its own before the command that names it, as Discord's client uploads an attachment first.
const FILE_LIMIT = 10 * 1024 * 1024;

async function upload(file) {
  if (file.size > FILE_LIMIT) throw new Error(`${file.name} is over 10 MiB, the most a file can be.`);
  const response = await fetch(`/client/upload?filename=${encodeURIComponent(file.name)}`, { method: "POST", body: file });
  const answer = await response.json().catch(() => ({ ok: false, error: "The file could not be sent." }));
  if (!answer.ok) throw new Error(answer.error);
  return answer.id;
}

// What follows a command's name in the box, as Discord's box reads it: "name:value" fills that option, and text
// before any of them fills the first option not named ("/roll 4d6kh3", "/vv calc d12:8 pair:3,5").
function typedOptions(entry, text) {
  const rest = text.slice(entry.path.length + 1).trim();
  const typed = {};
  if (!rest) return typed;
  const names = entry.options.map((o) => o.name);
  const marks = [];
  for (const name of names) {
    const pattern = new RegExp(`(^|\\s)${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:`, "g");
    for (const found of rest.matchAll(pattern)) {
      marks.push({ name, at: found.index + found[1].length, from: found.index + found[0].length });
    }
  }
  marks.sort((a, b) => a.at - b.at);
  marks.forEach((mark, i) => {
    const value = rest.slice(mark.from, i + 1 < marks.length ? marks[i + 1].at : rest.length).trim();
    if (!(mark.name in typed)) typed[mark.name] = value;
  });
  const leading = rest.slice(0, marks.length ? marks[0].at : rest.length).trim();
  const first = entry.options.find((o) => !(o.name in typed));
  if (leading && first) typed[first.name] = leading;
  return typed;
}

// The command a whole line names ("/roll 4d6kh3"): the longest command name it starts with.
function namedCommand(text) {
  let found = null;
  for (const e of S.entries) {
    const name = `/${e.path}`;
    if ((text === name || text.startsWith(`${name} `)) && (!found || e.path.length > found.path.length)) found = e;
  }
  return found;
}

// Put typed values in the command's fields: a pick list takes the choice, member or channel the text names.
function fillOptions(entry, typed) {
  for (const [name, value] of Object.entries(typed)) {
    const field = $(`opt-${name}`);
    if (!field || field.type === "file") continue;
    if (field.tagName !== "SELECT") {
      field.value = value;
      continue;
    }
    const wanted = value.toLowerCase().replace(/^[@#]\s*/, "");
    const option = [...field.options].find((o) => o.value !== "" &&
      [o.textContent, o.value].some((t) => t.toLowerCase().replace(/^[@#]\s*/, "") === wanted ||
        t.toLowerCase() === JSON.stringify(wanted)));
    if (option) field.value = option.value;
    else throw new Error(`${name}: no choice called “${value}”.`);
  }
}

async function submitComposer(event) {
  event.preventDefault();
  const text = $("composer-input").value.trim();
  $("composer-error").textContent = "";
  const entry = S.command || namedCommand(text);
  if (!entry) {
    $("composer-error").textContent = text.startsWith("/")
      ? "No such command here: pick one from the list."
      : "Type / to pick one of the bot's commands.";
    return;
  }
  const picked = Boolean(S.command);
  if (!picked) pickCommand(entry);
  let options;
  try {
    fillOptions(entry, typedOptions(entry, text));
    options = await optionValues();
  } catch (error) {
    // Chosen from a line that left out what the command needs: its fields are open, at the first one to fill in.
    const missing = entry.options.find((o) => o.required && $(`opt-${o.name}`) && !$(`opt-${o.name}`).value);
    if (!picked && missing) $(`opt-${missing.name}`).focus();
    else $("composer-error").textContent = error.message;
    return;
  }
  request({ op: "slash", channel: S.channel, command: entry.path, options }, { kind: "slash" });
  clearCommand();
}

// -- forms (modals) ----------------------------------------------------------------------------------------------

function openModal(interaction, modal) {
  S.modal = { interaction, modal };
  $("modal-title").textContent = modal.title;
  $("modal-error").textContent = "";
  $("modal-submit").disabled = false;
  const fields = [];
  for (const comp of modal.components) {
    if (comp.type === 18) fields.push(modalField(comp.component, comp.label, comp.description));
    else if (comp.type === 1) for (const input of comp.components || []) fields.push(modalField(input, input.label));
    else if (comp.type === 10) fields.push(el("p", { class: "modal-text" }, comp.content));
  }
  $("modal-fields").replaceChildren(...fields);
  $("modal").showModal();
  $("modal-fields").querySelector("input, textarea, button, select")?.focus();
}

function modalField(input, label, hint) {
  let description = hint;
  const id = `field-${input.custom_id}`.replace(/[^\w-]/g, "_");
  const required = input.required !== false && (input.type !== 3 || (input.min_values ?? 1) > 0);
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  let control;
  if (input.type === 4) {
    const attrs = { id, "data-custom-id": input.custom_id, required, placeholder: input.placeholder,
      minlength: input.min_length, maxlength: input.max_length, "aria-describedby": `${hintId} ${errorId}` };
    control = input.style === 2 ? el("textarea", attrs) : el("input", { ...attrs, type: "text" });
    control.value = input.value || "";
  } else if (input.type === 3) {
    // A pick list: checkboxes (several) or radio buttons (one), each with its description; sent on Submit.
    const multi = (input.max_values ?? 1) > 1;
    control = el("div", { id, class: "modal-choices", role: "group", "data-custom-id": input.custom_id,
      "data-min": input.min_values ?? 1, "data-max": input.max_values ?? 1, "data-required": String(required),
      "aria-labelledby": `${id}-label`, "aria-describedby": `${hintId} ${errorId}` },
    (input.options || []).map((o) => el("label", { class: "option" },
      el("input", { type: multi ? "checkbox" : "radio", name: id, value: o.value, checked: o.default }),
      el("span", {}, el("span", { class: "option-label" }, o.label),
        o.description ? el("span", { class: "option-description" }, o.description) : null))));
    const min = input.min_values ?? 1;
    const max = input.max_values ?? 1;
    if (multi) description = [description, min === max ? `Pick ${min}.` : `Pick ${min} to ${max}.`].filter(Boolean).join(" ");
  } else {
    return el("p", {}, "(This kind of field can't be shown here.)");
  }
  const name = [label || input.label || input.custom_id, required ? el("span", { class: "req" }, " *") : null];
  return el(
    "div",
    { class: "modal-field" },
    input.type === 3 ? el("span", { id: `${id}-label`, class: "field-label" }, name) : el("label", { for: id }, name),
    description ? el("small", { id: hintId }, description) : el("small", { id: hintId }),
    control,
    el("small", { id: errorId, class: "field-error" }),
  );
}

function submitModal(event) {
  event.preventDefault();
  const values = {};
  let ok = true;
  for (const control of $("modal-fields").querySelectorAll("[data-custom-id]")) {
    const error = $(`${control.id}-error`);
    error.textContent = "";
    control.removeAttribute("aria-invalid");
    let problem = "";
    if (control.getAttribute("role") === "group") {
      const picked = [...control.querySelectorAll("input:checked")].map((o) => o.value);
      const min = Number(control.dataset.min);
      const max = Number(control.dataset.max);
      if (picked.length > max) problem = `Pick at most ${max}.`;
      else if ((control.dataset.required === "true" || picked.length) && picked.length < min) {
        problem = min === 1 ? "Pick one." : `Pick at least ${min}.`;
      }
      values[control.dataset.customId] = picked;
    } else {
      const text = control.value;
      const min = Number(control.getAttribute("minlength") || 0);
      if (control.required && !text.trim()) problem = "This field is required.";
      else if (text && text.length < min) problem = `Must be at least ${min} characters long.`;
      values[control.dataset.customId] = text;
    }
    if (problem) {
      ok = false;
      error.textContent = problem;
      control.setAttribute("aria-invalid", "true");
    }
  }
  if (!ok) {
    const invalid = $("modal-fields").querySelector('[aria-invalid="true"]');
    (invalid.querySelector("input") || invalid).focus();
    return;
  }
  $("modal-submit").disabled = true;
  $("modal-error").textContent = "";
  request({ op: "modal", interaction: S.modal.interaction, values }, { kind: "modal" });
}

function closeModal() {
  if ($("modal").open) $("modal").close();
  S.modal = null;
}

// -- layout ------------------------------------------------------------------------------------------------------

function closeSidebar() {
  $("sidebar").classList.remove("open");
  $("toggle-sidebar").setAttribute("aria-expanded", "false");
}

function setUp() {
  followScrolling();
  $("join-form").addEventListener("submit", submitJoin);
  $("join").addEventListener("cancel", (e) => {
    if (!S.me) e.preventDefault(); // joining is the way in
  });
  $("join").addEventListener("close", () => S.me && drawMe());
  $("composer").addEventListener("submit", submitComposer);
  $("composer-input").addEventListener("input", onComposerInput);
  $("composer-input").addEventListener("keydown", onComposerKey);
  // Hide the list a moment after leaving the box (a click on it lands first), unless the box has focus again by then.
  $("composer-input").addEventListener("blur", () =>
    setTimeout(() => document.activeElement !== $("composer-input") && hideList(), 150),
  );
  $("command-options").addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      clearCommand();
      $("composer-input").focus();
    }
  });
  $("modal-form").addEventListener("submit", submitModal);
  $("modal-cancel").addEventListener("click", closeModal);
  $("switch-member").addEventListener("change", (e) => {
    if (e.target.value === "new") {
      $("join-name").value = "";
      showJoin(false, false);
    } else switchTo(e.target.value);
  });
  $("toggle-sidebar").addEventListener("click", () => {
    const open = $("sidebar").classList.toggle("open");
    $("toggle-sidebar").setAttribute("aria-expanded", String(open));
  });
  $("toggle-members").addEventListener("click", () => {
    const panel = $("members");
    panel.hidden = !panel.hidden;
    $("toggle-members").setAttribute("aria-expanded", String(!panel.hidden));
  });
  connect();
}

document.addEventListener("DOMContentLoaded", setUp);
