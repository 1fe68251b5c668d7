// Progressive votes: the vote forms work without this; with it the count changes in place.
// While a vote is on its way the button says so with aria-disabled and ignores presses; it is never
// disabled, because disabling the focused button drops keyboard focus to the top of the page.
const votes = (n) => n + (n === 1 ? " vote" : " votes");
document.addEventListener("submit", async (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-vote")) return;
  event.preventDefault();
  const button = form.querySelector("button");
  if (button && button.getAttribute("aria-disabled") === "true") return;
  if (button) button.setAttribute("aria-disabled", "true");
  try {
    const response = await fetch(form.action, {method: "POST", body: new FormData(form),
                                               headers: {"Accept": "application/json"}, credentials: "same-origin"});
    const answer = await response.json().catch(() => ({}));
    if (response.status === 401 && answer.signin) { window.location.href = answer.signin; return; }
    if (!response.ok) { form.submit(); return; }  // let the server's page explain
    const voted = answer.voted === true;
    const slug = form.action.replace(/\/(un)?vote$/, "");
    form.action = slug + (voted ? "/unvote" : "/vote");
    if (button) {
      button.setAttribute("aria-pressed", voted ? "true" : "false");
      const n = button.querySelector(".n");
      if (n && typeof answer.votes === "number") n.textContent = String(answer.votes);
      const name = button.dataset.name || "";
      button.setAttribute("aria-label", (voted ? "Remove your vote for " : "Vote for ") + name + ", " + votes(answer.votes));
    }
  } catch (e) {
    form.submit();
  } finally {
    if (button) button.removeAttribute("aria-disabled");
  }
});

// Forms marked data-autosubmit (the badge style chooser) work with their button; with this, an option chosen with
// the mouse or a touch shows at once. A menu moved through with the arrow keys changes at every step, so a change
// made from the keyboard waits for the button (or Enter): the page does not reload under the person's focus.
let keyedAt = 0;
document.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLSelectElement) keyedAt = Date.now();
});
document.addEventListener("change", (event) => {
  const form = event.target instanceof Element ? event.target.closest("form[data-autosubmit]") : null;
  if (form instanceof HTMLFormElement && Date.now() - keyedAt > 500) form.requestSubmit();
});
