// Live re-quote on the checkout page: as the country is chosen or the VAT number typed, ask the page's JSON endpoint
// (the same VAT code as saving the billing details) and show the new VAT and total. Without this script,
// saving the billing details re-quotes on the server.
(() => {
  const form = document.querySelector("form[data-requote]");
  if (!form) return;
  const country = form.elements.namedItem("country");
  const number = form.elements.namedItem("vat_number");
  const error = document.getElementById("requote-error");
  const shown = {label: "vat-label", vat: "vat", total: "total", note: "vat-note"};
  let timer = 0;
  let asked = 0;

  function put(id, text, strong) {
    const el = document.getElementById(id);
    if (!el) return;
    const inner = document.createElement(strong ? "strong" : "small");
    inner.textContent = text;
    if (id === shown.label) { el.textContent = text; return; }
    el.replaceChildren(inner);
  }

  async function requote() {
    const code = (country.value || "").trim();
    const mine = ++asked;
    const body = new URLSearchParams({country: code, vat_number: (number.value || "").trim()});
    try {
      const response = await fetch(form.dataset.requote, {method: "POST", body, credentials: "same-origin",
                                                          headers: {"Accept": "application/json"}});
      const answer = await response.json();
      if (mine !== asked) return;  // a newer answer is on its way
      if (!response.ok) {
        const first = (answer.errors || [])[0];
        error.textContent = first ? first.message : (answer.detail || "Could not work out the VAT.");
        return;
      }
      error.textContent = "";
      put(shown.label, answer.shown.vat_label, false);
      put(shown.vat, answer.shown.vat, false);
      put(shown.total, answer.shown.total, true);
      put(shown.note, answer.shown.note, false);
    } catch (e) {
      // offline or the server is away: the form still re-quotes when it is saved
    }
  }

  function later() {
    window.clearTimeout(timer);
    timer = window.setTimeout(requote, 300);
  }

  country.addEventListener("change", requote);  // a menu: the choice is made at once
  number.addEventListener("input", later);
})();
