// The table page's only hand-written script: the countdown, the bet slider's
// twin number field, keyboard shortcuts, and the connection indicator.
// Everything else arrives as server-rendered HTML over the websocket.
(function () {
  "use strict";

  function tick() {
    document.querySelectorAll("[data-deadline]").forEach(function (el) {
      var left = Math.max(0, Math.ceil((Date.parse(el.dataset.deadline) - Date.now()) / 1000));
      el.textContent = " · " + left + " s";
      el.classList.toggle("urgent", left <= 5);
    });
  }
  setInterval(tick, 250);
  document.addEventListener("htmx:wsAfterMessage", tick);

  // The slider and the number field labelled "Bet" always agree.
  document.addEventListener("input", function (event) {
    var el = event.target;
    if (el.dataset && el.dataset.mirror) {
      var twin = document.getElementById(el.dataset.mirror);
      if (twin) twin.value = el.value;
    } else if (el.id && el.id.indexOf("bet-") === 0) {
      var slider = document.querySelector('[data-mirror="' + el.id + '"]');
      if (slider) slider.value = el.value;
    }
  });

  // One key per action (shown in each button's aria-keyshortcuts); never while typing.
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    var tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" && event.target.type !== "range") return;
    if (tag === "textarea" || tag === "select") return;
    var button = document.querySelector('#controls button[data-key="' + event.key.toLowerCase() + '"]');
    if (button) {
      event.preventDefault();
      button.click();
    }
  });

  // A frame re-renders the controls whenever anyone acts. Keep what this
  // player was typing (a bet, a buy-in) and where the keyboard focus was.
  var kept = {};
  var focused = null;
  document.addEventListener("input", function (event) {
    if (event.target.id) event.target.dataset.dirty = "1";
  });
  document.addEventListener("htmx:wsBeforeMessage", function () {
    kept = {};
    document.querySelectorAll("input[data-dirty]").forEach(function (el) { kept[el.id] = el.value; });
    focused = document.activeElement && document.activeElement.id ? document.activeElement.id : null;
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    Object.keys(kept).forEach(function (id) {
      var el = document.getElementById(id);
      if (!el) return;
      var value = Number(kept[id]);
      if (el.max !== "" && value > Number(el.max)) value = Number(el.max);
      if (el.min !== "" && value < Number(el.min)) value = Number(el.min);
      el.value = String(value);
      el.dataset.dirty = "1";
      var slider = document.querySelector('[data-mirror="' + id + '"]');
      if (slider) slider.value = el.value;
    });
    if (focused && document.getElementById(focused)) document.getElementById(focused).focus();
    // The page now shows the table as the server last sent it.
    document.body.dataset.synced = String(Number(document.body.dataset.synced || 0) + 1);
  });

  // Whose turn it is comes as one small piece (#turn), not with every seat:
  // mark that seat and hand (the CSS in casino.css does the same with :has()).
  function markTurn() {
    var turn = document.getElementById("turn");
    var seat = turn && turn.dataset.seat;
    document.querySelectorAll(".seat.turn, .hand.active").forEach(function (el) {
      el.classList.remove("turn", "active");
    });
    if (!seat) return;
    var article = document.getElementById("seat-" + seat);
    if (!article) return;
    article.classList.add("turn");
    var hand = article.querySelector('.hand[data-hand="' + turn.dataset.hand + '"]');
    if (hand) hand.classList.add("active");
  }
  markTurn();
  document.addEventListener("htmx:wsAfterMessage", markTurn);

  // A reality check (issue 14) takes the keyboard's focus when it appears, once.
  document.addEventListener("htmx:wsAfterMessage", function () {
    var check = document.querySelector("#reality-check:not([hidden])");
    if (check && !check.dataset.focused) {
      check.dataset.focused = "1";
      var button = check.querySelector("button");
      if (button) button.focus();
    }
  });

  function connection(state) {
    document.body.dataset.connection = state;
  }
  document.addEventListener("htmx:wsOpen", function () { connection("open"); });
  document.addEventListener("htmx:wsClose", function () {
    connection("closed");
    delete document.body.dataset.synced;
  });
  document.addEventListener("htmx:wsError", function () { connection("closed"); });
})();
