// Every page's script (the Content-Security-Policy allows no inline script, and no eval:
// htmx's config is in <meta name="htmx-config">, and what htmx's trigger filters did is here).
(function () {
  "use strict";

  // A poll marked data-poll-when-visible (the lobby's open tables) skips its request while the tab is hidden.
  document.addEventListener("htmx:confirm", function (event) {
    var el = event.detail.elt;
    if (el && el.hasAttribute("data-poll-when-visible") && document.visibilityState !== "visible") {
      event.preventDefault();
    }
  });
})();
