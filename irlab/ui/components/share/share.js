// "Copy link to this view": the page's URL holds the whole state; this copies it to the clipboard.
//
// The link is also shown in a read-only field, so it can be selected by hand where the clipboard is not
// allowed (plain http on a classroom network is not a secure context).

/**
 * The component's elements, built once per instance.
 * @param {HTMLElement} parent
 * @returns {{url: HTMLInputElement, status: HTMLElement, button: HTMLButtonElement}}
 */
function build(parent) {
  const box = document.createElement("div");
  box.className = "irl-share";
  const button = document.createElement("button");
  button.type = "button";
  button.className = "irl-copy";
  button.dataset.testid = "irl-copy-link";
  button.textContent = "Copy link to this view";
  const status = document.createElement("span");
  status.className = "irl-copied";
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  status.dataset.testid = "irl-copied";
  const label = document.createElement("label");
  label.className = "irl-url-label";
  label.textContent = "Link";
  const url = document.createElement("input");
  url.className = "irl-url";
  url.dataset.testid = "irl-url";
  url.readOnly = true;
  url.setAttribute("aria-label", "Link to this view");
  label.append(url);
  box.append(button, status, label);
  parent.append(box);
  return { url, status, button };
}

/** @param {{parentElement: HTMLElement & {__irlShare?: ReturnType<typeof build>, __irlTimer?: number | null}}} component */
export default function (component) {
  const { parentElement } = component;
  const parts = parentElement.__irlShare ?? (parentElement.__irlShare = build(parentElement));
  const { url, status, button } = parts;
  const here = () => window.location.href;
  url.value = here();
  // Streamlit rewrites the URL after each run; keep the field current while the page is open.
  if (!parentElement.__irlTimer) {
    parentElement.__irlTimer = window.setInterval(() => { if (url.value !== here()) url.value = here(); }, 250);
  }
  button.onclick = async () => {
    url.value = here();
    try {
      await navigator.clipboard.writeText(url.value);
      status.textContent = "Copied: paste it anywhere to open this exact view.";
    } catch (error) {
      url.focus();
      url.select();
      status.textContent = "Select the link below and copy it (Ctrl+C / Cmd+C).";
    }
  };
  return () => {
    if (parentElement.__irlTimer) window.clearInterval(parentElement.__irlTimer);
    parentElement.__irlTimer = null;
  };
}
