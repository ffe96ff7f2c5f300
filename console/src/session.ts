// The signed-in key lives in this tab's sessionStorage only (never localStorage, a URL or a log): closing the tab or
// signing out forgets it.
const KEY = 'pet-api-console.api-key';

export const storedKey = (): string | null => window.sessionStorage.getItem(KEY);
export const storeKey = (apiKey: string) => window.sessionStorage.setItem(KEY, apiKey);
export const forgetKey = () => window.sessionStorage.removeItem(KEY);
