// Ours, not i18next's: the part of i18next.js (vendored as published) the client calls, typed
// for the checker (services/web/tsconfig.json), which then reads this file instead of the library.

export interface TOptions {
  defaultValue?: unknown;
  count?: number;
  [key: string]: unknown;
}

export interface I18n {
  language: string;
  init(options: {
    lng: string;
    fallbackLng: string;
    resources: Record<string, unknown>;
    interpolation: { escapeValue: boolean };
    returnNull: boolean;
  }): Promise<unknown>;
  t(key: string, options?: TOptions): string;
  exists(key: string, options?: TOptions): boolean;
  addResourceBundle(lng: string, ns: string, resources: unknown, deep?: boolean, overwrite?: boolean): I18n;
  changeLanguage(lng: string): Promise<unknown>;
}

declare const i18next: I18n;
export default i18next;
