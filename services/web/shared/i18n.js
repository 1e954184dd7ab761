// @ts-check
// The client's four languages (docs/web-client.md, "Languages"): i18next (vendored, MIT, see
// vendor/README.md) looks words up in one catalog per language (locales/*.json, the same keys in
// each) and picks plural forms by the browser's Intl.PluralRules; numbers and dates go through
// Intl.NumberFormat and Intl.DateTimeFormat in the same language.
//
// The language: the one the player keeps on his account (`locale` of GET /v1/players/me),
// else the one last chosen in this browser, else the first of navigator.languages we have,
// else English. Static text in the pages carries its key in `data-i18n` (text) or
// `data-i18n-attr="attribute:key;…"`, and is filled in again at every switch.

import i18next from "../vendor/i18next.js";

/** @typedef {"en" | "fr" | "ru" | "pl"} Locale */
/** @type {string[]} */
export const LOCALES = ["en", "fr", "ru", "pl"];

/** @import { TOptions } from "../vendor/i18next.js" */

// The language menu of a page (the player's and the admin's): one option per language, named
// in that language (the browser's CLDR names, capitalised as a menu item), so a reader finds
// his own whatever the page's language is now.
/** @param {HTMLSelectElement} select */
export function languageMenu(select) {
  select.replaceChildren(...LOCALES.map((lng) => {
    const name = new Intl.DisplayNames([lng], { type: "language" }).of(lng) || lng;
    const option = document.createElement("option");
    option.value = lng;
    option.lang = lng;
    option.textContent = name.charAt(0).toLocaleUpperCase(lng) + name.slice(1);
    return option;
  }));
}
const KEY = "atout.locale";
/** @type {Set<string>} */
const loaded = new Set();
/** @type {((lng: string) => void)[]} */
const listeners = [];

/** @param {readonly string[]} [languages] */
export function browserLocale(languages = navigator.languages || [navigator.language]) {
  for (const tag of languages || []) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LOCALES.includes(base)) return base;
  }
  return "en";
}

export function storedLocale() {
  const kept = localStorage.getItem(KEY);
  return kept !== null && LOCALES.includes(kept) ? kept : null;
}

/** @type {() => Locale} */
export const locale = () => /** @type {Locale} */ (i18next.language || "en");     // setLocale sets no other
/** @type {(key: string, options?: TOptions) => string} */
export const t = (key, options) => i18next.t(key, options);
// Whether the catalogs hold `key` (with `options.count`, in its plural forms).
/** @type {(key: string, options?: TOptions) => boolean} */
export const has = (key, options) => i18next.exists(key, options);

/** @param {string} lng */
async function load(lng) {
  if (loaded.has(lng)) return;
  const res = await fetch(`/web/locales/${lng}.json`);
  i18next.addResourceBundle(lng, "translation", await res.json(), true, true);
  loaded.add(lng);
}

// Start with the language this browser last chose or prefers; `setLocale` switches later.
/** @param {string} [lng] */
export async function initI18n(lng = storedLocale() || browserLocale()) {
  await i18next.init({ lng, fallbackLng: "en", resources: {}, interpolation: { escapeValue: false },
                       returnNull: false });
  await load("en");
  await setLocale(lng, { keep: false });
}

// Switch: the catalog is fetched once, the page's static text filled in, every listener
// (the screens that draw from data) told to draw again. `keep`: remember it in this browser.
/**
 * @param {string} lng
 * @param {{ keep?: boolean }} [how]
 */
export async function setLocale(lng, { keep = true } = {}) {
  if (!LOCALES.includes(lng)) lng = "en";
  await load(lng);
  await i18next.changeLanguage(lng);
  if (keep) localStorage.setItem(KEY, lng);
  document.documentElement.lang = lng;
  translatePage();
  for (const fn of listeners) fn(lng);
}

export const onLocale = (/** @type {(lng: string) => void} */ fn) => listeners.push(fn);

/** @param {ParentNode} [root] */
export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(/** @type {HTMLElement} */ (el).dataset.i18n || "");
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of (/** @type {HTMLElement} */ (el).dataset.i18nAttr || "").split(";")) {
      const [attr, key] = pair.split(":");
      if (attr && key) el.setAttribute(attr.trim(), t(key.trim()));
    }
  }
}

export const num = (/** @type {unknown} */ n) => (typeof n === "number" ? new Intl.NumberFormat(locale()).format(n) : String(n ?? ""));
export const pct = (/** @type {number} */ n) => new Intl.NumberFormat(locale(), { style: "percent", maximumFractionDigits: 0 }).format(n);
/** @param {string | number | null | undefined} at */
export function when(at) {
  const d = new Date(/** @type {string | number} */ (at));
  return Number.isNaN(d.getTime()) ? String(at ?? "")
    : new Intl.DateTimeFormat(locale(), { dateStyle: "medium", timeStyle: "short" }).format(d);
}
// A list in the language's own way ("N, E and S", «N, E и S»).
export const list = (/** @type {unknown[]} */ items) => new Intl.ListFormat(locale(), { type: "conjunction" }).format(items.map(String));
