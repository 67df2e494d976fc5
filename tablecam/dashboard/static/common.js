// Shared by the live page and the history page: the PIN, requests, card text.
"use strict";

const Tablecam = (() => {
  const PIN_KEY = "tablecam-pin";

  function pin() {
    return sessionStorage.getItem(PIN_KEY);
  }

  function setPin(value) {
    if (value) sessionStorage.setItem(PIN_KEY, value);
    else sessionStorage.removeItem(PIN_KEY);
    document.dispatchEvent(new CustomEvent("tablecam-pin"));
  }

  // Ask for the PIN in the dialog; resolves to true once the box accepted it.
  function askPin() {
    const dialog = document.getElementById("pin-dialog");
    const input = document.getElementById("pin-input");
    const error = document.getElementById("pin-error");
    const form = document.getElementById("pin-form");
    return new Promise((resolve) => {
      error.textContent = "";
      input.value = "";
      const onSubmit = async (e) => {
        e.preventDefault();
        const answer = await request("POST", "/api/pair", {}, input.value.trim());
        if (answer.ok) {
          setPin(input.value.trim());
          cleanup();
          dialog.close();
          resolve(true);
        } else {
          error.textContent = answer.error;
          input.select();
        }
      };
      const onCancel = () => { cleanup(); dialog.close(); resolve(false); };
      const cleanup = () => {
        form.removeEventListener("submit", onSubmit);
        document.getElementById("pin-cancel").removeEventListener("click", onCancel);
        dialog.removeEventListener("cancel", onCancel);
      };
      form.addEventListener("submit", onSubmit);
      document.getElementById("pin-cancel").addEventListener("click", onCancel);
      dialog.addEventListener("cancel", onCancel);
      dialog.showModal();
      input.focus();
    });
  }

  // One JSON request; resolves to {ok, status, data, error} and never throws.
  async function request(method, url, body, pinValue) {
    const headers = {"Content-Type": "application/json"};
    const usePin = pinValue !== undefined ? pinValue : pin();
    if (usePin) headers["X-Tablecam-Pin"] = usePin;
    try {
      const response = await fetch(url, {
        method, headers, body: body === undefined ? undefined : JSON.stringify(body),
      });
      let data = {};
      try { data = await response.json(); } catch (_) { data = {}; }
      return {ok: response.ok, status: response.status, data,
              error: data.error || (response.ok ? "" : `the box answered ${response.status}`)};
    } catch (_) {
      return {ok: false, status: 0, data: {}, error: "the box cannot be reached"};
    }
  }

  // A request that needs the PIN: asks for it first, and again if the box refuses it.
  async function controlRequest(method, url, body) {
    if (!pin() && !(await askPin())) return {ok: false, status: 0, data: {}, error: "locked"};
    let answer = await request(method, url, body);
    if (answer.status === 403) {
      setPin(null);
      if (!(await askPin())) return answer;
      answer = await request(method, url, body);
    }
    return answer;
  }

  function cardClass(code) {
    if (!code) return "card unknown";
    const suit = code.slice(-1);
    return "card " + (suit === "H" || suit === "D" ? "red" : "black");
  }

  const SUITS = {C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660"};

  function cardText(code) {
    if (!code) return "?";
    return code.slice(0, -1) + (SUITS[code.slice(-1)] || code.slice(-1));
  }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (key === "class") node.className = value;
      else if (key.startsWith("data-") || key === "title" || key === "href") node.setAttribute(key, value);
      else node[key] = value;
    }
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }

  return {pin, setPin, askPin, request, controlRequest, cardClass, cardText, el};
})();
