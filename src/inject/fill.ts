// The one fill (README, Forward): after a decision allowed a request and the values it names were
// decrypted, each placeholder it found is replaced by its value, a Basic credential written back
// encoded, and the head refused if a value brought CR, LF or NUL into it. The request's head is
// never changed: the filled head is a copy. Pure.
import type { RequestHead } from '../contract.ts';
import { encodeBase64Utf8 } from './basic.ts';
import { type Allowed, type Refusal, controlChars } from './decide.ts';

/** `values` holds the value of every record the decision names (`names`), by name. */
export function fill(decision: Allowed, head: RequestHead, values: ReadonlyMap<string, string>): { inject: true; head: RequestHead } | Refusal {
  const valueNamed = (name: string) => {
    const value = values.get(name);
    if (value === undefined) throw new Error(`the fill was given no value for ${name}`);
    return value;
  };
  const headers = head.headers.map(([n, v]): [string, string] => [n, v]);
  for (const { index, text, basic, records } of decision.fills) {
    // Placeholders are all the same length and none contains another, so order is free; each
    // appears once in the head (the decision refused a second).
    const put = (part: string) => records.reduce((t, r) => t.replace(r.placeholder, () => valueNamed(r.name)), part);
    if (!basic) {
      headers[index][1] = put(text);
      continue;
    }
    const colon = text.indexOf(':');
    const user = text.slice(0, colon);
    if (put(user).includes(':')) {
      const r = records.find((x) => user.includes(x.placeholder))!;
      return { inject: false, status: 403, reason: `${r.name} has ':' in its value, so it can't be a Basic user` };
    }
    headers[index][1] = `${basic.scheme} ${encodeBase64Utf8(`${put(user)}:${put(text.slice(colon + 1))}`)}`;
  }
  return controlChars(headers) ?? { inject: true, head: { method: head.method, url: head.url, headers } };
}
