
// A section that folds away (Settings, Game so far): a real button, so Tab reaches it and Enter or Space opens
// it, with its state announced (aria-expanded).
const CHEVRON = '<svg class="dg-chevron" viewBox="0 0 16 16" width="0.9em" height="0.9em" aria-hidden="true">' +
  '<path fill="none" stroke="currentColor" stroke-width="2.4" d="M5 2.5l5.5 5.5L5 13.5"/></svg>';

function render({ model, el }) {
  const b = document.createElement("button");
  b.className = "dg-disclosure";
  b.type = "button";
  const label = document.createElement("span");
  b.innerHTML = CHEVRON;
  b.append(label);
  el.append(b);
  const sync = () => {
    label.textContent = model.get("label");
    b.setAttribute("aria-expanded", model.get("expanded") ? "true" : "false");
  };
  b.addEventListener("click", () => {
    model.set("expanded", !model.get("expanded"));
    model.save_changes();
    sync();
  });
  model.on("change:expanded", sync);
  model.on("change:label", sync);
  sync();
}

export default { render };
