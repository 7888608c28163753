// The page's access layer (tutor/ui/access.py): what ipywidgets cannot say from Python.
// - a polite live region that speaks the tutor's announcements, in the page's language;
// - ARIA attributes (roles, names, descriptions, shortcuts) set on the widgets' elements by
//   CSS selector, and set again whenever the widgets redraw;
// - keyboard shortcuts, never while the student types in a text box;
// - focus that follows the game (answer box after a power play, moves after the reveal);
// - no keyboard trap on the board: ipycanvas swallows every key its canvas gets, so only
//   the board's own keys reach it and Tab moves on;
// - an answer is handed in with the text typed: ipywidgets sends a Text's value at most one
//   message at a time, so Enter typed right after the digits reached the kernel before the
//   last digits did (a fast typist's "15" was checked as "1").
// - a board left blank (its drawing lost while the page built itself) is asked for again.
// - the window's width is told to the kernel, which draws a phone a board of its own size;
// - a tap on the board is a click, and a swipe on it scrolls the page: ipycanvas cancels
//   every touch on its canvas, so a phone's tap did nothing and the board could not scroll.
// - the name form hands in the name typed (and the class code), like the answer box;
// - once the page knows its student, the link in the address bar says it (student=, and
//   class= for a class code): a reload opens the same student's page, without asking again;
// - a question that opens is scrolled into view with its buttons (on a phone the answer row
//   sat below the fold after a power play).
// - while the student types an answer, the question card (question, answer box, feedback)
//   stays in view when the on-screen keyboard takes the bottom of the screen and when the
//   feedback comes under the box; the page asks the browser to shrink the window for the
//   keyboard (interactive-widget=resizes-content) instead of covering the page with it.
// - on a class hub, a page whose kernel the server closed (an idle tab) says so when the
//   student comes back to it, with a button that reloads it.

const BOARD_KEYS = new Set(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Enter", " ",
                            "Escape", "Home", "End"]);
const FOCUS_WAIT_MS = 20000;
const TOUCHES = ["touchstart", "touchmove", "touchend", "touchcancel"];

function shown(el) {
  return !!(el && el.isConnected && el.getClientRects().length > 0 &&
            getComputedStyle(el).visibility !== "hidden");
}

function typing(el) {
  if (!el) return false;
  const tag = el.tagName;
  return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || el.isContentEditable;
}

function focusLost() {
  const el = document.activeElement;
  return !el || el === document.body || el === document.documentElement || !shown(el);
}

function firstShown(selector) {
  for (const el of document.querySelectorAll(selector)) if (shown(el)) return el;
  return null;
}

