// The table page's hand-written script: countdown rings, the bet slider's twin
// number field, the chip tray, keyboard shortcuts, the seats' arc, cards dealt
// once, errors shown where they were caused, optional sounds, and the
// connection indicator. Everything else arrives as server-rendered HTML over
// the websocket. No inline script anywhere: the page runs under a strict CSP.
(function () {
  "use strict";

  // --- Countdowns: a number, and a ring drawn from --left (0..1) ------------------
  var totals = {};  // deadline -> the most seconds seen left: the ring's full turn
  function tick() {
    document.querySelectorAll("[data-deadline]").forEach(function (el) {
      var deadline = el.dataset.deadline;  // milliseconds since the epoch (tables/live/state.py)
      var left = Math.max(0, (Number(deadline) - Date.now()) / 1000);
      var total = totals[deadline] = Math.max(totals[deadline] || 0, left, 1);
      // A ring holds the number alone; the status line says "12 s".
      var shown = Math.ceil(left) + (el.closest(".status") ? " s" : "");
      if (el.textContent !== shown) el.textContent = shown;
      el.style.setProperty("--left", (left / total).toFixed(3));
      el.classList.toggle("urgent", left <= 5);
    });
  }
  setInterval(tick, 250);

  // --- The bet: slider and number field agree; the chip tray builds it ------------
  document.addEventListener("input", function (event) {
    var el = event.target;
    if (el.dataset && el.dataset.mirror) {
      var twin = document.getElementById(el.dataset.mirror);
      if (twin) { twin.value = el.value; twin.dataset.dirty = "1"; }
    } else if (el.id && el.id.indexOf("bet-") === 0) {
      var slider = document.querySelector('[data-mirror="' + el.id + '"]');
      if (slider) slider.value = el.value;
    }
  });

  function button(text, hidden, data) {
    var b = document.createElement("button");
    b.type = "button";
    if (hidden) {
      var span = document.createElement("span");
      span.className = "visually-hidden";
      span.textContent = hidden;
      b.appendChild(span);
    }
    b.appendChild(document.createTextNode(text));
    Object.keys(data).forEach(function (key) { b.dataset[key] = data[key]; });
    return b;
  }

  // Each betting form gets a tray: Add 1 … Add 500 (those the limits allow), Rebet, Double bet, Clear bet.
  function buildTrays() {
    document.querySelectorAll(".bet-input[data-chips]").forEach(function (box) {
      if (box.previousElementSibling && box.previousElementSibling.classList.contains("chip-tray")) return;
      var tray = document.createElement("div");
      tray.className = "chip-tray";
      tray.setAttribute("role", "group");
      tray.setAttribute("aria-label", "Chips");
      box.dataset.chips.split(" ").filter(Boolean).forEach(function (value) {
        var chip = button(value, "Add ", { add: value });
        chip.className = "chip c" + value;
        tray.appendChild(chip);
      });
      var rebet = Number(box.dataset.rebet || 0);
      if (rebet) tray.appendChild(button("Rebet", "", { bet: "rebet" }));
      tray.appendChild(button("Double bet", "", { bet: "double" }));
      tray.appendChild(button("Clear bet", "", { bet: "clear" }));
      box.parentNode.insertBefore(tray, box);
    });
  }

  document.addEventListener("click", function (event) {
    var b = event.target.closest && event.target.closest(".chip-tray button");
    if (!b) return;
    var box = b.parentNode.nextElementSibling;
    var field = box && box.querySelector('input[type="number"]');
    if (!field) return;
    var max = Number(field.max), now = Number(field.value) || 0, rebet = Number(box.dataset.rebet || 0);
    var value = now;
    if (b.dataset.add) value = now + Number(b.dataset.add);
    else if (b.dataset.bet === "rebet") value = rebet;
    else if (b.dataset.bet === "double") value = 2 * (now || rebet);
    else if (b.dataset.bet === "clear") value = 0;
    // The stack and the table's limit: never more than the field allows.
    if (field.max !== "" && value > max) value = max;
    field.value = String(value);
    field.dataset.dirty = "1";
    field.dispatchEvent(new Event("input", { bubbles: true }));
    sound("chips");
  });

  // --- Keys: one per action (each button's aria-keyshortcuts); never while typing --
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    var tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" && event.target.type !== "range") return;
    if (tag === "textarea" || tag === "select") return;
    var b = document.querySelector('#controls button[data-key="' + event.key.toLowerCase() + '"]');
    if (b) {
      event.preventDefault();
      b.click();
    }
  });

  // --- Whose turn: mark the seat and hand, and put a ring on the seat -------------
  function markTurn() {
    var turn = document.getElementById("turn");
    var seat = turn && turn.dataset.seat;
    document.querySelectorAll(".seat.turn, .hand.active").forEach(function (el) {
      el.classList.remove("turn", "active");
    });
    document.querySelectorAll(".seat-ring").forEach(function (el) { el.remove(); });
    if (!seat) return;
    var article = document.getElementById("seat-" + seat);
    if (!article) return;
    article.classList.add("turn");
    var hand = article.querySelector('.hand[data-hand="' + turn.dataset.hand + '"]');
    if (hand) hand.classList.add("active");
    var clock = turn.querySelector("[data-deadline]");
    var header = article.querySelector("header");
    if (clock && header) {
      var ring = document.createElement("span");
      ring.className = "countdown seat-ring";
      ring.setAttribute("role", "timer");
      ring.setAttribute("aria-label", "Time left for seat " + seat);
      ring.dataset.deadline = clock.dataset.deadline;
      header.appendChild(ring);
    }
  }

  // --- The seats on an arc around the dealer, the viewer's own nearest -----------
  // Each seat gets its place on the arc (order) and how low it sits (--arc, 1 at
  // the middle); the viewer's first seat takes the middle. The CSS lays them out.
  function arrange() {
    var box = document.getElementById("seats");
    if (!box) return;
    var seats = Array.prototype.filter.call(box.children, function (el) { return el.classList.contains("seat"); });
    var n = seats.length;
    var mine = seats.findIndex(function (el) { return el.classList.contains("mine"); });
    var shift = mine < 0 ? 0 : mine - Math.floor((n - 1) / 2);
    box.dataset.count = String(n);
    seats.forEach(function (el, i) {
      var place = (i - shift + n) % n;
      var t = n > 1 ? (2 * place) / (n - 1) - 1 : 0;
      el.style.order = String(place);
      el.style.setProperty("--arc", (1 - t * t).toFixed(3));
      el.style.setProperty("--tilt", t.toFixed(3));
    });
  }

  // --- Cards: each animates once, when it first appears ---------------------------
  var seen = null;
  function cardKeys() {
    var keys = {};
    document.querySelectorAll("#dealer .card, #seats .card").forEach(function (card) {
      var holder = card.closest("[id]");
      var hand = card.closest(".hand");
      var index = Array.prototype.indexOf.call(card.parentNode.children, card);
      var key = (holder ? holder.id : "") + "/" + (hand ? hand.dataset.hand : "") + "/" + index + "/" + card.dataset.card;
      keys[key] = card;
    });
    return keys;
  }
  function dealNewCards() {
    var now = cardKeys();
    var fresh = 0;
    if (seen !== null) {
      Object.keys(now).forEach(function (key) {
        if (!seen[key]) {
          now[key].classList.add("deal");
          now[key].style.setProperty("--deal-delay", (fresh * 0.08).toFixed(2) + "s");
          fresh += 1;
        }
      });
    }
    seen = now;
    if (fresh) sound("deal");
  }
  document.addEventListener("animationend", function (event) {
    if (event.target.classList.contains("deal")) event.target.classList.remove("deal");
  });

  // --- Errors where they were caused: next to the seat whose form was sent --------
  var notice = document.getElementById("notice");
  var noticeHome = notice && notice.parentNode;
  var sentFrom = null;  // the id of the seat whose form was last sent, or null for the action bar
  document.addEventListener("submit", function (event) {
    var seat = event.target.closest && event.target.closest(".seat");
    sentFrom = seat ? seat.id : null;
  }, true);
  function placeNotice() {
    notice = document.getElementById("notice");
    if (!notice || !notice.classList.contains("shown") || !sentFrom) return;
    var seat = document.getElementById(sentFrom);
    if (seat) seat.appendChild(notice);
  }

  // --- A frame re-renders pieces: keep what the player was typing, and the focus --
  var kept = {};
  var focused = null;
  var lastResult = "";
  document.addEventListener("input", function (event) {
    if (event.target.id) event.target.dataset.dirty = "1";
  });
  document.addEventListener("htmx:wsBeforeMessage", function () {
    kept = {};
    document.querySelectorAll("input[data-dirty]").forEach(function (el) { kept[el.id] = el.value; });
    focused = document.activeElement && document.activeElement.id ? document.activeElement.id : null;
    // Home again before pieces are swapped, so a seat re-rendered cannot take it away.
    notice = document.getElementById("notice");
    if (notice && noticeHome && notice.parentNode !== noticeHome) noticeHome.insertBefore(notice, noticeHome.firstChild);
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    Object.keys(kept).forEach(function (id) {
      var el = document.getElementById(id);
      if (!el) return;
      var value = Number(kept[id]);
      if (el.max !== "" && value > Number(el.max)) value = Number(el.max);
      if (el.min !== "" && value < Number(el.min) && value !== 0) value = Number(el.min);
      el.value = String(value);
      el.dataset.dirty = "1";
      var slider = document.querySelector('[data-mirror="' + id + '"]');
      if (slider) slider.value = el.value;
    });
    if (focused && document.getElementById(focused)) document.getElementById(focused).focus();
    refresh();
    placeNotice();
    var result = document.getElementById("result");
    var text = result ? result.textContent.trim() : "";
    if (text && text !== lastResult && !/^You lose|^Push/.test(text)) sound("win");
    lastResult = text;
    // The page now shows the table as the server last sent it.
    document.body.dataset.synced = String(Number(document.body.dataset.synced || 0) + 1);
  });

  function refresh() {
    buildTrays();
    arrange();
    markTurn();
    dealNewCards();
    tick();
  }

  // A reality check (issue 14) takes the keyboard's focus when it appears, once.
  document.addEventListener("htmx:wsAfterMessage", function () {
    var check = document.querySelector("#reality-check:not([hidden])");
    if (check && !check.dataset.focused) {
      check.dataset.focused = "1";
      var button = check.querySelector("button");
      if (button) button.focus();
    }
  });

  // --- Sounds: made with the Web Audio API (no files), off unless turned on -------
  var audio = null;
  var soundOn = false;
  try { soundOn = window.localStorage.getItem("casino-sound") === "on"; } catch (e) { soundOn = false; }
  var toggle = document.querySelector(".sound-toggle");
  function showToggle() {
    if (!toggle) return;
    toggle.hidden = false;
    toggle.setAttribute("aria-pressed", soundOn ? "true" : "false");
    toggle.textContent = soundOn ? "Sound on" : "Sound off";
  }
  if (toggle && (window.AudioContext || window.webkitAudioContext)) {
    showToggle();
    toggle.addEventListener("click", function () {
      soundOn = !soundOn;
      try { window.localStorage.setItem("casino-sound", soundOn ? "on" : "off"); } catch (e) { /* private mode */ }
      showToggle();
      if (soundOn) sound("chips");
    });
  }
  var NOTES = { deal: [[900, 0.03]], chips: [[2200, 0.03], [2600, 0.03]], win: [[523, 0.09], [659, 0.09], [784, 0.16]] };
  function sound(name) {
    if (!soundOn) return;
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      var at = audio.currentTime;
      NOTES[name].forEach(function (note) {
        var osc = audio.createOscillator(), gain = audio.createGain();
        osc.frequency.value = note[0];
        osc.type = name === "win" ? "triangle" : "square";
        gain.gain.setValueAtTime(0.06, at);
        gain.gain.exponentialRampToValueAtTime(0.0001, at + note[1]);
        osc.connect(gain).connect(audio.destination);
        osc.start(at);
        osc.stop(at + note[1]);
        at += note[1];
      });
    } catch (e) { /* no audio: play on in silence */ }
  }

  // --- The connection -------------------------------------------------------------
  function connection(state) {
    document.body.dataset.connection = state;
  }
  document.addEventListener("htmx:wsOpen", function () { connection("open"); });
  document.addEventListener("htmx:wsClose", function () {
    connection("closed");
    delete document.body.dataset.synced;
  });
  document.addEventListener("htmx:wsError", function () { connection("closed"); });

  refresh();
})();
