/* The one DOM helper the game views share: an element with a class and a
   text. Plain script (no modules, no build step): window.Dom. */
"use strict";

(function () {
  /** A new ``tag`` element with ``className`` (if any) and ``text`` (if given). */
  function el(tag, className, text) {
    const e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  window.Dom = { el };
})();
