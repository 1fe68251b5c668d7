// Live re-quote on the checkout page: as the country is chosen or the VAT number typed, ask the page's JSON endpoint
// (the same VAT code as saving the billing details) and show the new VAT and total. Without this script,
// saving the billing details re-quotes on the server. Figures shown for details not saved yet are called a preview,
// and Pay waits while the form holds changes that are not saved (Pay charges the saved details).
(() => {
  const form = document.querySelector("form[data-requote]");
  if (!form) return;
  const country = form.elements.namedItem("country");
  const number = form.elements.namedItem("vat_number");
  const error = document.getElementById("requote-error");
  const pay = document.getElementById("pay-form");
  const payWait = document.getElementById("pay-wait");
  const totalsFor = document.getElementById("totals-for");
  const shown = {label: "vat-label", vat: "vat", total: "total", note: "vat-note"};
  const PREVIEW = "Preview for the details in the form, which are not saved yet.";
  let timer = 0;
  let asked = 0;

  function put(id, text, wrap) {
    const el = document.getElementById(id);
    if (!el) return;
    if (!wrap) { el.textContent = text; return; }
    if (!text) { el.replaceChildren(); return; }  // nothing to add (the VAT note when the VAT row says it all)
    const inner = document.createElement(wrap);  // as the page has it: the total strong, the note small
    inner.textContent = text;
    el.replaceChildren(inner);
  }

  // True when the form holds what is not saved: a refused update, or a field changed since the page came.
  function unsaved() {
    if (form.hasAttribute("data-unsaved")) return true;
    return [...form.elements].some((el) => {
      if (el instanceof HTMLSelectElement) return [...el.options].some((o) => o.selected !== o.defaultSelected);
      return (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) && el.value !== el.defaultValue;
    });
  }

  function followForm() {
    const waiting = unsaved();
    if (pay) pay.hidden = waiting;
    if (pay && payWait) {
      payWait.textContent = waiting ? "Save the billing details to pay: the changes in the form are not saved yet." : "";
    }
  }

  // A field's message from the last refused save, once the re-quote accepts the field as it is now.
  function clearSaved(input) {
    const old = document.getElementById(input.id + "-error");
    if (!old) return;
    old.remove();
    input.removeAttribute("aria-invalid");
    input.setAttribute("aria-describedby", "requote-error");
    input.closest(".field-error")?.classList.remove("field-error");
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
      clearSaved(country);
      clearSaved(number);
      put(shown.label, answer.shown.vat_label, "");
      put(shown.vat, answer.shown.vat, "");
      put(shown.total, answer.shown.total, "strong");
      put(shown.note, answer.shown.note, "small");
      if (totalsFor) totalsFor.textContent = unsaved() ? PREVIEW : totalsFor.dataset.saved;
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
  form.addEventListener("input", followForm);
  form.addEventListener("change", followForm);
})();
