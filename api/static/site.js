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
    if (typeof answer.votes === "number") showVotes(form, slug, voted, answer.votes);
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

// The draft editor (form[data-unsaved-warning]) keeps what is typed without this: every button saves every change.
// With it, leaving the page with typed changes not yet saved (a link, the back button, closing the tab) asks first.
{
  const editor = document.querySelector("form[data-unsaved-warning]");
  let typed = false;
  if (editor) {  // only there: a beforeunload listener keeps some browsers from caching the page for Back
    editor.addEventListener("input", () => { typed = true; });
    editor.addEventListener("submit", () => { typed = false; });
    window.addEventListener("beforeunload", (event) => {
      if (!typed) return;
      event.preventDefault();
      event.returnValue = "";  // older browsers ask only when this is set
    });
  }
}

// Code to paste (textarea.code[data-copy]: a badge's embed code, a claim's tag or file line) can be selected and
// copied by hand without this; with it, each gets a Copy button beside its label, and the line under it says when it
// was copied (in the textarea's data-copied words, else "paste it into your homepage").
function addCopyButtons() {
  for (const code of document.querySelectorAll("textarea.code[data-copy]")) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "copy";
    button.textContent = "Copy";
    button.setAttribute("aria-describedby", code.id);
    const said = document.createElement("span");
    said.className = "copied";
    said.setAttribute("role", "status");
    button.addEventListener("click", async () => {
      code.select();
      try {
        await navigator.clipboard.writeText(code.value);
      } catch (e) {
        document.execCommand("copy");  // older browsers, or a page the clipboard API refuses
      }
      said.textContent = code.dataset.copied || "Copied. Paste it into your homepage.";
    });
    code.after(button, said);
  }
}
addCopyButtons();

// A listing's other counts on the page say what its pressed button says: the Community box of its page
// ([data-votes-of]) and any other vote button of the same listing (a category's featured and ranked cards).
function showVotes(pressed, listing, voted, n) {
  const slug = listing.split("/").pop();
  document.querySelectorAll("[data-votes-of]").forEach((el) => {
    if (el.getAttribute("data-votes-of") === slug) el.textContent = String(n);
  });
  document.querySelectorAll("form[data-vote]").forEach((form) => {
    if (form === pressed || form.action.replace(/\/(un)?vote$/, "") !== listing) return;
    form.action = listing + (voted ? "/unvote" : "/vote");
    const button = form.querySelector("button");
    if (!button) return;
    button.setAttribute("aria-pressed", voted ? "true" : "false");
    const count = button.querySelector(".n");
    if (count) count.textContent = String(n);
    button.setAttribute("aria-label", (voted ? "Remove your vote for " : "Vote for ") + (button.dataset.name || "") + ", " + votes(n));
  });
}