function initialize({ model }) {
  let pending = null; // {selector, soft, since, from}

  function applyAttributes() {
    const map = model.get("attributes") || {};
    for (const [selector, attrs] of Object.entries(map)) {
      let nodes;
      try { nodes = document.querySelectorAll(selector); } catch (e) { continue; }
      for (const node of nodes) {
        for (const [name, value] of Object.entries(attrs)) {
          if (value === null) { if (node.hasAttribute(name)) node.removeAttribute(name); }
          else if (node.getAttribute(name) !== value) node.setAttribute(name, value);
        }
      }
    }
    const lang = model.get("lang");
    if (lang && document.documentElement.lang !== lang) document.documentElement.lang = lang;
  }

  function tryFocus() {
    if (!pending) return;
    if (Date.now() - pending.since > FOCUS_WAIT_MS) { pending = null; return; }
    const active = document.activeElement;
    const moved = active !== pending.from && !focusLost();
    if (pending.soft ? !focusLost() : moved) { pending = null; return; } // the student chose
    const target = firstShown(pending.selector);
    if (!target) return; // not drawn yet: the next redraw tries again
    target.focus({ preventScroll: true });
    if (document.activeElement === target) {
      pending = null;
      shownWhole(target);
    }
  }

  // The focused element and the buttons beside it on screen: on a phone the answer box
  // opened at the bottom edge with Check, Hint and Show me below the fold.
  function shownWhole(target) {
    const height = window.innerHeight || document.documentElement.clientHeight;
    let row = target;
    for (const selector of model.get("scroll_into_view") || []) {
      const around = target.closest(selector);
      if (around && around.getBoundingClientRect().height <= height) { row = around; break; }
    }
    const box = row.getBoundingClientRect();
    // On a phone the question sits right under the board: when both fit the window, both
    // are shown, so the student answers with the board in view.
    const board = firstShown("canvas.ld-board");
    const b = board && board.getBoundingClientRect();
    if (b && b.bottom <= box.top && box.bottom - b.top <= height) {
      if (b.top < 0) board.scrollIntoView({ block: "start", inline: "nearest" });
      else if (box.bottom > height) row.scrollIntoView({ block: "end", inline: "nearest" });
      return;
    }
    if (box.top >= 0 && box.bottom <= height) return;
    row.scrollIntoView({ block: "center", inline: "nearest" });
  }

  // The question card stays in view while the student types in the answer box: the
  // on-screen keyboard (about 336 px of a phone's 844) shrinks the window, and the feedback
  // to a wrong answer comes under the box. The first of "scroll_into_view" around the box
  // that fits the window is shown whole (the least scroll that does it).
  let card = { el: null, height: 0, room: 0 };
  function keepAnswerInView(force) {
    const active = document.activeElement;
    const answer = model.get("answer");
    if (!typing(active) || !answer || !active.matches(answer)) {
      card = { el: null, height: 0, room: 0 };
      return;
    }
    const vv = window.visualViewport;
    const top = vv ? vv.offsetTop : 0;
    const room = Math.min(window.innerHeight, vv ? vv.height : Infinity);
    let around = null;
    for (const selector of model.get("scroll_into_view") || []) {
      const el = active.closest(selector);
      if (el && el.getBoundingClientRect().height <= room) { around = el; break; }
    }
    const el = around || active;
    const box = el.getBoundingClientRect();
    if (!force && el === card.el && box.height === card.height && room === card.room) return;
    card = { el, height: box.height, room };
    if (box.top >= top && box.bottom <= top + room) return;
    el.scrollIntoView({ block: box.top < top ? "start" : "end", inline: "nearest" });
  }
  function onViewport() { requestAnimationFrame(() => keepAnswerInView(true)); }
  const viewport = document.querySelector('meta[name="viewport"]');
  if (viewport && !/interactive-widget/.test(viewport.content)) {
    viewport.content = viewport.content + ", interactive-widget=resizes-content";
  }

  // The address bar says the page's student: a reload opens the same student's page.
  function onStudent() {
    const student = model.get("student");
    if (!student) return;
    try {
      const url = new URL(window.location.href);
      if (url.searchParams.get("student") === student &&
          (url.searchParams.get("class") || "") === model.get("class_code")) return;
      url.searchParams.set("student", student);
      if (model.get("class_code")) url.searchParams.set("class", model.get("class_code"));
      else url.searchParams.delete("class");
      window.history.replaceState(window.history.state, "", url.toString());
    } catch (e) { /* a page whose address cannot be rewritten asks again after a reload */ }
  }

  let scheduled = false;
  function redrawn() {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(() => {
      scheduled = false; applyAttributes(); tryFocus(); keepAnswerInView(false);
    });
  }

  function onFocusRequest() {
    const req = model.get("focus_request") || {};
    if (!req.selector) return;
    pending = { selector: req.selector, soft: !!req.soft, since: Date.now(),
                from: document.activeElement };
    redrawn();
  }

  function submit(input) {
    const text = input.value;
    input.value = ""; // the Text widget's own value follows (and a late update says "")
    input.dispatchEvent(new Event("input", { bubbles: true }));
    model.send({ event: "submit", value: text });
  }

  function sendName() {
    const name = firstShown(model.get("name_input"));
    if (!name) return false;
    const code = firstShown(model.get("class_input"));
    model.send({ event: "name", value: name.value, code: code ? code.value : "" });
    return true;
  }

  function onClick(event) {
    if (event.target instanceof Element && event.target.closest(model.get("name_button"))) {
      if (sendName()) {
        event.preventDefault();
        event.stopPropagation(); // the button's own message would carry no name
      }
      return;
    }
    const button = event.target instanceof Element &&
      event.target.closest(model.get("submit_buttons"));
    const input = button ? firstShown(model.get("answer")) : null;
    if (!input) return;
    event.preventDefault();
    event.stopPropagation(); // the button's own message would carry no text
    submit(input);
  }

  function onKey(event) {
    const target = event.target;
    if (event.key === "Enter" && target instanceof Element &&
        target.matches(model.get("answer"))) {
      event.preventDefault();
      event.stopPropagation(); // the Text widget's own "submit" would carry no text
      submit(target);
      return;
    }
    if (event.key === "Enter" && target instanceof Element &&
        (target.matches(model.get("name_input")) || target.matches(model.get("class_input")))) {
      event.preventDefault();
      event.stopPropagation();
      sendName();
      return;
    }
    if (typing(target) || event.defaultPrevented) return;
    if ((event.key === "Enter" || event.key === " ") && target instanceof Element &&
        target.getAttribute("role") === "button" && target.tagName !== "BUTTON") {
      target.click(); // a header drawn as a div, made a button by its attributes
      event.preventDefault();
      return;
    }
    const onBoard = target instanceof Element && target.matches(model.get("board"));
    if (event.ctrlKey || event.altKey || event.metaKey) {
      if (onBoard) event.stopPropagation(); // browser shortcuts work on the board too
      return;
    }
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    let done = false;
    if (/^[1-9]$/.test(key)) {
      const moves = [...document.querySelectorAll(model.get("moves"))].filter(shown);
      const button = moves[Number(key) - 1];
      if (button) { button.click(); done = true; }
    } else {
      const action = (model.get("shortcuts") || {})[key];
      const el = action ? firstShown(action.selector) : null;
      if (el) {
        if (action.action === "focus") el.focus(); else el.click();
        done = true;
      }
    }
    if (done) {
      event.preventDefault();
      event.stopPropagation();
    } else if (onBoard && !BOARD_KEYS.has(event.key)) {
      // ipycanvas would cancel this key (Tab included): keep it from the canvas.
      event.stopPropagation();
    }
  }

  // The board is drawn by messages (ipycanvas): a page whose widgets were still being built
  // when the kernel drew it lost the drawing, and the board stayed blank until the next move.
  // Until the board shows its felt (which fills it), ask the kernel to paint it again: once a
  // second, for a minute of the board on screen (a hot-seat cover may hide it a while), and
  // never after ten minutes.
  let boardChecks = 0, boardTicks = 0;
  const probe = document.createElement("canvas");
  probe.width = probe.height = 1;
  const boardTimer = setInterval(() => {
    const board = document.querySelector(model.get("board"));
    if (board && shown(board) && board.width > 1) {
      const ctx = probe.getContext("2d");
      ctx.clearRect(0, 0, 1, 1);
      ctx.drawImage(board, 1, 1, 1, 1, 0, 0, 1, 1);
      if (ctx.getImageData(0, 0, 1, 1).data[3] > 0) { clearInterval(boardTimer); return; }
      model.send({ event: "repaint" });
      board.dataset.ldRepaintAsks = String(++boardChecks);  // read by a failed test's report
    }
    if (boardChecks >= 60 || ++boardTicks >= 600) clearInterval(boardTimer);
  }, 1000);

  // The kernel picks the board's size by the window's width (a phone's board scaled down
  // from a laptop's had its tiles and words at half size): say it when the page starts and
  // after the window is resized or the phone turned.
  let widthSent = -1, widthTimer = null;
  function sendWidth() {
    const width = document.documentElement.clientWidth;
    if (width > 0 && width !== widthSent) {
      widthSent = width;
      model.send({ event: "width", value: width });
    }
  }
  function onResize() {
    clearTimeout(widthTimer);
    widthTimer = setTimeout(sendWidth, 250);
  }
  sendWidth();

  // ipycanvas cancels each touch on its canvas to send touch events of its own (the board
  // uses none), which kept the browser from making a tap a click and a swipe a scroll. The
  // board's touches are kept from ipycanvas (on the way down, before its listeners) and
  // left to the browser: a tap reaches the board as the click it makes.
  function onTouch(event) {
    const target = event.target;
    if (target instanceof Element && target.matches(model.get("board"))) {
      event.stopPropagation();
    }
  }

  // The page's tick (tick_seconds > 0; the teacher's live view reads the class on each):
  // ipywidgets has no timer. A hidden tab sends none, and never more than one a second.
  let tickTimer = null;
  function startTicks() {
    clearInterval(tickTimer);
    tickTimer = null;
    const seconds = Number(model.get("tick_seconds")) || 0;
    if (seconds <= 0) return;
    tickTimer = setInterval(() => {
      if (!document.hidden) model.send({ event: "tick" });
    }, Math.max(1, seconds) * 1000);
  }
  startTicks();

  // The page's kernel, closed by its class server (page_status set: tutor/hub/lockdown.py).
  // Asked when the tab is shown again, when the window gets the focus, and every minute
  // while shown. A JSON answer says the state; any other answer (the hub's own page: the
  // server was stopped) means gone; a network error says nothing (the wifi may be back).
  let closedShown = false;
  async function checkPage() {
    const url = model.get("page_status");
    if (!url || closedShown || document.hidden) return;
    let state = null;
    // The hub's server takes its cookie from a script only with the page's XSRF token.
    const xsrf = (document.cookie.match(/(?:^|;\s*)_xsrf=([^;]*)/) || [])[1];
    const headers = xsrf ? { "X-XSRFToken": decodeURIComponent(xsrf) } : {};
    try {
      const reply = await fetch(url, { credentials: "same-origin", cache: "no-store", headers });
      const type = reply.headers.get("content-type") || "";
      state = reply.ok && type.includes("json") ? (await reply.json()).state : "gone";
    } catch (err) {
      return;
    }
    if (state && state !== "open") showClosed(state);
  }
  function showClosed(state) {
    closedShown = true;
    const texts = model.get("closed_texts") || {};
    const box = document.createElement("div");
    box.className = "ld-page-closed";
    box.setAttribute("role", "alertdialog");
    box.setAttribute("aria-modal", "true");
    box.setAttribute("lang", model.get("lang"));
    box.style.cssText = "position:fixed;inset:0;z-index:10000;display:flex;" +
      "align-items:center;justify-content:center;background:rgba(255,255,255,.94);" +
      "padding:1em;font-size:1.1em;text-align:center";
    const inner = document.createElement("div");
    inner.style.maxWidth = "32em";
    const text = document.createElement("p");
    text.textContent = texts[state === "idle" ? "idle" : "gone"] || "";
    const button = document.createElement("button");
    button.type = "button";
    button.className = "ld-page-reload";
    button.textContent = texts.reload || "↻";
    button.style.cssText = "font-size:1em;padding:.5em 1em";
    button.addEventListener("click", () => window.location.reload());
    inner.append(text, button);
    box.appendChild(inner);
    box.setAttribute("aria-label", text.textContent);
    document.body.appendChild(box);
    button.focus();
  }
  const pageTimer = setInterval(checkPage, 60000);
  document.addEventListener("visibilitychange", checkPage);
  window.addEventListener("focus", checkPage);

  const observer = new MutationObserver(redrawn);
  // New widgets, redrawn HTML, and shown or hidden panels (ipywidgets sets their style);
  // never the attributes this file sets itself.
  observer.observe(document.body, { childList: true, subtree: true, attributes: true,
                                    attributeFilter: ["style", "class", "hidden"] });
  window.addEventListener("keydown", onKey, true); // capture: before the canvas sees it
  window.addEventListener("click", onClick, true);
  window.addEventListener("resize", onResize);
  window.addEventListener("resize", onViewport);
  if (window.visualViewport) window.visualViewport.addEventListener("resize", onViewport);
  for (const type of TOUCHES) {
    window.addEventListener(type, onTouch, { capture: true, passive: true });
  }
  model.on("change:attributes", redrawn);
  model.on("change:lang", redrawn);
  model.on("change:focus_request", onFocusRequest);
  model.on("change:student", onStudent);
  model.on("change:tick_seconds", startTicks);
  onStudent();
  // A focus asked for before the page was drawn (the name form's box, as the page opens).
  if ((model.get("focus_request") || {}).selector && !model.get("focus_request").soft) {
    onFocusRequest();
  }
  redrawn();
  return () => {
    clearInterval(boardTimer);
    clearInterval(tickTimer);
    clearInterval(pageTimer);
    document.removeEventListener("visibilitychange", checkPage);
    window.removeEventListener("focus", checkPage);
    clearTimeout(widthTimer);
    window.removeEventListener("resize", onResize);
    window.removeEventListener("resize", onViewport);
    if (window.visualViewport) window.visualViewport.removeEventListener("resize", onViewport);
    for (const type of TOUCHES) window.removeEventListener(type, onTouch, { capture: true });
    observer.disconnect();
    window.removeEventListener("keydown", onKey, true);
    window.removeEventListener("click", onClick, true);
  };
}

function render({ model, el }) {
  el.classList.add("ld-access");
  const live = document.createElement("div");
  live.className = "ld-live ld-sr";
  live.setAttribute("role", "status");
  live.setAttribute("aria-live", "polite");
  live.setAttribute("aria-atomic", "true");
  el.appendChild(live);
  let timer = null;
  function speak() {
    live.setAttribute("lang", model.get("lang"));
    // Empty it first, so the same words said twice are announced twice.
    live.textContent = "";
    clearTimeout(timer);
    timer = setTimeout(() => { live.textContent = model.get("announcement"); }, 60);
  }
  live.setAttribute("lang", model.get("lang"));
  live.textContent = model.get("announcement");
  model.on("change:announcements", speak);
  model.on("change:lang", () => live.setAttribute("lang", model.get("lang")));
  return () => clearTimeout(timer);
}

export default { initialize, render };
