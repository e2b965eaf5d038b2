// The rates of `[limits]` (README, Exec): per namespace, `materialize_per_minute` and
// `materialize_per_day` over the execs that revealed, `shell_per_day` over the shells, each a
// rolling window over the times reveals happened. Pure: the store keeps the times.
import type { ExecKind } from '../contract.ts';
import { MAX_RATE } from '../limits.ts';
import type { Limits } from '../policy/index.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** The times of a namespace's reveals within the last day, oldest first. */
export interface RateLog {
  exec: number[];
  shell: number[];
}

export const emptyLog = (): RateLog => ({ exec: [], shell: [] });

/** The windows a reveal of that kind counts in: each limit's name, its length and its rate. */
function windows(kind: ExecKind, limits: Limits): { limit: keyof Limits; ms: number; rate: number }[] {
  const rate = (limit: keyof Limits) => Math.min(limits[limit], MAX_RATE);
  return kind === 'exec'
    ? [
        { limit: 'materialize_per_minute', ms: MINUTE, rate: rate('materialize_per_minute') },
        { limit: 'materialize_per_day', ms: DAY, rate: rate('materialize_per_day') },
      ]
    : [{ limit: 'shell_per_day', ms: DAY, rate: rate('shell_per_day') }];
}

/** Why a reveal of that kind may not happen now, naming the limit and when it frees; null when it may. */
export function rateRefusal(log: RateLog, kind: ExecKind, limits: Limits, now: number): string | null {
  const times = log[kind];
  for (const { limit, ms, rate } of windows(kind, limits)) {
    const inWindow = times.filter((t) => t > now - ms);
    if (inWindow.length < rate) continue;
    // The window frees when its oldest counted reveal leaves it.
    const frees = inWindow[inWindow.length - rate]! + ms - now;
    return `${limit} (${limits[limit]}) reached; try again in ${inWords(frees)}`;
  }
  return null;
}

/** The log with a reveal of that kind at `now`, older than a day left out. */
export function logged(log: RateLog, kind: ExecKind, now: number): RateLog {
  const keep = (times: number[]) => times.filter((t) => t > now - DAY).slice(-MAX_RATE);
  const next = { exec: keep(log.exec), shell: keep(log.shell) };
  next[kind] = [...next[kind], now].slice(-MAX_RATE);
  return next;
}

/** A wait in words: seconds under two minutes, minutes under two hours, else hours. */
function inWords(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  return `${Math.ceil(minutes / 60)} h`;
}
