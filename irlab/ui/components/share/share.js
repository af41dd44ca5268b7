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

/**
 * Call ``follow`` whenever the page's URL changes; returns what stops that. Streamlit rewrites the URL after a run, the
 * live region after a K the learner settled on (irlab/ui/components/region/region.js), both through the History API,
 * which the Navigation API reports (currententrychange): nothing runs while the URL stays. A browser without it is
 * asked once a second (before, every browser was asked four times a second, a main-thread task each time, all along).
 * @param {() => void} follow
 * @returns {() => void}
 */
function onUrlChange(follow) {
  const navigation = /** @type {EventTarget | undefined} */ (/** @type {any} */ (window).navigation);
  window.addEventListener("popstate", follow);
  if (navigation && typeof navigation.addEventListener === "function") {
    navigation.addEventListener("currententrychange", follow);
    return () => {
      navigation.removeEventListener("currententrychange", follow);
      window.removeEventListener("popstate", follow);
    };
  }
  const timer = window.setInterval(follow, 1000);
  return () => {
    window.clearInterval(timer);
    window.removeEventListener("popstate", follow);
  };
}

/** @param {{parentElement: HTMLElement & {__irlShare?: ReturnType<typeof build>, __irlUnfollow?: (() => void) | null}}} component */
export default function (component) {
  const { parentElement } = component;
  const parts = parentElement.__irlShare ?? (parentElement.__irlShare = build(parentElement));
  const { url, status, button } = parts;
  const here = () => window.location.href;
  url.value = here();
  // keep the field current while the page is open
  if (!parentElement.__irlUnfollow) {
    parentElement.__irlUnfollow = onUrlChange(() => { if (url.value !== here()) url.value = here(); });
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
    parentElement.__irlUnfollow?.();
    parentElement.__irlUnfollow = null;
  };
}
